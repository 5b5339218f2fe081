import { mkdtemp, rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocument } from '../../common/archive-types.ts';
import { CACHE_MIGRATIONS } from '../../main/core/library/cache-schema.ts';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { runMigrations } from '../../shared/db/migrate.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';
import { readJson } from '../helpers/http-raw.ts';

// Byte order would give: Angebot, Rechnung 10, Rechnung 2, Vertrag, rechnung, Ärger.
const TITLES = ['Vertrag', 'rechnung', 'Rechnung 10', 'Ärger', 'Rechnung 2', 'Angebot'];
const READ_ORDER = ['Angebot', 'Ärger', 'rechnung', 'Rechnung 2', 'Rechnung 10', 'Vertrag'];

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 } });
  dir = await mkdtemp(join(tmpdir(), 'title-order-'));
  for (const title of TITLES)
    await uploadAndProcess(h, { bytes: await makePdf(title), name: 'scan.pdf' }, { metadata: { title } });
  // Six documents processed one after another: over 30 s once in the full suite on two cores.
}, 120_000);
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

const serverList = async (query: string): Promise<ArchiveDocument[]> =>
  (await readJson<{ items: ArchiveDocument[] }>(await h.api(`/v1/documents?sort_by=title&${query}`))).items;
const titles = (docs: readonly ArchiveDocument[]): string[] => docs.map((d) => d.title);

describe('sort by title as a person reads it', () => {
  it('the service: case-insensitive, Ä with A, numbers by value, both directions and across pages', async () => {
    expect(titles(await serverList('sort_order=asc'))).toEqual(READ_ORDER);
    expect(titles(await serverList('sort_order=desc'))).toEqual([...READ_ORDER].reverse());
    expect(titles(await serverList('sort_order=asc&limit=2&offset=2'))).toEqual(['rechnung', 'Rechnung 2']);
  });

  it('the service: a hand-edited title takes its place at once', async () => {
    const [first] = await serverList('sort_order=asc');
    await readJson(await h.api(`/v1/documents/${first!.id}`, { method: 'PATCH', json: { title: 'Zahlung 1' } }));
    expect(titles(await serverList('sort_order=asc'))).toEqual([...READ_ORDER.slice(1), 'Zahlung 1']);
    await readJson(await h.api(`/v1/documents/${first!.id}`, { method: 'PATCH', json: { title: 'Angebot' } }));
  });

  it('the library cache sorts what the service sent in the same order', async () => {
    const cache = new LibraryCache(join(dir, 'library.sqlite'));
    try {
      cache.upsertDocuments(await serverList('sort_order=asc&limit=100'), Date.now());
      expect(titles(cache.listDocuments({ sort_by: 'title', sort_order: 'asc' }).items)).toEqual(READ_ORDER);
      for (const sort_order of ['asc', 'desc'] as const) {
        expect(titles(cache.listDocuments({ sort_by: 'title', sort_order }).items)).toEqual(
          titles(await serverList(`sort_order=${sort_order}`)),
        );
      }
    } finally {
      cache.close();
    }
  });

  it('a cache written before the sort key gets it for the rows it holds', async () => {
    const path = join(dir, 'old-library.sqlite');
    const old = new DatabaseSync(path);
    runMigrations(old, CACHE_MIGRATIONS.slice(0, 2));
    const insert =
      old.prepare(`INSERT INTO documents (id, space_id, status, title, created_at, updated_at, deleted, json, checked_at)
      VALUES (?, 's', 'completed', ?, 'c', 'u', 0, ?, 0)`);
    TITLES.forEach((title, i) => insert.run(`d${i}`, title, JSON.stringify({ id: `d${i}`, title })));
    old.close();

    const cache = new LibraryCache(path);
    try {
      expect(titles(cache.listDocuments({ sort_by: 'title', sort_order: 'asc' }).items)).toEqual(READ_ORDER);
      const plan = (
        cache.db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT json FROM documents WHERE deleted = 0
        ORDER BY title_key ASC NULLS LAST, id ASC LIMIT 50`,
          )
          .all() as Array<{ detail: string }>
      )
        .map((r) => r.detail)
        .join('; ');
      expect(plan).toMatch(/USING (COVERING )?INDEX documents_title\b/);
      expect(plan).not.toContain('TEMP B-TREE');
    } finally {
      cache.close();
    }
  });
});
