import { renameSync, rmSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import {
  DOCUMENT_SORT_FIELDS,
  type Amount,
  type ArchiveDocument,
  type ArchiveEvent,
  type DocumentSortField,
  type DocumentStatus,
  type EventState,
  type EventType,
} from '../../../common/archive-types.ts';
import { isCalendarDate, parseIsoTimestamp } from '../../../common/dates.ts';
import { errorMessage } from '../../../common/errors.ts';
import { titleSortKey } from '../../../common/sort-key.ts';
import { isDamagedDatabase } from '../../../shared/db/damaged-database.ts';
import { runMigrations } from '../../../shared/db/migrate.ts';
import type { FirstPaintSnapshot } from '../shell/first-paint.ts';
import { CACHE_MIGRATIONS } from './cache-schema.ts';
import { DUE_STATES, dueFactsOf, groupDueItems, termsOf, type DueItems } from './due-items.ts';
import { localDate } from './local-dates.ts';
import { ReminderLog } from './reminder-log.ts';

/** The column of the cached documents each sort field orders by: titles by their sort key (common/sort-key.ts). */
export const CACHE_SORT_COLUMNS: Record<DocumentSortField, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title_key',
  document_date: 'document_date',
};

export interface CachedDocumentQuery {
  sort_by?: DocumentSortField;
  sort_order?: 'asc' | 'desc';
  space_id?: string;
  category_id?: string;
  status?: DocumentStatus;
  /** ISO 8601; created strictly after it. */
  created_after?: string;
  /** Every one of these tags (case-insensitive). */
  tags?: readonly string[];
  /** true: only the trash (soft-deleted documents); false (default): only live ones. */
  deleted?: boolean;
  limit?: number;
  offset?: number;
}

export interface CachedEventQuery {
  state?: EventState | readonly EventState[];
  event_type?: EventType;
  /** YYYY-MM-DD, inclusive; undated events never match a due range. */
  due_before?: string;
  due_after?: string;
  space_id?: string;
  document_id?: string;
  limit?: number;
  offset?: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** Where incremental sync resumes. Timestamps are the service's (ISO); the two times are this computer's (ms). */
export interface SyncCursors {
  documentsUpdated: string | null;
  documentsCreated: string | null;
  eventsUpdated: string | null;
  lastFullReconcileAt: number | null;
  lastSyncAt: number | null;
}

const CURSOR_KEYS = [
  'documentsUpdated',
  'documentsCreated',
  'eventsUpdated',
  'lastFullReconcileAt',
  'lastSyncAt',
] as const;
const MAX_PAGE = 1000;
const DOCUMENT_DETAIL_FIELDS: ReadonlySet<string> = new Set(['content', 'extracted_data', 'metadata', 'event_ids']);
const EVENT_DETAIL_FIELDS: ReadonlySet<string> = new Set(['document', 'payments', 'history']);

/** An event is shown while its document is not known to be deleted (the service's rule, applied offline). */
const EVENT_VISIBLE = 'NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = e.document_id AND d.deleted = 1)';

/**
 * The local copy of the library (node:sqlite, WAL): documents and events as the service last described them, so the
 * library opens at once and can be browsed offline. Written by LibrarySync; read by the UI through the queries here.
 */
export class LibraryCache {
  readonly path: string;
  readonly db: DatabaseSync;
  readonly reminderLog: ReminderLog;

  /**
   * Opens the cache at `path`; a damaged file (not a database, or corrupt) is moved aside as `<name>.damaged-<time>` and
   * a new cache is made: it is only a copy of what the service holds, and the next sync fills it again.
   */
  static open(path: string, log: (line: string) => void = () => {}): LibraryCache {
    try {
      return new LibraryCache(path);
    } catch (error) {
      if (!isDamagedDatabase(error)) throw error;
      const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(path, aside);
      for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
      log(
        `library cache: ${path} was damaged (${errorMessage(error)}); moved to ${aside}, the library is synced again`,
      );
      return new LibraryCache(path);
    }
  }

