import type { DatabaseSync } from 'node:sqlite';
import { titleSortKey } from '../../../common/sort-key.ts';

/**
 * The library cache's tables. Documents and events keep the service's JSON whole (fields added within v1 survive) plus
 * the columns the list queries filter and sort on. Every sort index ends in id, the tie-breaker, so a page is read off
 * the index in order at any size instead of sorting every row.
 */
export const CACHE_MIGRATIONS: ReadonlyArray<(db: DatabaseSync) => void> = [
  (db) =>
    db.exec(`
    CREATE TABLE documents (
      id TEXT PRIMARY KEY,
      space_id TEXT NOT NULL,
      category_id TEXT,
      status TEXT NOT NULL,
      title TEXT NOT NULL,
      document_date TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted INTEGER NOT NULL,
      json TEXT NOT NULL,
      -- local ms of the service's last answer about this document (the pending follow-up asks the stalest first)
      checked_at INTEGER NOT NULL
    );
    CREATE INDEX documents_created ON documents(deleted, created_at, id);
    CREATE INDEX documents_updated ON documents(deleted, updated_at, id);
    CREATE INDEX documents_title ON documents(deleted, title, id);
    CREATE INDEX documents_date ON documents(deleted, document_date, id);
    CREATE INDEX documents_space ON documents(space_id, deleted, created_at, id);
    CREATE INDEX documents_category ON documents(category_id, deleted, created_at, id);
    CREATE INDEX documents_status ON documents(deleted, status, created_at, id);
    CREATE TABLE document_tags (
      document_id TEXT NOT NULL, tag TEXT NOT NULL COLLATE NOCASE, PRIMARY KEY (document_id, tag)
    ) WITHOUT ROWID;
    CREATE INDEX document_tags_tag ON document_tags(tag, document_id);
    CREATE TABLE events (
      id TEXT PRIMARY KEY,
      document_id TEXT NOT NULL,
      space_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      state TEXT NOT NULL,
      due_date TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      json TEXT NOT NULL
    );
    CREATE INDEX events_document ON events(document_id);
    CREATE INDEX events_due ON events(due_date, created_at);
    CREATE INDEX events_state_due ON events(state, due_date);
    CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE reminders_fired (
      event_id TEXT NOT NULL, rule TEXT NOT NULL, due_date TEXT NOT NULL, fired_at INTEGER NOT NULL,
      PRIMARY KEY (event_id, rule, due_date)
    ) WITHOUT ROWID;
    CREATE INDEX reminders_fired_at ON reminders_fired(fired_at);
    CREATE TABLE snoozes (event_id TEXT PRIMARY KEY, until INTEGER NOT NULL);
  `),
  // Reminder keys an older version recorded (an event id with `before:<days>` or `due-day`; `*` with
  // `overdue-digest:<date>`) rewritten once to today's (reminderSubject, the rule's kind), so what fired before the
  // update stays fired. A key whose event the cache no longer holds cannot be rewritten; nothing could match it.
  (db) =>
    db.exec(`
    INSERT OR IGNORE INTO reminders_fired (event_id, rule, due_date, fired_at)
      SELECT e.document_id || ':' || e.event_type, CASE WHEN r.rule = 'due-day' THEN 'due-day' ELSE 'before' END,
        r.due_date, r.fired_at
      FROM reminders_fired r JOIN events e ON e.id = r.event_id
      WHERE r.rule LIKE 'before:%' OR (r.rule = 'due-day' AND instr(r.event_id, ':') = 0);
    INSERT OR IGNORE INTO reminders_fired (event_id, rule, due_date, fired_at)
      SELECT event_id, 'overdue-digest', due_date, fired_at FROM reminders_fired WHERE rule LIKE 'overdue-digest:%';
    DELETE FROM reminders_fired
      WHERE rule LIKE 'before:%' OR rule LIKE 'overdue-digest:%' OR (rule = 'due-day' AND instr(event_id, ':') = 0);
  `),
  // Titles sort as people read them, in the service's order: by the key of common/sort-key.ts, written with every
  // upsert (LibraryCache is the only writer) and computed here once for the rows already cached.
  (db) => {
    db.exec("ALTER TABLE documents ADD COLUMN title_key TEXT NOT NULL DEFAULT ''");
    const setKey = db.prepare('UPDATE documents SET title_key = ? WHERE id = ?');
    for (const row of db.prepare('SELECT id, title FROM documents').all() as Array<{ id: string; title: string }>) {
      setKey.run(titleSortKey(row.title), row.id);
    }
    db.exec('DROP INDEX documents_title; CREATE INDEX documents_title ON documents(deleted, title_key, id)');
  },
  // The library screen as the renderer last painted it, shown by the shells before the app's scripts run
  // (main/core/shell/first-paint.ts). One row; cleared with the rest when the cache starts over for another archive.
  (db) =>
    db.exec(`
    CREATE TABLE first_paint (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      html TEXT NOT NULL,
      lang TEXT NOT NULL,
      build TEXT NOT NULL,
      saved_at INTEGER NOT NULL
    );
  `),
  // The first paint of the grid too: which view the kept markup shows (served only while the settings' view is it).
  (db) =>
    db.exec("ALTER TABLE first_paint ADD COLUMN view TEXT NOT NULL DEFAULT 'list' CHECK (view IN ('list', 'grid'))"),
];
