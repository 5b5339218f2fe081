import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPACT_AFTER_DELTAS,
  compactDocumentCounts,
  countDocumentsPg,
  createdAtSkip,
  type DocumentCountFilter,
} from '../../../server/db/postgres/pg-document-counts.ts';
import { runPgMigrations } from '../../../server/db/postgres/pg-migrate.ts';
import { openPostgres, PG_MIGRATIONS } from '../../../server/db/postgres/pg-schema.ts';
import { PgSql } from '../../../server/db/postgres/pg-sql.ts';
import type { Sql } from '../../../server/db/sql.ts';
import { useArchiveDatabase } from '../../helpers/archive-database.ts';
import { freshDatabase, postgresForTests } from '../../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

const COUNTS_MIGRATION = PG_MIGRATIONS.findIndex((migration) => migration.name.startsWith('document counts per'));
const MONTHS_MIGRATION = PG_MIGRATIONS.findIndex((migration) => migration.name.startsWith('document counts also'));

/** A document row as an upload writes it (the columns the counts key, and what NOT NULL asks for). */
async function insertDocument(
  db: Sql,
  spaceId: string,
  status = 'pending',
  deletedAt: string | null = null,
  createdAt = 'now',
) {
  const id = randomUUID();
  await db.run(
    `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
      sha256, created_at, updated_at, deleted_at)
     VALUES (?, ?, ?, 'Scan', 'a.pdf', 'application/pdf', 'pdf', 10, 'abc', ?, 'now', ?)`,
    id,
    spaceId,
    status,
    createdAt,
    deletedAt,
  );
  return id;
}

async function addSpace(db: Sql, name: string): Promise<string> {
  const id = randomUUID();
  await db.run('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)', id, name, 'now');
  return id;
}

type Counts = Record<string, number>;

type CountRow = { space_id: string; status: string; deleted: number; month: string; n: number };
const countKey = (r: CountRow): string => `${r.space_id}/${r.status}/${r.deleted}/${r.month}`;

/** What the counts table says per (space, status, deleted, month created), keys with zero documents left out. */
async function keptCounts(db: Sql): Promise<Counts> {
  const rows = await db.all<CountRow>(
    `SELECT space_id, status, deleted, month, sum(n) AS n FROM document_counts GROUP BY space_id, status, deleted, month
    HAVING sum(n) <> 0`,
  );
  return Object.fromEntries(rows.map((r) => [countKey(r), r.n]));
}

/** The same, counted from the documents themselves. */
async function countedRows(db: Sql): Promise<Counts> {
  const rows = await db.all<CountRow>(
    `SELECT space_id, status, (deleted_at IS NOT NULL)::integer AS deleted, left(created_at, 7) AS month,
      count(*) AS n FROM documents GROUP BY 1, 2, 3, 4`,
  );
  return Object.fromEntries(rows.map((r) => [countKey(r), r.n]));
}

async function expectExact(db: Sql): Promise<void> {
  const counted = await countedRows(db);
  expect(Object.keys(counted).length).toBeGreaterThan(0);
  expect(await keptCounts(db)).toEqual(counted);
}

