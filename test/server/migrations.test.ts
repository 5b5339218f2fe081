import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, runMigrations } from '../../server/db/migrations.ts';

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
});
