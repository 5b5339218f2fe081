import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { titleSortKey } from '../../common/sort-key.ts';
import { refreshBillKey } from '../events/possible-duplicates.ts';
import { nowIso, type Sql } from './sql.ts';
import { runMigrations } from '../../shared/db/migrate.ts';

/** Ordered, append-only. Each entry runs once, inside a transaction, and bumps PRAGMA user_version. */
export const MIGRATIONS: ReadonlyArray<(db: DatabaseSync) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE spaces (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, is_default INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX spaces_default ON spaces(is_default) WHERE is_default = 1;
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT NOT NULL, role TEXT NOT NULL,
        scopes TEXT NOT NULL, spaces TEXT, created_at TEXT NOT NULL, last_used_at TEXT, revoked_at TEXT
      );
      CREATE TABLE categories (
        id TEXT PRIMARY KEY, space_id TEXT NOT NULL REFERENCES spaces(id), name TEXT NOT NULL, created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX categories_name ON categories(space_id, name COLLATE NOCASE);
      CREATE TABLE senders (id TEXT PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE, created_at TEXT NOT NULL);
      CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE UNIQUE);
      CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        space_id TEXT NOT NULL REFERENCES spaces(id),
        category_id TEXT REFERENCES categories(id),
        sender_id TEXT REFERENCES senders(id),
        status TEXT NOT NULL,
        title TEXT NOT NULL,
        original_filename TEXT NOT NULL,
        mime_type TEXT NOT NULL,
        file_format TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        page_count INTEGER,
        language TEXT,
        document_date TEXT,
        content TEXT NOT NULL DEFAULT '',
        extracted_data TEXT NOT NULL DEFAULT '{}',
        metadata TEXT,
        edited_fields TEXT NOT NULL DEFAULT '[]',
        duplicate_of TEXT,
        processing_note TEXT,
        error TEXT,
        uploaded_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        processed_at TEXT,
        deleted_at TEXT
      );
      CREATE INDEX documents_created ON documents(deleted_at, created_at);
      CREATE INDEX documents_updated ON documents(deleted_at, updated_at);
      CREATE INDEX documents_title ON documents(deleted_at, title);
      CREATE INDEX documents_date ON documents(deleted_at, document_date);
      CREATE INDEX documents_space ON documents(space_id, deleted_at, created_at);
      CREATE INDEX documents_status ON documents(status);
      CREATE INDEX documents_category ON documents(category_id);
      CREATE INDEX documents_sha ON documents(sha256, space_id);
      CREATE TABLE document_tags (
        document_id TEXT NOT NULL REFERENCES documents(id), tag_id INTEGER NOT NULL REFERENCES tags(id),
        PRIMARY KEY (document_id, tag_id)
      ) WITHOUT ROWID;
      CREATE INDEX document_tags_tag ON document_tags(tag_id);
      CREATE TABLE events (
        id TEXT PRIMARY KEY,
        document_id TEXT NOT NULL REFERENCES documents(id),
        event_type TEXT NOT NULL,
        state TEXT NOT NULL,
        title TEXT NOT NULL,
        amount_value REAL,
        amount_currency TEXT,
        due_date TEXT,
        reference_number TEXT,
        sender_id TEXT REFERENCES senders(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX events_document ON events(document_id);
      CREATE INDEX events_due ON events(due_date);
      CREATE TABLE event_history (
        id INTEGER PRIMARY KEY, event_id TEXT NOT NULL REFERENCES events(id),
        from_state TEXT, to_state TEXT NOT NULL, at TEXT NOT NULL, cause TEXT NOT NULL
      );
      CREATE INDEX event_history_event ON event_history(event_id);
      CREATE TABLE payments (
        id TEXT PRIMARY KEY, event_id TEXT NOT NULL REFERENCES events(id),
        amount_value REAL, amount_currency TEXT, paid_at TEXT NOT NULL, confirmed INTEGER NOT NULL,
        source TEXT NOT NULL, created_at TEXT NOT NULL
      );
      CREATE INDEX payments_event ON payments(event_id);
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        document_id TEXT NOT NULL REFERENCES documents(id),
        kind TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      );
      -- "A document already in the pipeline is not queued a second time": enforced by the schema.
      CREATE UNIQUE INDEX jobs_active ON jobs(document_id) WHERE state IN ('queued', 'running');
      CREATE INDEX jobs_state ON jobs(state, id);
      CREATE VIRTUAL TABLE documents_fts USING fts5(
        title, content, sender, tags, tokenize = 'unicode61 remove_diacritics 2'
      );
    `);
    const now = new Date().toISOString();
    db.prepare('INSERT INTO spaces (id, name, is_default, created_at) VALUES (?, ?, 1, ?)').run(
      randomUUID(),
      'Default',
      now,
    );
  },
  // Semantic search: one vector per document, tagged with the model that made it (float32, little endian).
  // source_hash is the SHA-256 of the embedded text, so re-embedding unchanged text is skipped.
  (db) => {
    db.exec(`
      CREATE TABLE document_embeddings (
        document_id TEXT PRIMARY KEY REFERENCES documents(id),
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        vector BLOB NOT NULL,
        source_hash TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX document_embeddings_updated ON document_embeddings(updated_at);
    `);
  },
  // Document list at 100,000 rows (docs/benchmarks.md): each sort index ends in id, the documented tie-breaker, so a page
  // is read off the index in order (no sort of every row, deep offsets skip index entries only); the status index also
  // carries deleted_at so counting a status needs no table lookups.
  (db) => {
    db.exec(`
      DROP INDEX documents_created;
      CREATE INDEX documents_created ON documents(deleted_at, created_at, id);
      DROP INDEX documents_updated;
      CREATE INDEX documents_updated ON documents(deleted_at, updated_at, id);
      DROP INDEX documents_title;
      CREATE INDEX documents_title ON documents(deleted_at, title, id);
      DROP INDEX documents_date;
      CREATE INDEX documents_date ON documents(deleted_at, document_date, id);
      DROP INDEX documents_space;
      CREATE INDEX documents_space ON documents(space_id, deleted_at, created_at, id);
      DROP INDEX documents_status;
      CREATE INDEX documents_status ON documents(deleted_at, status, created_at, id);
    `);
  },
  // Search at 100,000 rows (docs/benchmarks.md): who may see a full-text hit is decided per candidate rowid. Read from
  // `documents`, deleted_at sits behind the ~2 KB of text (often on an overflow page), a page read per row. This narrow
  // copy, keyed by the same rowid as documents_fts and kept by triggers (so every writer, the CLI included, keeps it
  // exact), answers in a fraction of that.
  (db) => {
    db.exec(`
      CREATE TABLE search_visibility (
        doc_rowid INTEGER PRIMARY KEY, space_id TEXT NOT NULL, deleted INTEGER NOT NULL
      );
      INSERT INTO search_visibility (doc_rowid, space_id, deleted)
        SELECT rowid, space_id, deleted_at IS NOT NULL FROM documents;
      -- The first and last visible rowid of a space, for estimating how many documents a broad query matches.
      CREATE INDEX search_visibility_space ON search_visibility(space_id, deleted, doc_rowid);
      CREATE TRIGGER search_visibility_insert AFTER INSERT ON documents BEGIN
        INSERT OR REPLACE INTO search_visibility (doc_rowid, space_id, deleted) VALUES (new.rowid, new.space_id, new.deleted_at IS NOT NULL);
      END;
      CREATE TRIGGER search_visibility_update AFTER UPDATE OF space_id, deleted_at ON documents BEGIN
        UPDATE search_visibility SET space_id = new.space_id, deleted = new.deleted_at IS NOT NULL WHERE doc_rowid = new.rowid;
      END;
      CREATE TRIGGER search_visibility_delete AFTER DELETE ON documents BEGIN
        DELETE FROM search_visibility WHERE doc_rowid = old.rowid;
      END;
    `);
  },
  // OCR languages per space: a JSON array of tesseract codes in the order tesseract gets them; NULL = the defaults.
  (db) => {
    db.exec('ALTER TABLE spaces ADD COLUMN ocr_languages TEXT');
  },
  // Titles sort as people read them (common/sort-key.ts): by title_key, kept by triggers so every writer (upload,
  // processing, hand edits, the CLI) keeps it exact. The sort index moves from the title to the key.
  (db) => {
    registerSqlFunctions(db);
    db.exec(`
      ALTER TABLE documents ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
      UPDATE documents SET title_key = title_sort_key(title);
      DROP INDEX documents_title;
      CREATE INDEX documents_title ON documents(deleted_at, title_key, id);
      CREATE TRIGGER documents_title_key_insert AFTER INSERT ON documents BEGIN
        UPDATE documents SET title_key = title_sort_key(new.title) WHERE rowid = new.rowid;
      END;
      CREATE TRIGGER documents_title_key_update AFTER UPDATE OF title ON documents WHEN new.title IS NOT old.title BEGIN
        UPDATE documents SET title_key = title_sort_key(new.title) WHERE rowid = new.rowid;
      END;
    `);
  },
  // Tag and sender names per space: one archive-wide row per name showed a restricted key another space's spelling.
  (db) => keepNamesPerSpace(db),
  // A document's events: its main one, plus a contract's notice deadline (server/events/notice-deadline.ts).
  (db) => {
    db.exec(`ALTER TABLE events ADD COLUMN purpose TEXT NOT NULL DEFAULT 'main';
      CREATE INDEX events_document_purpose ON events(document_id, purpose);`);
  },
  // Learning from corrections (server/learning/): who sent each document (identity keys), and per space what a person
  // corrected for a sender. A rule's keys are those of the documents it was learned from.
  (db) => {
    db.exec(`
      CREATE TABLE document_sender_keys (
        document_id TEXT NOT NULL REFERENCES documents(id), kind TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (document_id, kind, value)
      );
      CREATE TABLE learned_senders (
        id TEXT PRIMARY KEY, space_id TEXT NOT NULL REFERENCES spaces(id), sender_name TEXT,
        category_id TEXT REFERENCES categories(id), tags TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
      );
      CREATE TABLE learned_sender_keys (
        rule_id TEXT NOT NULL REFERENCES learned_senders(id), space_id TEXT NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (space_id, kind, value, rule_id)
      );
    `);
  },
  // Possible duplicates (server/events/possible-duplicates.ts): what two copies of one bill share, and the pairs a
  // person declared different bills. Documents processed before get their key from their main event.
  (db) => {
    db.exec(`ALTER TABLE documents ADD COLUMN bill_key TEXT;
      CREATE INDEX documents_bill_key ON documents(space_id, bill_key) WHERE bill_key IS NOT NULL;
      CREATE TABLE distinct_bills (
        document_id TEXT NOT NULL REFERENCES documents(id), other_id TEXT NOT NULL REFERENCES documents(id),
        decided_at TEXT NOT NULL, PRIMARY KEY (document_id, other_id)
      );`);
    // The bill keys of the documents already stored are computed by the service's own (asynchronous) code, right
    // after migrating: completeMigrations.
    db.exec(`INSERT INTO settings (key, value) VALUES ('${PENDING_BILL_KEYS}', '1')`);
  },
];

interface NameUse {
  id: string | number;
  name: string;
  space_id: string;
}

/**
 * Migration 7. Tags and senders get a space; a name used in several spaces becomes one row per space (the first
 * space keeps the row's id, so a sender's id stays valid there). A row's spelling was the one first used anywhere;
 * where a space's own upload metadata spells the name, the space gets that spelling back.
 */
function keepNamesPerSpace(db: DatabaseSync): void {
  const tagUses = db
    .prepare(
      `SELECT DISTINCT t.id, t.name, d.space_id FROM tags t
    JOIN document_tags dt ON dt.tag_id = t.id JOIN documents d ON d.id = dt.document_id ORDER BY t.id, d.space_id`,
    )
    .all() as unknown as NameUse[];
  const senderUses = db
    .prepare(
      `SELECT s.id, s.name, u.space_id FROM senders s JOIN (
      SELECT sender_id, space_id FROM documents WHERE sender_id IS NOT NULL
      UNION SELECT e.sender_id, d.space_id FROM events e JOIN documents d ON d.id = e.document_id WHERE e.sender_id IS NOT NULL
    ) u ON u.sender_id = s.id ORDER BY s.id, u.space_id`,
    )
    .all() as unknown as NameUse[];
  const spellings = metadataSpellings(db);

  // The old tables go while rows still point at them; the checks wait for COMMIT, by when every reference points at
  // a row of the new tables again (SQLite fails the COMMIT otherwise).
  db.exec('PRAGMA defer_foreign_keys = ON');
  db.exec(`
    DROP TABLE tags;
    CREATE TABLE tags (id INTEGER PRIMARY KEY, space_id TEXT NOT NULL REFERENCES spaces(id), name TEXT NOT NULL COLLATE NOCASE);
    CREATE UNIQUE INDEX tags_name ON tags(space_id, name);
    DROP TABLE senders;
    CREATE TABLE senders (
      id TEXT PRIMARY KEY, space_id TEXT NOT NULL REFERENCES spaces(id), name TEXT NOT NULL COLLATE NOCASE, created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX senders_name ON senders(space_id, name);
  `);
  const spelled = (use: NameUse, kind: 'tags' | 'senders'): string =>
    spellings.get(`${kind}\n${use.space_id}\n${asciiLower(use.name)}`) ?? use.name;

  const insertTag = db.prepare('INSERT INTO tags (id, space_id, name) VALUES (?, ?, ?)');
  const moveTag = db.prepare(`UPDATE document_tags SET tag_id = ?
    WHERE tag_id = ? AND document_id IN (SELECT id FROM documents WHERE space_id = ?)`);
  const [keptTags, splitTags] = firstUsePerRow(tagUses);
  // Kept ids first, so the new rows' automatic ids cannot take one of them.
  for (const use of keptTags) insertTag.run(use.id, use.space_id, spelled(use, 'tags'));
  for (const use of splitTags) {
    const { id } = db
      .prepare('INSERT INTO tags (space_id, name) VALUES (?, ?) RETURNING id')
      .get(use.space_id, spelled(use, 'tags')) as { id: number };
    moveTag.run(id, use.id, use.space_id);
  }

  const now = new Date().toISOString();
  const insertSender = db.prepare('INSERT INTO senders (id, space_id, name, created_at) VALUES (?, ?, ?, ?)');
  const moveDocuments = db.prepare('UPDATE documents SET sender_id = ? WHERE sender_id = ? AND space_id = ?');
  const moveEvents = db.prepare(`UPDATE events SET sender_id = ?
    WHERE sender_id = ? AND document_id IN (SELECT id FROM documents WHERE space_id = ?)`);
  const [keptSenders, splitSenders] = firstUsePerRow(senderUses);
  for (const use of keptSenders) insertSender.run(use.id, use.space_id, spelled(use, 'senders'), now);
  for (const use of splitSenders) {
    const id = randomUUID();
    insertSender.run(id, use.space_id, spelled(use, 'senders'), now);
    moveDocuments.run(id, use.id, use.space_id);
    moveEvents.run(id, use.id, use.space_id);
  }
}

/** Splits uses (ordered by row id) into each row's first use, which keeps the row's id, and the others. */
function firstUsePerRow(uses: readonly NameUse[]): [NameUse[], NameUse[]] {
  const first: NameUse[] = [];
  const rest: NameUse[] = [];
  uses.forEach((use, i) => (i > 0 && uses[i - 1]!.id === use.id ? rest : first).push(use));
  return [first, rest];
}

/** Lower case as SQLite's NOCASE compares: ASCII letters only. */
const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * How each space's own upload metadata spelled tag and sender names (the earliest document wins), keyed by kind,
 * space and the name in lower case.
 */
function metadataSpellings(db: DatabaseSync): Map<string, string> {
  const spellings = new Map<string, string>();
  const rows = db
    .prepare(`SELECT space_id, metadata FROM documents WHERE metadata IS NOT NULL ORDER BY created_at DESC`)
    .all() as Array<{ space_id: string; metadata: string }>;
  // Newest first, so the earliest document's spelling is the one left in the map.
  for (const { space_id: space, metadata } of rows) {
    let parsed: { tags?: unknown; sender_name?: unknown };
    try {
      parsed = JSON.parse(metadata) as typeof parsed;
    } catch {
      continue; // stored metadata was validated on upload; a damaged one simply gives no spelling
    }
    const tags = Array.isArray(parsed.tags) ? parsed.tags.filter((t): t is string => typeof t === 'string') : [];
    for (const tag of tags) spellings.set(`tags\n${space}\n${asciiLower(tag)}`, tag);
    if (typeof parsed.sender_name === 'string')
      spellings.set(`senders\n${space}\n${asciiLower(parsed.sender_name)}`, parsed.sender_name);
  }
  return spellings;
}

/**
 * The application-defined SQL functions the schema's triggers call. SQLite keeps them per connection, so every
 * connection registers them before it writes (migrate does, and openDatabase calls migrate).
 */
export function registerSqlFunctions(db: DatabaseSync): void {
  db.function('title_sort_key', { deterministic: true }, (title) => titleSortKey(String(title ?? '')));
}

export function migrate(db: DatabaseSync): void {
  registerSqlFunctions(db);
  runMigrations(db, MIGRATIONS);
}

/** Set by the possible-duplicates migration until the stored documents have their bill keys. */
const PENDING_BILL_KEYS = 'pending_bill_keys';

/** The parts of migrations that run the service's own code on the migrated database; openDatabase runs them. */
export async function completeMigrations(db: Sql): Promise<void> {
  if (!(await db.get('SELECT 1 FROM settings WHERE key = ?', PENDING_BILL_KEYS))) return;
  await db.transaction(async (tx) => {
    // Another process may have completed it meanwhile.
    if ((await tx.run('DELETE FROM settings WHERE key = ?', PENDING_BILL_KEYS)).changes === 0) return;
    const now = nowIso();
    const documents = await tx.all<{ document_id: string }>(
      "SELECT DISTINCT document_id FROM events WHERE purpose = 'main'",
    );
    // A pair found here moves both documents' updated_at, so the apps' next incremental sync brings the new flags.
    for (const { document_id: id } of documents) await refreshBillKey(tx, id, now);
  });
}