describe.skipIf(!postgres.url)('PostgreSQL: document counts kept by triggers (the list total)', () => {
  const archive = useArchiveDatabase(3);
  let main: string;
  let other: string;

  beforeAll(async () => {
    main = (await archive.sql.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!.id;
    other = await addSpace(archive.sql, 'Other');
  });

  it('counts inserts, one at a time and in bulk', async () => {
    await insertDocument(archive.sql, main);
    await insertDocument(archive.sql, other, 'completed');
    await insertDocument(archive.sql, main, 'completed', 'now');
    await archive.sql.run(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
        sha256, created_at, updated_at)
       SELECT gen_random_uuid()::text, ?, CASE WHEN i % 3 = 0 THEN 'failed' ELSE 'completed' END, 'Bulk', 'b.pdf',
         'application/pdf', 'pdf', 1, 'x', '2025-' || lpad((i % 12 + 1)::text, 2, '0') || '-15T10:00:00.000Z', 'now'
       FROM generate_series(1, 30) AS i`,
      other,
    );
    await expectExact(archive.sql);
    expect(await countDocumentsPg(archive.sql, { deleted: false, spaces: [other], status: 'failed' })).toBe(10);
  });

  it('stays exact through uploads on several instances at once, each adding a row rather than waiting on one', async () => {
    const before = await countDocumentsPg(archive.sql, { deleted: false, spaces: [main] });
    // Each pool is another instance; every transaction stays open until all have inserted, so with one counter row
    // per key they would queue on its lock (and this would time out): deltas let them all commit.
    let inserted = 0;
    let release!: () => void;
    const allInserted = new Promise<void>((resolve) => (release = resolve));
    const uploads = archive.pools.flatMap((pool) =>
      [1, 2, 3, 4].map(() =>
        pool.transaction(async (tx) => {
          await insertDocument(tx, main);
          if (++inserted === archive.pools.length * 4) release();
          await allInserted;
        }),
      ),
    );
    await Promise.all(uploads);
    expect(await countDocumentsPg(archive.sql, { deleted: false, spaces: [main] })).toBe(before + 12);
    await expectExact(archive.sql);
  });

  it('follows status changes, soft delete, restore, moves between spaces and permanent delete', async () => {
    const id = await insertDocument(archive.sql, main);
    await archive.sql.run("UPDATE documents SET status = 'processing' WHERE id = ?", id);
    await archive.sql.run("UPDATE documents SET status = 'completed', title = 'Done' WHERE id = ?", id);
    await expectExact(archive.sql);
    await archive.sql.run("UPDATE documents SET deleted_at = 'now' WHERE id = ?", id);
    await expectExact(archive.sql);
    // Another deletion time is no change of liveness: nothing to count.
    const rowsBefore = await archive.sql.get<{ n: number }>('SELECT count(*) AS n FROM document_counts');
    await archive.sql.run("UPDATE documents SET deleted_at = 'later', updated_at = 'later' WHERE id = ?", id);
    expect(await archive.sql.get('SELECT count(*) AS n FROM document_counts')).toEqual(rowsBefore);
    await archive.sql.run('UPDATE documents SET deleted_at = NULL WHERE id = ?', id);
    await expectExact(archive.sql);
    await archive.sql.run('UPDATE documents SET space_id = ? WHERE id = ?', other, id);
    await expectExact(archive.sql);
    // A creation time is never changed by the service, but a repair by hand that moves it keeps the months exact.
    await archive.sql.run("UPDATE documents SET created_at = '2024-02-29T23:59:59.999Z' WHERE id = ?", id);
    await expectExact(archive.sql);
    await archive.sql.run(
      "UPDATE documents SET space_id = ?, status = 'failed', deleted_at = 'now' WHERE id = ?",
      main,
      id,
    );
    await expectExact(archive.sql);
    await archive.sql.run('DELETE FROM documents WHERE id = ?', id);
    await expectExact(archive.sql);
    await archive.sql.run("DELETE FROM documents WHERE title = 'Bulk' AND status = 'failed'");
    await expectExact(archive.sql);
  });

  it('answers every keyed filter as counting the rows would', async () => {
    const third = await addSpace(archive.sql, 'Third');
    await insertDocument(archive.sql, third, 'failed', 'now');
    const count = async (where: string, ...args: string[]) =>
      (await archive.sql.get<{ n: number }>(`SELECT count(*) AS n FROM documents WHERE ${where}`, ...args))!.n;
    for (const deleted of [false, true]) {
      const live = deleted ? 'deleted_at IS NOT NULL' : 'deleted_at IS NULL';
      expect(await countDocumentsPg(archive.sql, { deleted, spaces: null })).toBe(await count(live));
      expect(await countDocumentsPg(archive.sql, { deleted, spaces: [main, third] })).toBe(
        await count(`${live} AND space_id IN (?, ?)`, main, third),
      );
      for (const status of ['pending', 'completed', 'failed', 'never']) {
        expect(await countDocumentsPg(archive.sql, { deleted, spaces: null, status })).toBe(
          await count(`${live} AND status = ?`, status),
        );
        expect(await countDocumentsPg(archive.sql, { deleted, spaces: [other], status })).toBe(
          await count(`${live} AND status = ? AND space_id = ?`, status, other),
        );
      }
    }
    expect(await countDocumentsPg(archive.sql, { deleted: false, spaces: [] })).toBe(0);
  });

  it('compaction folds the deltas into one row per key, exact, also while documents are added', async () => {
    expect((await archive.sql.get<{ n: number }>('SELECT count(*) AS n FROM document_counts'))!.n).toBeGreaterThan(
      Object.keys(await countedRows(archive.sql)).length,
    );
    await Promise.all([
      compactDocumentCounts(archive.pools[1]!),
      ...[1, 2, 3, 4, 5].map(() => insertDocument(archive.pools[2]!, other, 'completed')),
      compactDocumentCounts(archive.pools[0]!),
    ]);
    expect(await compactDocumentCounts(archive.sql)).toBe(true);
    await expectExact(archive.sql);
    const keys = await archive.sql.get<{ rows: number; keys: number }>(
      `SELECT count(*) AS rows, count(DISTINCT (space_id, status, deleted, month)) AS keys FROM document_counts`,
    );
    expect(keys!.rows).toBe(keys!.keys);
    expect(await archive.sql.get('SELECT count(*) AS n FROM document_counts WHERE n = 0')).toEqual({ n: 0 });
  });

  it('a read that sums too many deltas compacts them', async () => {
    await compactDocumentCounts(archive.sql);
    await archive.sql.exec(`DO $$ DECLARE s text; BEGIN
      SELECT id INTO s FROM spaces WHERE is_default = 1;
      FOR i IN 1..${COMPACT_AFTER_DELTAS + 1} LOOP
        INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
          sha256, created_at, updated_at)
        VALUES (gen_random_uuid()::text, s, 'pending', 'One', 'a.pdf', 'application/pdf', 'pdf', 1, 'x', 'now', 'now');
      END LOOP; END $$`);
    const rows = async () => (await archive.sql.get<{ n: number }>('SELECT count(*) AS n FROM document_counts'))!.n;
    expect(await rows()).toBeGreaterThan(COMPACT_AFTER_DELTAS);
    const live = (await archive.sql.get<{ n: number }>(
      'SELECT count(*) AS n FROM documents WHERE deleted_at IS NULL AND space_id = ?',
      main,
    ))!.n;
    expect(await countDocumentsPg(archive.sql, { deleted: false, spaces: [main] })).toBe(live);
    expect(await rows()).toBeLessThan(20);
    await expectExact(archive.sql);
  });

  it('forgets every count when the documents are truncated', async () => {
    const scratch = await freshDatabase();
    const db = await openPostgres(scratch.url);
    try {
      await insertDocument(db, (await db.get<{ id: string }>('SELECT id FROM spaces'))!.id);
      await db.exec('TRUNCATE documents CASCADE');
      expect(await db.all('SELECT * FROM document_counts')).toEqual([]);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });
});

describe.skipIf(!postgres.url)('PostgreSQL: a deep offset of the created_at order starts at its month', () => {
  const archive = useArchiveDatabase(1);
  let main: string;
  let other: string;
  const statuses = ['completed', 'failed', 'pending'];

  beforeAll(async () => {
    main = (await archive.sql.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!.id;
    other = await addSpace(archive.sql, 'Other');
    // 600 documents over 26 months, unevenly (a busy month, empty months), some created in the same millisecond so
    // the id decides their order, a few deleted.
    await archive.sql.run(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
        sha256, created_at, updated_at, deleted_at)
       SELECT gen_random_uuid()::text, CASE WHEN i % 3 = 0 THEN ? ELSE ? END, (ARRAY[?, ?, ?])[1 + i % 5 % 3], 'Doc',
         'd.pdf', 'application/pdf', 'pdf', 1, 'x',
         to_char(timestamp '2024-11-30 22:00' + (CASE WHEN i > 450 THEN 400 ELSE i END * interval '37 hours')
           + (i % 4) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'now', CASE WHEN i % 17 = 0 THEN 'now' END
       FROM generate_series(1, 600) AS i`,
      other,
      main,
      ...statuses,
    );
  });

  /** The ids of a page as walking the whole order gives them, and as the month skip gives them. */
  async function pages(filter: DocumentCountFilter, offset: number, newestFirst: boolean) {
    const where = [filter.deleted ? 'deleted_at IS NOT NULL' : 'deleted_at IS NULL'];
    const args: string[] = [];
    if (filter.spaces) {
      where.push(`space_id IN (${filter.spaces.map(() => '?').join(', ')})`);
      args.push(...filter.spaces);
    }
    if (filter.status) {
      where.push('status = ?');
      args.push(filter.status);
    }
    const direction = newestFirst ? 'DESC' : 'ASC';
    const page = (extra: string, extraArgs: string[], skip: number) =>
      archive.sql.all<{ id: string }>(
        `SELECT id FROM documents d WHERE ${[...where, extra].join(' AND ')}
        ORDER BY created_at ${direction}, id ${direction} LIMIT 7 OFFSET ?`,
        ...args,
        ...extraArgs,
        skip,
      );
    const skip = await createdAtSkip(archive.sql, filter, offset, newestFirst);
    return {
      skip,
      walked: await page('true', [], offset),
      skipped: skip ? await page(skip.sql, [skip.bound], offset - skip.skipped) : null,
    };
  }

  it('gives the page walking the whole order gives, for every keyed filter, both orders, across month ends', async () => {
    const filters: DocumentCountFilter[] = [
      { deleted: false, spaces: null },
      { deleted: false, spaces: [other] },
      { deleted: false, spaces: [main, other], status: 'failed' },
      { deleted: true, spaces: null },
    ];
    let used = 0;
    for (const filter of filters) {
      for (const newestFirst of [true, false]) {
        for (let offset = 0; offset < 620; offset += 3) {
          const { skip, walked, skipped } = await pages(filter, offset, newestFirst);
          if (!skip) continue;
          used++;
          expect(skip.skipped).toBeLessThanOrEqual(offset);
          expect(skipped, `${JSON.stringify(filter)} offset ${offset} newest first ${newestFirst}`).toEqual(walked);
        }
      }
    }
    // Most deep offsets had months to skip (only those in the first month of their list walk from the top).
    expect(used).toBeGreaterThan(300);
  });

  it('skips nothing in the first month or past the end, and nothing for a key that sees no space', async () => {
    expect(await createdAtSkip(archive.sql, { deleted: false, spaces: null }, 3, true)).toBeNull();
    expect(await createdAtSkip(archive.sql, { deleted: false, spaces: null }, 10_000, true)).toBeNull();
    expect(await createdAtSkip(archive.sql, { deleted: false, spaces: [] }, 300, true)).toBeNull();
    const deep = await createdAtSkip(archive.sql, { deleted: false, spaces: null }, 300, true);
    expect(deep).toMatchObject({ sql: 'd.created_at < ?' });
    expect(deep!.skipped).toBeGreaterThan(200);
  });
});

