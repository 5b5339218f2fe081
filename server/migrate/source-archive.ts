import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from '../db/migrations.ts';
import type { SqlValue } from '../db/sql.ts';

/** A table of the source archive as SQLite declares it. */
export interface SourceTable {
  name: string;
  columns: string[];
  /** A virtual table (FTS5): its rows are read through its columns, its storage lives in shadow tables. */
  virtual: boolean;
  /** Has SQLite's implicit rowid (not WITHOUT ROWID, not a declared column named rowid). */
  hasRowid: boolean;
}

export class SourceArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceArchiveError';
  }
}

/** Set by the possible-duplicates migration until the service's own code has completed it (server/db/migrations.ts). */
const PENDING_MIGRATION_SETTING = 'pending_bill_keys';

/**
 * An existing SQLite archive (a data directory), opened read-only inside one read transaction: every read sees the
 * same snapshot, even while the desktop app or the server keeps writing to it (WAL mode lets readers and a writer
 * share the file). Never migrated or changed here.
 */
export class SourceArchive {
  readonly dataDir: string;
  readonly db: DatabaseSync;

  private constructor(dataDir: string, db: DatabaseSync) {
    this.dataDir = dataDir;
    this.db = db;
  }

  static open(dataDir: string): SourceArchive {
    if (!existsSync(dataDir)) throw new SourceArchiveError(`The source directory ${dataDir} does not exist`);
    if (!statSync(dataDir).isDirectory()) throw new SourceArchiveError(`The source ${dataDir} is not a directory`);
    const file = join(dataDir, 'archive.sqlite');
    if (!existsSync(file)) {
      throw new SourceArchiveError(`${dataDir} holds no archive: ${file} is missing (--from takes a data directory)`);
    }
    const db = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
    try {
      // The snapshot starts with the first read of the transaction; schema checks are that read.
      db.exec('BEGIN');
      checkSchemaVersion(db, file);
      return new SourceArchive(dataDir, db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Every table SQLite stores for the archive, its own bookkeeping included, by name. */
  tables(): SourceTable[] {
    const rows = this.db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as Array<{ name: string; sql: string | null }>;
    return rows.map(({ name, sql }) => {
      const columns = (
        this.db.prepare(`PRAGMA table_xinfo(${quoteIdentifier(name)})`).all() as Array<{
          name: string;
          hidden: number;
        }>
      )
        .filter((column) => column.hidden === 0)
        .map((column) => column.name);
      const virtual = /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(sql ?? '');
      const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(sql ?? '');
      return { name, columns, virtual, hasRowid: !withoutRowid && !columns.includes('rowid') };
    });
  }

  /** The rows of a table, `columns` in that order (`rowid` may be SQLite's implicit one), streamed. */
  rows(table: string, columns: readonly string[]): IterableIterator<SqlValue[]> {
    const list = columns.map(quoteIdentifier).join(', ');
    const statement = this.db.prepare(`SELECT ${list} FROM ${quoteIdentifier(table)}`);
    statement.setReturnArrays(true);
    return statement.iterate() as IterableIterator<SqlValue[]>;
  }

  /** The id of the archive's default space: it names an archive (a random UUID made when the archive was). */
  defaultSpaceId(): string | null {
    const row = this.db.prepare('SELECT id FROM spaces WHERE is_default = 1').get() as { id: string } | undefined;
    return row?.id ?? null;
  }

  setting(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Every stored file the documents name (deleted ones too: their rows are copied), with the size they record. */
  blobs(): Array<{ sha256: string; size: number }> {
    return this.db
      .prepare('SELECT sha256, max(size_bytes) AS size FROM documents GROUP BY sha256 ORDER BY sha256')
      .all() as Array<{ sha256: string; size: number }>;
  }

  close(): void {
    if (this.db.isTransaction) this.db.exec('ROLLBACK');
    this.db.close();
  }
}

/** The copy reads the schema of this version of the service; an older or newer archive would lose or misplace data. */
function checkSchemaVersion(db: DatabaseSync, file: string): void {
  const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
  const latest = MIGRATIONS.length;
  if (version < latest || hasPendingMigration(db)) {
    throw new SourceArchiveError(
      `${file} is at schema version ${version} of ${latest}: open it once with this version of the app or the ` +
        `server (or run "npm run archive -- --data-dir DIR spaces list"), which upgrades it, then migrate`,
    );
  }
  if (version > latest) {
    throw new SourceArchiveError(
      `${file} was made by a newer version of the service (schema version ${version}; this one knows ${latest}): ` +
        'migrate with that version',
    );
  }
}

function hasPendingMigration(db: DatabaseSync): boolean {
  return db.prepare('SELECT 1 FROM settings WHERE key = ?').get(PENDING_MIGRATION_SETTING) !== undefined;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
