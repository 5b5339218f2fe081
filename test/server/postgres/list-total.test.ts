import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_STATUSES } from '../../../common/archive-types.ts';
import { makePdf, startHarness, LEARNABLE_HIGH_LIMITS, type Harness } from '../../helpers/archive-harness.ts';
import { freshDatabase, postgresForTests, type TestDatabase } from '../../helpers/postgres.ts';
import { SKIP_FROM_OFFSET } from '../../../server/documents/document-total.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

/**
 * GET /v1/documents on PostgreSQL: `total` comes from the counts the triggers keep (pg-document-counts.ts) when the
 * filters are only space, status and deleted, and stays exact through what the API does to documents.
 */
describe.skipIf(!postgres.url)('PostgreSQL: the document list total', () => {
  let database: TestDatabase;
  let h: Harness;
  let otherSpace: string;

  beforeAll(async () => {
    database = await freshDatabase();
    h = await startHarness({ database: database.url, limits: LEARNABLE_HIGH_LIMITS });
    otherSpace = await h.createSpace('Other');
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  const total = async (query = ''): Promise<number> => {
    const res = await h.api(`/v1/documents${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { total: number }).total;
  };
  const rows = async (where: string, ...args: string[]): Promise<number> =>
    (await h.db.get<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${where}`, ...args))!.n;

  const kept = async (deleted: boolean): Promise<number> =>
    (await h.db.get<{ n: number | null }>(
      'SELECT sum(n) AS n FROM document_counts WHERE deleted = ?',
      Number(deleted),
    ))!.n ?? 0;

  /** Every keyed list's total, and the counts table it reads, against the rows they stand for. */
  const expectTotalsExact = async (): Promise<void> => {
    for (const deleted of [false, true]) {
      const live = deleted ? 'deleted_at IS NOT NULL' : 'deleted_at IS NULL';
      const flag = `deleted=${deleted}`;
      expect(await kept(deleted)).toBe(await rows(live));
      expect(await total(`?${flag}`)).toBe(await rows(live));
      for (const space of [h.defaultSpaceId, otherSpace]) {
        expect(await total(`?${flag}&space_id=${space}`)).toBe(await rows(`${live} AND space_id = ?`, space));
      }
      for (const status of DOCUMENT_STATUSES) {
        expect(await total(`?${flag}&status=${status}`)).toBe(await rows(`${live} AND status = ?`, status));
      }
    }
  };

  it('counts uploads sent at once, to two spaces, through processing', async () => {
    const uploads = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) =>
        h.upload(
          { bytes: await makePdf(`List total document ${i}`), name: `doc-${i}.pdf`, type: 'application/pdf' },
          i % 2 === 0 ? { space_id: otherSpace } : {},
        ),
      ),
    );
    expect(uploads.map((res) => res.status)).toEqual([202, 202, 202, 202, 202, 202]);
    await h.service.processor.idle();
    expect(await total()).toBe(6);
    await expectTotalsExact();
  });

  it('follows soft delete, restore and a key limited to spaces', async () => {
    const { id } = (await h.db.get<{ id: string }>('SELECT id FROM documents WHERE space_id = ? LIMIT 1', otherSpace))!;
    expect((await h.api(`/v1/documents/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await total()).toBe(5);
    expect(await total('?deleted=true')).toBe(1);
    await expectTotalsExact();
    expect((await h.api(`/v1/documents/${id}/restore`, { method: 'POST' })).status).toBe(200);
    expect(await total()).toBe(6);
    await expectTotalsExact();
    const limited = await h.createKey({ spaces: [otherSpace] });
    const res = await h.api('/v1/documents', { key: limited });
    expect(((await res.json()) as { total: number }).total).toBe(3);
  });

  it('reads the counts for space, status and deleted filters only, and counts rows for any other filter', async () => {
    // A planted delta shows which lists read the counts table: the keyed ones see it, the others count rows.
    await h.db.run(
      "INSERT INTO document_counts (space_id, status, deleted, month, n) VALUES (?, 'completed', 0, '2000-01', 1000)",
      h.defaultSpaceId,
    );
    try {
      expect(await total()).toBe(1006);
      expect(await total(`?space_id=${h.defaultSpaceId}&status=completed`)).toBe(
        1000 + (await rows("deleted_at IS NULL AND space_id = ? AND status = 'completed'", h.defaultSpaceId)),
      );
      expect(await total(`?space_id=${otherSpace}`)).toBe(3);
      expect(await total('?created_after=2000-01-01')).toBe(6);
      expect(await total('?updated_after=2000-01-01')).toBe(6);
      expect(await total(`?category_id=${crypto.randomUUID()}`)).toBe(0);
      expect(await total('?tag=none')).toBe(0);
    } finally {
      await h.db.run(
        "INSERT INTO document_counts (space_id, status, deleted, month, n) VALUES (?, 'completed', 0, '2000-01', -1000)",
        h.defaultSpaceId,
      );
    }
    expect(await total()).toBe(6);
  });

  it('pages deep in the created_at order start at their month and equal walking the whole order', async () => {
    await h.db.run(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
        sha256, created_at, updated_at)
       SELECT gen_random_uuid()::text, ?, CASE WHEN i % 4 = 0 THEN 'failed' ELSE 'completed' END, 'Old', 'o.pdf',
         'application/pdf', 'pdf', 1, 'x',
         to_char(timestamp '2023-01-01' + i * interval '3 hours', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'now'
       FROM generate_series(1, ${SKIP_FROM_OFFSET + 400}) AS i`,
      otherSpace,
    );
    const ids = async (query: string): Promise<string[]> => {
      const res = await h.api(`/v1/documents${query}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: Array<{ id: string }> }).items.map((item) => item.id);
    };
    const walked = async (where: string, direction: 'ASC' | 'DESC', offset: number): Promise<string[]> =>
      (
        await h.db.all<{ id: string }>(
          `SELECT id FROM documents WHERE deleted_at IS NULL AND ${where}
          ORDER BY created_at ${direction}, id ${direction} LIMIT 20 OFFSET ?`,
          offset,
        )
      ).map((row) => row.id);
    const deep = SKIP_FROM_OFFSET + 40;
    expect(await ids(`?offset=${deep}&limit=20`)).toEqual(await walked('true', 'DESC', deep));
    expect(await ids(`?offset=${deep - 300}&limit=20&sort_order=asc`)).toEqual(await walked('true', 'ASC', deep - 300));
    expect(await ids(`?offset=1000&limit=20&status=failed`)).toEqual(await walked("status = 'failed'", 'DESC', 1000));
    // The months before the page come from the counts: a planted extra count in an old month moves the page by one.
    await h.db.run(
      "INSERT INTO document_counts (space_id, status, deleted, month, n) VALUES (?, 'completed', 0, '2023-06', 1)",
      otherSpace,
    );
    try {
      expect(await ids(`?offset=${deep}&limit=20`)).toEqual(await walked('true', 'DESC', deep - 1));
    } finally {
      await h.db.run(
        "INSERT INTO document_counts (space_id, status, deleted, month, n) VALUES (?, 'completed', 0, '2023-06', -1)",
        otherSpace,
      );
    }
  });
});
