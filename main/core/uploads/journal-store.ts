import { DatabaseSync } from 'node:sqlite';
import type { UploadMetadata } from '../../../common/archive-types.ts';
import { errorMessage } from '../../../common/errors.ts';
import { UPLOAD_ITEM_STATES } from '../../../common/ipc-names.ts';
import { isDamagedDatabase } from '../../../shared/db/damaged-database.ts';
import { runMigrations } from '../../../shared/db/migrate.ts';

/** Where an item is in its life (the IPC contract's list). See docs/desktop.md for the diagram. */
export const UPLOAD_STATES = UPLOAD_ITEM_STATES;
export type UploadState = (typeof UPLOAD_STATES)[number];

export interface UploadItem {
  id: number;
  source: 'folder' | 'manual';
  folder_id: string | null;
  path: string;
  relative_path: string;
  file_name: string;
  size: number;
  mtime_ms: number;
  sha256: string | null;
  space_id: string | null;
  metadata: UploadMetadata;
  state: UploadState;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  document_id: string | null;
  /** Set when the service (or the journal, by hash) found the file already in the archive. */
  duplicate_of: string | null;
  /** What the after-upload action did: keep, moved to <path>, deleted, or why it could not. */
  after_upload: string | null;
  created_at: number;
  updated_at: number;
}

type Row = Omit<UploadItem, 'metadata'> & { metadata: string };

const MIGRATIONS: ReadonlyArray<(db: DatabaseSync) => void> = [
  (db) =>
    db.exec(`
    CREATE TABLE uploads (
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL CHECK (source IN ('folder', 'manual')),
      folder_id TEXT,
      path TEXT NOT NULL,
      relative_path TEXT NOT NULL,
      file_name TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms REAL NOT NULL,
      sha256 TEXT,
      space_id TEXT,
      metadata TEXT NOT NULL DEFAULT '{}',
      state TEXT NOT NULL CHECK (state IN ('queued', 'hashing', 'waiting', 'uploading', 'accepted', 'done', 'failed', 'paused')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      document_id TEXT,
      duplicate_of TEXT,
      after_upload TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX uploads_by_path ON uploads (path, id);
    CREATE INDEX uploads_by_state ON uploads (state, next_attempt_at, id);
    CREATE INDEX uploads_by_hash ON uploads (sha256, space_id) WHERE sha256 IS NOT NULL;
  `),
];

/** The durable half of the upload journal: one row per file version, every state change a committed write. */
export class JournalStore {
  readonly db: DatabaseSync;

  constructor(path: string) {
    this.db = new DatabaseSync(path, { timeout: 5000 });
    try {
      this.db.exec('PRAGMA journal_mode = WAL');
      // FULL: "accepted" must survive a power cut, or the after-upload action could run for a file the journal forgot.
      this.db.exec('PRAGMA synchronous = FULL');
      runMigrations(this.db, MIGRATIONS);
    } catch (error) {
      this.db.close();
      // Never replaced silently, unlike the library cache: it is the only record of what was accepted and not yet
      // moved or deleted. The user decides, told what moving it aside costs.
      if (!isDamagedDatabase(error)) throw error;
      throw new Error(
        `The upload journal ${path} is damaged (${errorMessage(error)}). Move it aside and start again: the ` +
          'watched folders are scanned again and their files uploaded (files the archive already has count as ' +
          'duplicates); files added by hand that were still waiting must be added again.',
        { cause: error },
      );
    }
  }

  close(): void {
    this.db.close();
  }

  get(id: number): UploadItem | undefined {
    const row = this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(id) as Row | undefined;
    return row && toItem(row);
  }

  /** The newest row for a path (the one a changed file would supersede). */
  latestForPath(path: string): UploadItem | undefined {
    const row = this.db.prepare('SELECT * FROM uploads WHERE path = ? ORDER BY id DESC LIMIT 1').get(path) as
      Row | undefined;
    return row && toItem(row);
  }

