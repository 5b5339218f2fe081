import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { titleSortKey } from '../../../common/sort-key.ts';
import { migrate } from '../../../server/db/migrations.ts';
import { openPostgres, PG_MIGRATIONS } from '../../../server/db/postgres/pg-schema.ts';
import { useArchiveDatabase } from '../../helpers/archive-database.ts';
import { freshDatabase, postgresForTests } from '../../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

/** SQLite tables with no PostgreSQL twin, and why. */
const SQLITE_ONLY_TABLES = new Set([
  'sqlite_sequence', // AUTOINCREMENT's counters: identity columns keep their own
  // FTS5's shadow tables; PostgreSQL's documents_fts keeps a tsvector instead
  'documents_fts_config',
  'documents_fts_content',
  'documents_fts_data',
  'documents_fts_docsize',
  'documents_fts_idx',
]);

function sqliteColumns(): Map<string, string[]> {
  const db = new DatabaseSync(':memory:');
  try {
    migrate(db);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
    }>;
    return new Map(
      tables.map(({ name }) => [
        name,
        (db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as Array<{ name: string }>).map((c) => c.name),
      ]),
    );
  } finally {
    db.close();
  }
}

describe.skipIf(!postgres.url)('PostgreSQL schema', () => {
  const archive = useArchiveDatabase();

  it('has every table and column of the SQLite schema at its latest migration', async () => {
    const pgColumns = new Map<string, string[]>();
    const rows = await archive.sql.all<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    for (const row of rows) pgColumns.set(row.table_name, [...(pgColumns.get(row.table_name) ?? []), row.column_name]);

    const missing: string[] = [];
    for (const [table, columns] of sqliteColumns()) {
      if (SQLITE_ONLY_TABLES.has(table)) continue;
      const twin = pgColumns.get(table);
      if (!twin) missing.push(`table ${table}`);
      else missing.push(...columns.filter((c) => !twin.includes(c)).map((c) => `column ${table}.${c}`));
    }
    expect(missing, 'SQLite schema items without a PostgreSQL twin (append a migration to PG_MIGRATIONS)').toEqual([]);
  });

  it('starts like a new SQLite archive: one default space', async () => {
    expect(await archive.sql.all('SELECT name, is_default FROM spaces')).toEqual([{ name: 'Default', is_default: 1 }]);
  });

  it('runs each migration exactly once when three instances migrate the same database at once', async () => {
    const other = await freshDatabase();
    try {
      const instances = await Promise.all([1, 2, 3].map(() => openPostgres(other.url)));
      try {
        const [first] = instances;
        expect(await first!.all('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
          PG_MIGRATIONS.map((_, i) => ({ version: i + 1 })),
        );
        // Migration 1 inserts the default space: a second run would have failed on spaces_default or added one.
        expect(await first!.get('SELECT count(*) AS n FROM spaces')).toEqual({ n: 1 });
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
      // And a later start changes nothing.
      const again = await openPostgres(other.url);
      expect(await again.get('SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: PG_MIGRATIONS.length });
      await again.close();
    } finally {
      await other.drop();
    }
  });

  it('refuses a database migrated by a newer service', async () => {
    const other = await freshDatabase();
    try {
      const current = await openPostgres(other.url);
      await current.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'future', 'x')", 99);
      await current.close();
      await expect(openPostgres(other.url)).rejects.toThrow(
        `The archive database is at schema version 99, newer than this service knows (${PG_MIGRATIONS.length})`,
      );
    } finally {
      await other.drop();
    }
  });

  it('records that pgvector is absent on a server without it (the bytea path)', async () => {
    const available = await archive.sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'vector'",
    );
    expect(archive.sql.pgvector).toBe(available!.n > 0);
  });

  describe('rows as SQLite keeps them', () => {
    let spaceId: string;
    let nextId = 0;
    const insertDocument = async (title: string, deletedAt: string | null = null) => {
      const id = `doc-${++nextId}`;
      await archive.sql.run(
        `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
          sha256, created_at, updated_at, deleted_at, title_key)
         VALUES (?, ?, 'ready', ?, 'a.pdf', 'application/pdf', 'pdf', 10, 'abc', 'now', 'now', ?, 'ignored')`,
        id,
        spaceId,
        title,
        deletedAt,
      );
      return (await archive.sql.get<{ rowid: number }>('SELECT rowid FROM documents WHERE id = ?', id))!.rowid;
    };

    beforeAll(async () => {
      spaceId = (await archive.sql.get<{ id: string }>('SELECT id FROM spaces'))!.id;
    });

    it('keeps title_key equal to titleSortKey on insert and on a title change', async () => {
      const titles = [
        'Rechnung 10',
        'Rechnung 2',
        '  Ärger   mit\tder Ampel ',
        'Straße 007 & Œuvre',
        'ÆØÅ þorn Łódź đak',
        'Café crème Nº 5',
        'ｆｕｌｌ ｗｉｄｔｈ ２０２６',
        'x²',
        'İstanbul ıi',
        '0000',
        '',
        'a\u00a0b\u2003c\ufeffd',
        `n ${'9'.repeat(120)}`,
      ];
      for (const title of titles) {
        const rowid = await insertDocument(title);
        const row = await archive.sql.get<{ title_key: string }>(
          'SELECT title_key FROM documents WHERE rowid = ?',
          rowid,
        );
        expect(row!.title_key, title).toBe(titleSortKey(title));
      }
      const rowid = await insertDocument('Old');
      await archive.sql.run('UPDATE documents SET title = ? WHERE rowid = ?', 'Neuer Titel 3', rowid);
      expect(await archive.sql.get('SELECT title_key FROM documents WHERE rowid = ?', rowid)).toEqual({
        title_key: titleSortKey('Neuer Titel 3'),
      });
    });

    it('keeps search_visibility by triggers: insert, soft delete, move to another space, delete', async () => {
      const rowid = await insertDocument('Visible');
      const visibility = () =>
        archive.sql.get('SELECT space_id, deleted FROM search_visibility WHERE doc_rowid = ?', rowid);
      expect(await visibility()).toEqual({ space_id: spaceId, deleted: 0 });
      await archive.sql.run("UPDATE documents SET deleted_at = 'now' WHERE rowid = ?", rowid);
      expect(await visibility()).toEqual({ space_id: spaceId, deleted: 1 });
      const other = 'space-2';
      await archive.sql.run("INSERT INTO spaces (id, name, created_at) VALUES (?, 'Other', 'now')", other);
      await archive.sql.run('UPDATE documents SET space_id = ?, deleted_at = NULL WHERE rowid = ?', other, rowid);
      expect(await visibility()).toEqual({ space_id: other, deleted: 0 });
      await archive.sql.run('DELETE FROM documents WHERE rowid = ?', rowid);
      expect(await visibility()).toBeUndefined();
    });

    it('treats tag, sender and category names case-insensitively unique per space, like COLLATE NOCASE', async () => {
      await archive.sql.run('INSERT INTO tags (space_id, name) VALUES (?, ?)', spaceId, 'Steuer');
      await expect(
        archive.sql.run('INSERT INTO tags (space_id, name) VALUES (?, ?)', spaceId, 'STEUER'),
      ).rejects.toThrow(/tags_name/);
      await archive.sql.run(
        "INSERT INTO senders (id, space_id, name, created_at) VALUES ('s1', ?, 'ACME', 'now')",
        spaceId,
      );
      await expect(
        archive.sql.run(
          "INSERT INTO senders (id, space_id, name, created_at) VALUES ('s2', ?, 'acme', 'now')",
          spaceId,
        ),
      ).rejects.toThrow(/senders_name/);
      await archive.sql.run(
        "INSERT INTO categories (id, space_id, name, created_at) VALUES ('c1', ?, 'Bank', 'now')",
        spaceId,
      );
      await expect(
        archive.sql.run(
          "INSERT INTO categories (id, space_id, name, created_at) VALUES ('c2', ?, 'bank', 'now')",
          spaceId,
        ),
      ).rejects.toThrow(/categories_name/);
    });

    it('queues a document at most once, like jobs_active', async () => {
      const rowid = await insertDocument('Queued');
      const { id } = (await archive.sql.get<{ id: string }>('SELECT id FROM documents WHERE rowid = ?', rowid))!;
      const queue = () =>
        archive.sql.run(
          "INSERT INTO jobs (document_id, kind, state, created_at) VALUES (?, 'process', 'queued', 'now')",
          id,
        );
      await queue();
      await expect(queue()).rejects.toThrow(/jobs_active/);
      await archive.sql.run("UPDATE jobs SET state = 'done' WHERE document_id = ?", id);
      await queue();
    });
  });
});