describe.skipIf(!postgres.url)('PostgreSQL: the document counts migration on an archive with documents', () => {
  it('counts the documents already there', async () => {
    const database = await freshDatabase();
    const before = new PgSql(database.url);
    try {
      expect(COUNTS_MIGRATION).toBeGreaterThan(0);
      await runPgMigrations(before, PG_MIGRATIONS.slice(0, COUNTS_MIGRATION));
      const space = (await before.get<{ id: string }>('SELECT id FROM spaces'))!.id;
      const second = await addSpace(before, 'Second');
      for (const [spaceId, status, deletedAt] of [
        [space, 'completed', null],
        [space, 'completed', null],
        [space, 'failed', null],
        [second, 'completed', 'now'],
        [second, 'pending', null],
      ] as const) {
        await insertDocument(before, spaceId, status, deletedAt);
      }
    } finally {
      await before.close();
    }
    const after = await openPostgres(database.url);
    try {
      await expectExact(after);
      await insertDocument(after, (await after.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!.id);
      await expectExact(after);
    } finally {
      await after.close();
      await database.drop();
    }
  });

  it('counts them again per month when an archive with counts moves to counts by month', async () => {
    const database = await freshDatabase();
    const before = new PgSql(database.url);
    try {
      expect(MONTHS_MIGRATION).toBeGreaterThan(COUNTS_MIGRATION);
      await runPgMigrations(before, PG_MIGRATIONS.slice(0, MONTHS_MIGRATION));
      const space = (await before.get<{ id: string }>('SELECT id FROM spaces'))!.id;
      for (const [status, deletedAt, createdAt] of [
        ['completed', null, '2025-12-31T23:59:59.999Z'],
        ['completed', null, '2026-01-01T00:00:00.000Z'],
        ['failed', 'now', '2026-01-20T08:00:00.000Z'],
      ] as const) {
        await insertDocument(before, space, status, deletedAt, createdAt);
      }
    } finally {
      await before.close();
    }
    const after = await openPostgres(database.url);
    try {
      await expectExact(after);
      expect(await keptCounts(after)).toHaveProperty(
        [`${(await after.get<{ id: string }>('SELECT id FROM spaces'))!.id}/completed/0/2025-12`],
        1,
      );
    } finally {
      await after.close();
      await database.drop();
    }
  });
});
