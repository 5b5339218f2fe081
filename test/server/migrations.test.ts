import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { titleSortKey } from '../../common/sort-key.ts';
import { MIGRATIONS, migrate } from '../../server/db/migrations.ts';
import { runMigrations } from '../../shared/db/migrate.ts';
import { documentListOrder } from '../../server/documents/document-rows.ts';

describe('archive database migrations', () => {
  it('an existing database (before OCR languages per space) gains spaces.ocr_languages, NULL for its spaces', () => {
    const db = new DatabaseSync(':memory:');
    try {
      runMigrations(db, MIGRATIONS.slice(0, 4));
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(4);
      db.prepare("INSERT INTO spaces (id, name, created_at) VALUES ('s2', 'Family', '2026-01-01T00:00:00.000Z')").run();

      migrate(db);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
        MIGRATIONS.length,
      );
      const columns = db.prepare('PRAGMA table_info(spaces)').all() as Array<{
        name: string;
        type: string;
        notnull: number;
      }>;
      expect(columns.find((c) => c.name === 'ocr_languages')).toMatchObject({ type: 'TEXT', notnull: 0 });
      const spaces = db.prepare('SELECT name, ocr_languages FROM spaces ORDER BY is_default DESC').all();
      expect(spaces).toEqual([
        { name: 'Default', ocr_languages: null },
        { name: 'Family', ocr_languages: null },
      ]);

      // Running again changes nothing.
      migrate(db);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
        MIGRATIONS.length,
      );
    } finally {
      db.close();
    }
  });

  it('an existing database gains title_key, filled for its documents, kept by triggers, and indexed for the list', () => {
    const db = new DatabaseSync(':memory:');
    try {
      runMigrations(db, MIGRATIONS.slice(0, 5));
      const space = (db.prepare('SELECT id FROM spaces').get() as { id: string }).id;
      const insert =
        db.prepare(`INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format,
        size_bytes, sha256, created_at, updated_at) VALUES (?, ?, 'completed', ?, 'x.pdf', 'application/pdf', 'pdf', 1, 'ab', ?, ?)`);
      const at = '2026-01-01T00:00:00.000Z';
      for (const [id, title] of [
        ['d1', 'Vertrag'],
        ['d2', 'rechnung 10'],
        ['d3', 'Rechnung 2'],
        ['d4', 'Ärger'],
      ] as const) {
        insert.run(id, space, title, at, at);
      }

      migrate(db);
      const order = (): string[] =>
        (
          db
            .prepare(
              `SELECT d.title FROM documents d WHERE d.deleted_at IS NULL
        ORDER BY ${documentListOrder('title', 'asc')}`,
            )
            .all() as Array<{ title: string }>
        ).map((r) => r.title);
      expect(order()).toEqual(['Ärger', 'Rechnung 2', 'rechnung 10', 'Vertrag']);
      expect(db.prepare("SELECT title_key FROM documents WHERE id = 'd3'").get()).toEqual({
        title_key: titleSortKey('Rechnung 2'),
      });

      // Every writer keeps the key: a new row and a changed title.
      insert.run('d5', space, 'Angebot', at, at);
      db.prepare("UPDATE documents SET title = 'Zahlung' WHERE id = 'd4'").run();
      expect(order()).toEqual(['Angebot', 'Rechnung 2', 'rechnung 10', 'Vertrag', 'Zahlung']);

      // The page comes off the index in order, both ways, with or without a space filter: no sort of every row.
      for (const direction of ['asc', 'desc'] as const) {
        const plan = (
          db
            .prepare(
              `EXPLAIN QUERY PLAN SELECT d.rowid FROM documents d WHERE d.deleted_at IS NULL
          ORDER BY ${documentListOrder('title', direction)} LIMIT 50 OFFSET 100`,
            )
            .all() as Array<{ detail: string }>
        )
          .map((r) => r.detail)
          .join('\n');
        expect(plan).toMatch(/USING (COVERING )?INDEX documents_title\b/);
        expect(plan).not.toContain('TEMP B-TREE');
      }
    } finally {
      db.close();
    }
  });

  it('an existing database keeps tag and sender names per space: one row per space, ids kept where first used', () => {
    const db = new DatabaseSync(':memory:');
    try {
      db.exec('PRAGMA foreign_keys = ON');
      runMigrations(db, MIGRATIONS.slice(0, 6));
      const spaceA = (db.prepare('SELECT id FROM spaces').get() as { id: string }).id;
      const spaceB = 'b0000000-0000-4000-8000-000000000000';
      const at = '2026-01-01T00:00:00.000Z';
      db.prepare('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)').run(spaceB, 'B', at);
      // The old schema: one row per name archive-wide, spelled as first used (here: in space B's upload).
      db.exec(`INSERT INTO tags (id, name) VALUES (1, 'SharedTag'), (2, 'only-a'), (3, 'unused');
        INSERT INTO senders (id, name, created_at) VALUES ('s1', 'Stadtwerke Muster', '${at}'), ('s2', 'Nobody', '${at}');`);
      const insert =
        db.prepare(`INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format,
        size_bytes, sha256, metadata, sender_id, created_at, updated_at) VALUES (?, ?, 'completed', 't', 'x.pdf', 'application/pdf', 'pdf', 1, 'ab', ?, 's1', ?, ?)`);
      insert.run('doc-b', spaceB, JSON.stringify({ tags: ['SharedTag'], sender_name: 'Stadtwerke Muster' }), at, at);
      insert.run(
        'doc-a',
        spaceA,
        JSON.stringify({ tags: ['SHAREDTAG'], sender_name: 'STADTWERKE MUSTER' }),
        '2026-01-02T00:00:00.000Z',
        at,
      );
      insert.run('doc-a2', spaceA, null, '2026-01-03T00:00:00.000Z', at);
      db.exec(`INSERT INTO document_tags (document_id, tag_id) VALUES ('doc-b', 1), ('doc-a', 1), ('doc-a', 2), ('doc-a2', 1);
        INSERT INTO events (id, document_id, event_type, state, title, sender_id, created_at, updated_at)
          VALUES ('ev-a', 'doc-a', 'invoice', 'open', 't', 's1', '${at}', '${at}'), ('ev-b', 'doc-b', 'invoice', 'open', 't', 's1', '${at}', '${at}');`);

      migrate(db);
      const tagsOf = (doc: string) =>
        db
          .prepare(
            `SELECT t.space_id, t.name FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
        WHERE dt.document_id = ? ORDER BY t.name`,
          )
          .all(doc);
      expect(tagsOf('doc-b')).toEqual([{ space_id: spaceB, name: 'SharedTag' }]);
      expect(tagsOf('doc-a')).toEqual([
        { space_id: spaceA, name: 'only-a' },
        { space_id: spaceA, name: 'SHAREDTAG' },
      ]);
      expect(tagsOf('doc-a2')).toEqual([{ space_id: spaceA, name: 'SHAREDTAG' }]); // the space's spelling, one row
      expect(db.prepare('SELECT count(*) AS n FROM tags').get()).toEqual({ n: 3 }); // unused names are gone

      const senderOf = (sql: string, id: string) =>
        db
          .prepare(
            `SELECT s.id, s.space_id, s.name FROM ${sql} x JOIN senders s ON s.id = x.sender_id
        WHERE x.id = ?`,
          )
          .get(id) as { id: string; space_id: string; name: string };
      const senderA = senderOf('documents', 'doc-a');
      const senderB = senderOf('documents', 'doc-b');
      expect(senderA).toMatchObject({ space_id: spaceA, name: 'STADTWERKE MUSTER' });
      expect(senderB).toMatchObject({ space_id: spaceB, name: 'Stadtwerke Muster' });
      expect([senderA.id, senderB.id]).toContain('s1'); // the first space keeps the id
      expect(senderOf('events', 'ev-a')).toEqual(senderA);
      expect(senderOf('events', 'ev-b')).toEqual(senderB);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);

      // The new rule holds in the schema: the same name twice in a space is refused, in another space allowed.
      expect(() => db.prepare('INSERT INTO tags (space_id, name) VALUES (?, ?)').run(spaceA, 'sharedtag')).toThrow(
        /UNIQUE/,
      );
      db.prepare('INSERT INTO tags (space_id, name) VALUES (?, ?)').run(spaceB, 'only-a');
    } finally {
      db.close();
    }
  });
});
