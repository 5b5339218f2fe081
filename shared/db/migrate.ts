import type { DatabaseSync } from 'node:sqlite';

/** Brings any database (the archive's, the desktop's journal and cache) up to the end of its migration list. */
export function runMigrations(db: DatabaseSync, migrations: ReadonlyArray<(db: DatabaseSync) => void>): void {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number };
  for (let version = row.user_version; version < migrations.length; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
      if (current === version) {
        migrations[version]!(db);
        db.exec(`PRAGMA user_version = ${version + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