  insert(
    item: Pick<
      UploadItem,
      'source' | 'folder_id' | 'path' | 'relative_path' | 'file_name' | 'size' | 'mtime_ms' | 'space_id' | 'metadata'
    >,
    now: number,
  ): UploadItem {
    const result = this.db
      .prepare(
        `INSERT INTO uploads (source, folder_id, path, relative_path, file_name, size, mtime_ms, space_id,
      metadata, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
      )
      .run(
        item.source,
        item.folder_id,
        item.path,
        item.relative_path,
        item.file_name,
        item.size,
        item.mtime_ms,
        item.space_id,
        JSON.stringify(item.metadata),
        now,
        now,
      );
    return this.get(Number(result.lastInsertRowid))!;
  }

  update(id: number, changes: Partial<Omit<UploadItem, 'id' | 'created_at'>>, now: number): UploadItem {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    const sets = entries.map(([k]) => `${k} = ?`).concat('updated_at = ?');
    const values = entries.map(([k, v]) => (k === 'metadata' ? JSON.stringify(v) : (v as string | number | null)));
    this.db.prepare(`UPDATE uploads SET ${sets.join(', ')} WHERE id = ?`).run(...values, now, id);
    return this.get(id)!;
  }

  delete(id: number): void {
    this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
  }

  /** Items in `state` due by `now`, oldest first. */
  due(state: UploadState, now: number, limit: number): UploadItem[] {
    return (
      this.db
        .prepare('SELECT * FROM uploads WHERE state = ? AND next_attempt_at <= ? ORDER BY id LIMIT ?')
        .all(state, now, limit) as unknown as Row[]
    ).map(toItem);
  }

  /** When the next item in `state` becomes due (for the scheduler's timer). */
  nextDue(state: UploadState): number | undefined {
    const row = this.db.prepare('SELECT min(next_attempt_at) AS at FROM uploads WHERE state = ?').get(state) as {
      at: number | null;
    };
    return row.at ?? undefined;
  }

  /** A file with this content already in (or on its way into) the archive's same space. */
  acceptedWithHash(sha256: string, spaceId: string | null, exceptId: number): UploadItem | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM uploads WHERE sha256 = ? AND space_id IS ? AND id != ?
      AND state IN ('accepted', 'done') AND document_id IS NOT NULL ORDER BY id LIMIT 1`,
      )
      .get(sha256, spaceId, exceptId) as Row | undefined;
    return row && toItem(row);
  }

  list(options: { states?: readonly UploadState[]; limit: number; offset: number }): {
    items: UploadItem[];
    total: number;
  } {
    const where = options.states?.length ? `WHERE state IN (${options.states.map(() => '?').join(', ')})` : '';
    const args = [...(options.states ?? [])];
    const items = (
      this.db
        .prepare(`SELECT * FROM uploads ${where} ORDER BY id DESC LIMIT ? OFFSET ?`)
        .all(...args, options.limit, options.offset) as unknown as Row[]
    ).map(toItem);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM uploads ${where}`).get(...args) as { n: number }).n;
    return { items, total };
  }

  counts(): Record<UploadState, number> {
    const counts = Object.fromEntries(UPLOAD_STATES.map((s) => [s, 0])) as Record<UploadState, number>;
    for (const row of this.db.prepare('SELECT state, count(*) AS n FROM uploads GROUP BY state').all() as Array<{
      state: UploadState;
      n: number;
    }>) {
      counts[row.state] = row.n;
    }
    return counts;
  }

  /** After a crash: work that was in the middle of a step goes back to the step's start. */
  recover(now: number): { rehash: number; reupload: number; after: number } {
    const rehash = Number(
      this.db.prepare(`UPDATE uploads SET state = 'queued', updated_at = ? WHERE state = 'hashing'`).run(now).changes,
    );
    const reupload = Number(
      this.db
        .prepare(`UPDATE uploads SET state = 'waiting', next_attempt_at = 0, updated_at = ? WHERE state = 'uploading'`)
        .run(now).changes,
    );
    const after = (this.db.prepare(`SELECT count(*) AS n FROM uploads WHERE state = 'accepted'`).get() as { n: number })
      .n;
    return { rehash, reupload, after };
  }
}

function toItem(row: Row): UploadItem {
  return { ...row, metadata: JSON.parse(row.metadata) as UploadMetadata };
}
