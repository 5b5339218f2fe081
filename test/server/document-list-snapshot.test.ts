import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ListEnvelope } from '../../common/archive-types.ts';
import type { Sql } from '../../server/db/sql.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

/**
 * A page of GET /v1/documents is read as one snapshot. The fault: a document is deleted right after the service's
 * statement that picks the page, as another client's DELETE landing mid-request would. Read in one
 * statement, the page shows the document as it was; a page picked first and its rows read afterwards would list a
 * deleted document (deleted_at set) among the live ones.
 */
let h: Harness;
const ids: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < 3; i++)
    ids.push(await uploadAndProcess(h, { bytes: await makePdf(`Snapshot ${i}`), name: `s${i}.pdf` }));
});

afterAll(() => h?.close());

/** Runs `fault` once, right after the next statement on db that picks a page of documents (ORDER BY … LIMIT). */
function afterNextDocumentsRead(db: Sql, fault: () => Promise<void>): void {
  const all = db.all.bind(db);
  const faulty = async (...args: Parameters<Sql['all']>) => {
    const rows = await all(...args);
    if (/\bFROM documents d\b[^]*\bORDER BY\b[^]*\bLIMIT\b/.test(args[0])) {
      db.all = all;
      await fault();
    }
    return rows;
  };
  db.all = faulty as Sql['all'];
}

describe('GET /v1/documents reads a page as one snapshot', () => {
  it('a document deleted while the page is read is not listed live with a deletion time', async () => {
    const victim = ids[1]!;
    afterNextDocumentsRead(h.db, async () => {
      await h.db.run('UPDATE documents SET deleted_at = ? WHERE id = ?', new Date().toISOString(), victim);
    });
    const res = await h.api('/v1/documents');
    expect(res.status).toBe(200);
    const body = (await res.json()) as ListEnvelope<ArchiveDocument>;
    expect(body.items.map((item) => item.id).sort()).toEqual([...ids].sort());
    for (const item of body.items) expect(item.deleted_at).toBeNull();
    // The deletion itself happened: the next page says so.
    const after = (await (await h.api('/v1/documents')).json()) as ListEnvelope<ArchiveDocument>;
    expect(after.items.map((item) => item.id)).not.toContain(victim);
  });
});
