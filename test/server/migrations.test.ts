import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { titleSortKey } from '../../common/sort-key.ts';
import { MIGRATIONS, migrate, runMigrations } from '../../server/db/migrations.ts';
import { documentListOrder } from '../../server/documents/document-rows.ts';

describe('archive database migrations', () => {
  it('an existing database (before OCR languages per space) gains spaces.ocr_languages, NULL for its spaces', () => {
    const db = new DatabaseSync(':memory:');
    try {
      runMigrations(db, MIGRATIONS.slice(0, 4));
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(4);
      db.prepare("INSERT INTO spaces (id, name, created_at) VALUES ('s2', 'Family', '2026-01-01T00:00:00.000Z')").run();

      migrate(db);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
      const columns = db.prepare('PRAGMA table_info(spaces)').all() as Array<{ name: string; type: string; notnull: number }>;
      expect(columns.find((c) => c.name === 'ocr_languages')).toMatchObject({ type: 'TEXT', notnull: 0 });
      const spaces = db.prepare('SELECT name, ocr_languages FROM spaces ORDER BY is_default DESC').all();
      expect(spaces).toEqual([{ name: 'Default', ocr_languages: null }, { name: 'Family', ocr_languages: null }]);

      // Running again changes nothing.
      migrate(db);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('an existing database gains title_key, filled for its documents, kept by triggers, and indexed for the list', () => {
    const db = new DatabaseSync(':memory:');
    try {
      runMigrations(db, MIGRATIONS.slice(0, 5));
      const space = (db.prepare('SELECT id FROM spaces').get() as { id: string }).id;
      const insert = db.prepare(`INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format,
        size_bytes, sha256, created_at, updated_at) VALUES (?, ?, 'completed', ?, 'x.pdf', 'application/pdf', 'pdf', 1, 'ab', ?, ?)`);
      const at = '2026-01-01T00:00:00.000Z';
      for (const [id, title] of [['d1', 'Vertrag'], ['d2', 'rechnung 10'], ['d3', 'Rechnung 2'], ['d4', 'Ärger']] as const) {
        insert.run(id, space, title, at, at);
      }

      migrate(db);
      const order = (): string[] => (db.prepare(`SELECT d.title FROM documents d WHERE d.deleted_at IS NULL
        ORDER BY ${documentListOrder('title', 'asc')}`).all() as Array<{ title: string }>).map((r) => r.title);
      expect(order()).toEqual(['Ärger', 'Rechnung 2', 'rechnung 10', 'Vertrag']);
      expect(db.prepare("SELECT title_key FROM documents WHERE id = 'd3'").get()).toEqual({ title_key: titleSortKey('Rechnung 2') });

      // Every writer keeps the key: a new row and a changed title.
      insert.run('d5', space, 'Angebot', at, at);
      db.prepare("UPDATE documents SET title = 'Zahlung' WHERE id = 'd4'").run();
      expect(order()).toEqual(['Angebot', 'Rechnung 2', 'rechnung 10', 'Vertrag', 'Zahlung']);

      // The page comes off the index in order, both ways, with or without a space filter: no sort of every row.
      for (const direction of ['asc', 'desc'] as const) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT d.rowid FROM documents d WHERE d.deleted_at IS NULL
          ORDER BY ${documentListOrder('title', direction)} LIMIT 50 OFFSET 100`).all() as Array<{ detail: string }>)
          .map((r) => r.detail).join('\n');
        expect(plan).toMatch(/USING (COVERING )?INDEX documents_title\b/);
        expect(plan).not.toContain('TEMP B-TREE');
      }
    } finally {
      db.close();
    }
  });
});
