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

/**
 * How a commit reaches the disk. 'full': the WAL is fsynced before COMMIT returns; use it for every write a client is
 * told about (an upload's 202, an edit's 200). 'deferred': no fsync of its own (synchronous=NORMAL); for the
 * pipeline's bookkeeping, which the job queue redoes if it is lost. A power cut can lose deferred commits, never
 * corrupt the database, and never one that an acknowledged full commit follows: the WAL is one ordered log, and a full
 * commit's fsync covers everything written before it.
 */
export type Durability = 'full' | 'deferred';

/** Runs fn inside BEGIN IMMEDIATE … COMMIT so concurrent writers (server, CLI) queue instead of failing mid-way. */
export function transaction<T>(db: Database, fn: () => T, durability: Durability = 'full'): T {
  // The level is per connection and cannot change inside a transaction; it is set for this one and put back.
  if (durability === 'deferred') db.exec('PRAGMA synchronous = NORMAL');
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    if (durability === 'deferred') db.exec('PRAGMA synchronous = FULL');
  }
}

export const nowIso = (): string => new Date().toISOString();