  constructor(path: string) {
    this.path = path;
    this.db = new DatabaseSync(path, { timeout: 5000 });
    this.db.exec('PRAGMA journal_mode = WAL');
    // A cache: losing the last transaction to a power cut costs one more sync, never data.
    this.db.exec('PRAGMA synchronous = NORMAL');
    runMigrations(this.db, CACHE_MIGRATIONS);
    this.reminderLog = new ReminderLog(this.db);
  }

  close(): void {
    this.db.close();
  }

  /** Forgets everything the service said (another service or key now): the next sync starts from scratch. */
  clear(): void {
    this.transaction(() => {
      for (const table of ['documents', 'document_tags', 'events', 'sync_state', 'first_paint'])
        this.db.exec(`DELETE FROM ${table}`);
    });
  }

  // ---- documents: queries --------------------------------------------------------------------------------------

  listDocuments(query: CachedDocumentQuery = {}): Page<ArchiveDocument> {
    const sortBy = query.sort_by ?? 'created_at';
    if (!DOCUMENT_SORT_FIELDS.includes(sortBy)) throw new RangeError(`Unknown sort field ${String(sortBy)}`);
    const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
    const { limit, offset } = paging(query.limit, query.offset, 50);
    const where = ['deleted = ?'];
    const args: SQLInputValue[] = [query.deleted ? 1 : 0];
    if (query.space_id) {
      where.push('space_id = ?');
      args.push(query.space_id.toLowerCase());
    }
    if (query.category_id) {
      where.push('category_id = ?');
      args.push(query.category_id.toLowerCase());
    }
    if (query.status) {
      where.push('status = ?');
      args.push(query.status);
    }
    if (query.created_after) {
      const after = parseIsoTimestamp(query.created_after);
      if (!after) throw new RangeError(`created_after is not an ISO 8601 timestamp: ${query.created_after}`);
      where.push('created_at > ?');
      args.push(after);
    }
    for (const tag of query.tags ?? []) {
      where.push('id IN (SELECT document_id FROM document_tags WHERE tag = ?)');
      args.push(tag);
    }
    const whereSql = where.join(' AND ');
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM documents WHERE ${whereSql}`).get(...args) as { n: number }
    ).n;
    // Same order as the service: titles by their sort key, missing dates last either way, id breaks ties so pages
    // never overlap.
    const rows = this.db
      .prepare(
        `SELECT json FROM documents WHERE ${whereSql}
      ORDER BY ${CACHE_SORT_COLUMNS[sortBy]} ${direction} NULLS LAST, id ${direction} LIMIT ? OFFSET ?`,
      )
      .all(...args, limit, offset) as Array<{ json: string }>;
    return { items: rows.map((r) => JSON.parse(r.json) as ArchiveDocument), total, limit, offset };
  }

  /** The cached list fields of one document, live or deleted (the detail with text comes from the service). */
  getDocument(id: string): ArchiveDocument | null {
    const row = this.db.prepare('SELECT json FROM documents WHERE id = ?').get(id.toLowerCase()) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as ArchiveDocument) : null;
  }

  counts(): { documents: number; deleted: number; unfinished: number; events: number } {
    const docs = this.db
      .prepare(
        `SELECT sum(deleted = 0) AS live, sum(deleted = 1) AS deleted,
      sum(deleted = 0 AND status IN ('pending', 'processing')) AS unfinished FROM documents`,
      )
      .get() as Record<string, number | null>;
    const events = (this.db.prepare(`SELECT count(*) AS n FROM events e WHERE ${EVENT_VISIBLE}`).get() as { n: number })
      .n;
    return { documents: docs.live ?? 0, deleted: docs.deleted ?? 0, unfinished: docs.unfinished ?? 0, events };
  }

  // ---- events: queries -----------------------------------------------------------------------------------------

  listEvents(query: CachedEventQuery = {}): Page<ArchiveEvent> {
    const { limit, offset } = paging(query.limit, query.offset, 25);
    const where = [EVENT_VISIBLE];
    const args: SQLInputValue[] = [];
    const states = query.state === undefined ? [] : typeof query.state === 'string' ? [query.state] : [...query.state];
    if (states.length > 0) {
      where.push(`e.state IN (${states.map(() => '?').join(', ')})`);
      args.push(...states);
    }
    if (query.event_type) {
      where.push('e.event_type = ?');
      args.push(query.event_type);
    }
    if (query.due_before) {
      where.push('e.due_date <= ?');
      args.push(calendarDate('due_before', query.due_before));
    }
    if (query.due_after) {
      where.push('e.due_date >= ?');
      args.push(calendarDate('due_after', query.due_after));
    }
    if (query.space_id) {
      where.push('e.space_id = ?');
      args.push(query.space_id.toLowerCase());
    }
    if (query.document_id) {
      where.push('e.document_id = ?');
      args.push(query.document_id.toLowerCase());
    }
    const whereSql = where.join(' AND ');
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM events e WHERE ${whereSql}`).get(...args) as { n: number }
    ).n;
    // The service's order: soonest due first (undated last), then newest.
    const rows = this.db
      .prepare(
        `SELECT e.json FROM events e WHERE ${whereSql}
      ORDER BY e.due_date IS NULL, e.due_date ASC, e.created_at DESC, e.id LIMIT ? OFFSET ?`,
      )
      .all(...args, limit, offset) as Array<{ json: string }>;
    return { items: rows.map((r) => JSON.parse(r.json) as ArchiveEvent), total, limit, offset };
  }

  getEvent(id: string): ArchiveEvent | null {
    const row = this.db.prepare('SELECT json FROM events WHERE id = ?').get(id.toLowerCase()) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as ArchiveEvent) : null;
  }

  /** Visible open/needs_input events with a due date (on or before `until` when given), soonest first. */
  dueEvents(until?: string): ArchiveEvent[] {
    const args: SQLInputValue[] = [...DUE_STATES];
    let range = '';
    if (until !== undefined) {
      range = 'AND e.due_date <= ?';
      args.push(calendarDate('until', until));
    }
    const rows = this.db
      .prepare(
        `SELECT e.json FROM events e
      WHERE e.state IN (${DUE_STATES.map(() => '?').join(', ')}) AND e.due_date IS NOT NULL ${range} AND ${EVENT_VISIBLE}
      ORDER BY e.due_date, e.created_at DESC, e.id`,
      )
      .all(...args) as Array<{ json: string }>;
    return rows.map((r) => JSON.parse(r.json) as ArchiveEvent);
  }

  /** The due view: overdue, then upcoming by ISO week, with totals per currency. `today` defaults to the local date. */
  dueItems(options: { today?: string; until?: string } = {}): DueItems {
    const today = options.today ?? localDate(Date.now());
    const events = this.dueEvents(options.until);
    return groupDueItems(events, today, dueFactsOf(this, events), termsOf(this, today));
  }

  // ---- writes (LibrarySync) ------------------------------------------------------------------------------------

  /**
   * Stores documents as the service described them (a detail answer is stored with its list fields only). Returns the ids whose cached copy changed, and those that came
   * back from the trash (their events may have been dropped meanwhile and need fetching again).
   */
  upsertDocuments(documents: readonly ArchiveDocument[], checkedAt: number): { changed: string[]; restored: string[] } {
    const changed: string[] = [];
    const restored: string[] = [];
    if (documents.length === 0) return { changed, restored };
    const current = this.db.prepare('SELECT json, deleted FROM documents WHERE id = ?');
    const touch = this.db.prepare('UPDATE documents SET checked_at = ? WHERE id = ?');
    const upsert = this.db
      .prepare(`INSERT INTO documents (id, space_id, category_id, status, title, title_key, document_date,
      created_at, updated_at, deleted, json, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET space_id = excluded.space_id, category_id = excluded.category_id, status = excluded.status,
        title = excluded.title, title_key = excluded.title_key, document_date = excluded.document_date, created_at = excluded.created_at,
        updated_at = excluded.updated_at, deleted = excluded.deleted, json = excluded.json, checked_at = excluded.checked_at`);
    const dropTags = this.db.prepare('DELETE FROM document_tags WHERE document_id = ?');
    const addTag = this.db.prepare('INSERT OR IGNORE INTO document_tags (document_id, tag) VALUES (?, ?)');
    this.transaction(() => {
      for (const doc of documents) {
        const json = stableJson(doc, DOCUMENT_DETAIL_FIELDS);
        const before = current.get(doc.id) as { json: string; deleted: number } | undefined;
        if (before?.json === json) {
          touch.run(checkedAt, doc.id);
          continue;
        }
        upsert.run(
          doc.id,
          doc.space_id,
          doc.category_id,
          doc.status,
          doc.title,
          titleSortKey(doc.title),
          doc.document_date,
          doc.created_at,
          doc.updated_at,
          doc.deleted_at ? 1 : 0,
          json,
          checkedAt,
        );
        dropTags.run(doc.id);
        for (const tag of doc.tags) addTag.run(doc.id, tag);
        changed.push(doc.id);
        if (before?.deleted === 1 && !doc.deleted_at) restored.push(doc.id);
      }
    });
    return { changed, restored };
  }

  /** Drops documents the service no longer shows at all, with their events; returns the event ids dropped. */
  removeDocuments(ids: readonly string[]): string[] {
    const events: string[] = [];
    this.transaction(() => {
      for (const id of ids) {
        events.push(...this.eventIdsOfDocument(id));
        this.db.prepare('DELETE FROM events WHERE document_id = ?').run(id);
        this.db.prepare('DELETE FROM document_tags WHERE document_id = ?').run(id);
        this.db.prepare('DELETE FROM documents WHERE id = ?').run(id);
      }
    });
    return events;
  }

  /** Every cached document id, live and deleted. */
  documentIds(): Set<string> {
    return new Set((this.db.prepare('SELECT id FROM documents').all() as Array<{ id: string }>).map((r) => r.id));
  }

  isDeleted(documentId: string): boolean {
    return this.db.prepare('SELECT 1 FROM documents WHERE id = ? AND deleted = 1').get(documentId) !== undefined;
  }

  /** Live documents still pending or processing whose last answer is older than `checkedBefore`, stalest first. */
  unfinishedDocuments(checkedBefore: number, limit: number): string[] {
    return (
      this.db
        .prepare(
          `SELECT id FROM documents WHERE deleted = 0 AND status IN ('pending', 'processing') AND checked_at < ?
      ORDER BY checked_at, id LIMIT ?`,
        )
        .all(checkedBefore, limit) as Array<{ id: string }>
    ).map((r) => r.id);
  }

  hasUnfinished(): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM documents WHERE deleted = 0 AND status IN ('pending', 'processing') LIMIT 1")
        .get() !== undefined
    );
  }

  /** Stores events; returns the ids whose cached copy changed. */
  upsertEvents(events: readonly ArchiveEvent[]): string[] {
    const changed: string[] = [];
    if (events.length === 0) return changed;
    const current = this.db.prepare('SELECT json FROM events WHERE id = ?');
    const upsert = this.db
      .prepare(`INSERT INTO events (id, document_id, space_id, event_type, state, due_date, created_at, updated_at, json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET document_id = excluded.document_id, space_id = excluded.space_id, event_type = excluded.event_type,
        state = excluded.state, due_date = excluded.due_date, created_at = excluded.created_at, updated_at = excluded.updated_at,
        json = excluded.json`);
    this.transaction(() => {
      for (const event of events) {
        const json = stableJson(event, EVENT_DETAIL_FIELDS);
        if ((current.get(event.id) as { json: string } | undefined)?.json === json) continue;
        upsert.run(
          event.id,
          event.document_id,
          event.space_id,
          event.event_type,
          event.state,
          event.due_date,
          event.created_at,
          event.updated_at,
          json,
        );
        changed.push(event.id);
      }
    });
    return changed;
  }

  removeEvents(ids: readonly string[]): void {
    this.transaction(() => {
      for (const id of ids) this.db.prepare('DELETE FROM events WHERE id = ?').run(id);
    });
  }

  /** Every cached event id with its document. */
  eventDocuments(): Map<string, string> {
    const rows = this.db.prepare('SELECT id, document_id FROM events').all() as Array<{
      id: string;
      document_id: string;
    }>;
    return new Map(rows.map((r) => [r.id, r.document_id]));
  }

  /**
   * The amount of each listed document's event, for the library's cards: of a document with several events that carry
   * one, the earliest event's (a bill's own, not a later reminder's).
   */
  eventAmounts(documentIds: readonly string[]): Map<string, Amount> {
    const amounts = new Map<string, Amount>();
    if (documentIds.length === 0) return amounts;
    const rows = this.db
      .prepare(
        `SELECT document_id, json_extract(json, '$.amount') AS amount FROM events
      WHERE document_id IN (SELECT value FROM json_each(?)) AND json_extract(json, '$.amount') IS NOT NULL
      ORDER BY created_at, id`,
      )
      .all(JSON.stringify(documentIds.map((id) => id.toLowerCase()))) as Array<{ document_id: string; amount: string }>;
    for (const row of rows)
      if (!amounts.has(row.document_id)) amounts.set(row.document_id, JSON.parse(row.amount) as Amount);
    return amounts;
  }

  eventIdsOfDocument(documentId: string): string[] {
    return (
      this.db.prepare('SELECT id FROM events WHERE document_id = ?').all(documentId) as Array<{ id: string }>
    ).map((r) => r.id);
  }

  cursors(): SyncCursors {
    const rows = this.db.prepare('SELECT key, value FROM sync_state').all() as Array<{ key: string; value: string }>;
    const values = new Map(rows.map((r) => [r.key, r.value]));
    const text = (key: string) => values.get(key) ?? null;
    const time = (key: string) => (values.has(key) ? Number(values.get(key)) : null);
    return {
      documentsUpdated: text('documentsUpdated'),
      documentsCreated: text('documentsCreated'),
      eventsUpdated: text('eventsUpdated'),
      lastFullReconcileAt: time('lastFullReconcileAt'),
      lastSyncAt: time('lastSyncAt'),
    };
  }

  setCursors(changes: Partial<SyncCursors>): void {
    const set = this.db.prepare(
      'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    const unset = this.db.prepare('DELETE FROM sync_state WHERE key = ?');
    this.transaction(() => {
      for (const key of CURSOR_KEYS) {
        if (!(key in changes)) continue;
        const value = changes[key];
        if (value === null || value === undefined) unset.run(key);
        else set.run(key, String(value));
      }
    });
  }

  // ---- the library screen's first paint --------------------------------------------------------------------------

  /** Keeps the library screen's markup as the renderer last painted it (see main/core/shell/first-paint.ts). */
  saveFirstPaint(snapshot: FirstPaintSnapshot, savedAt = Date.now()): void {
    this.db
      .prepare('INSERT OR REPLACE INTO first_paint (id, html, lang, build, view, saved_at) VALUES (1, ?, ?, ?, ?, ?)')
      .run(snapshot.html, snapshot.lang, snapshot.build, snapshot.view, savedAt);
  }

  /** The markup saveFirstPaint kept, or null (none yet, or the cache started over for another archive). */
  firstPaint(): FirstPaintSnapshot | null {
    const row = this.db.prepare('SELECT html, lang, build, view FROM first_paint WHERE id = 1').get() as
      FirstPaintSnapshot | undefined;
    return row ? { html: row.html, lang: row.lang, build: row.build, view: row.view } : null;
  }

  private transaction(fn: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      fn();
      this.db.exec('COMMIT');
    } catch (error) {
      // SQLite may have rolled back itself (disk full): a second ROLLBACK would hide the real error.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

function paging(
  limit: number | undefined,
  offset: number | undefined,
  defaultLimit: number,
): { limit: number; offset: number } {
  const l = limit ?? defaultLimit;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > MAX_PAGE) throw new RangeError(`limit must be 1-${MAX_PAGE}`);
  if (!Number.isInteger(o) || o < 0) throw new RangeError('offset must be 0 or more');
  return { limit: l, offset: o };
}

/**
 * The list fields as JSON with keys in a fixed order, so a list answer and a detail answer of the same resource compare
 * equal. Detail fields (a document's full text, an event's history) are fetched live, never cached.
 */
function stableJson(value: object, detailFields: ReadonlySet<string>): string {
  const top = Object.entries(value).filter(([key]) => !detailFields.has(key));
  return JSON.stringify(Object.fromEntries(top), (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function calendarDate(name: string, value: string): string {
  if (!isCalendarDate(value)) throw new RangeError(`${name} must be a date YYYY-MM-DD`);
  return value;
}
