import { DatabaseSync } from 'node:sqlite';
import { completeMigrations, migrate } from './migrations.ts';
import { SqliteSql } from './sqlite-sql.ts';

export { nowIso, type Durability } from './sql.ts';

/**
 * Opens (and migrates) the archive database. WAL lets the admin CLI and the server share the file;
 * synchronous=FULL because a 202 promises the upload is kept even if the power goes a moment later.
 * 'deferred' commits (SqliteSql.transaction) run at synchronous=NORMAL: no fsync of their own. A power cut can lose
 * them, never corrupt the database, and never one that an acknowledged full commit follows: the WAL is one ordered
 * log, and a full commit's fsync covers everything written before it.
 */
export async function openDatabase(path: string): Promise<SqliteSql> {
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  const sql = new SqliteSql(db);
  await completeMigrations(sql);
  return sql;
}
