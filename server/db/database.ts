import { DatabaseSync } from 'node:sqlite';
import { migrate } from './migrations.ts';

export type Database = DatabaseSync;

/**
 * Opens (and migrates) the archive database. WAL lets the admin CLI and the server share the file;
 * synchronous=FULL because a 202 promises the upload is kept even if the power goes a moment later.
 */
export function openDatabase(path: string): Database {
  const db = new DatabaseSync(path, { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  migrate(db);
  return db;
}

/** Runs fn inside BEGIN IMMEDIATE … COMMIT so concurrent writers (server, CLI) queue instead of failing mid-way. */
export function transaction<T>(db: Database, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

export const nowIso = (): string => new Date().toISOString();
