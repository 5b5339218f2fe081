import type {
  ArchiveDocument,
  ArchiveDocumentDetail,
  DocumentSortField,
  DocumentStatus,
  FileFormat,
  UploadMetadata,
} from '../../common/archive-types.ts';
import { jsonArrayAgg } from '../db/sql-dialect.ts';
import type { Sql, SqlDialect } from '../db/sql.ts';
import { POSSIBLE_DUPLICATE_SQL } from '../events/possible-duplicates.ts';
import { reindexFullText } from '../search/full-text-index.ts';

/** A documents row joined with its category, sender and tags, as every query below selects it. */
export interface DocumentRow {
  id: string;
  space_id: string;
  category_id: string | null;
  category_name: string | null;
  sender_id: string | null;
  sender_name: string | null;
  status: string;
  title: string;
  original_filename: string;
  mime_type: string;
  file_format: string;
  size_bytes: number;
  sha256: string;
  page_count: number | null;
  language: string | null;
  document_date: string | null;
  content: string;
  extracted_data: string;
  metadata: string | null;
  edited_fields: string;
  duplicate_of: string | null;
  processing_note: string | null;
  error: string | null;
  uploaded_by: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  deleted_at: string | null;
  tags_json: string;
  possible_duplicate_of: string | null;
  /** documents.rowid, which SQLite's `d.*` leaves out: the key of search hits and full-text rows. */
  doc_rowid: number;
}

const documentSelectOf = (dialect: SqlDialect): string => `
  SELECT d.*, d.rowid AS doc_rowid, c.name AS category_name, s.name AS sender_name,
    (SELECT ${jsonArrayAgg(dialect, 't.name')} FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
      WHERE dt.document_id = d.id) AS tags_json,
    ${POSSIBLE_DUPLICATE_SQL} AS possible_duplicate_of
  FROM documents d
  LEFT JOIN categories c ON c.id = d.category_id
  LEFT JOIN senders s ON s.id = d.sender_id`;

const DOCUMENT_SELECTS: Record<SqlDialect, string> = {
  sqlite: documentSelectOf('sqlite'),
  postgres: documentSelectOf('postgres'),
};

/** SELECT … FROM documents d (with category, sender, tags and possible duplicate) for a WHERE to follow. */
export const documentSelect = (db: Sql): string => DOCUMENT_SELECTS[db.dialect];

/** The column of `documents` each sort_by value orders by: titles by their sort key (common/sort-key.ts). */
const SORT_COLUMNS: Record<DocumentSortField, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  title: 'title_key',
  document_date: 'document_date',
};

/** The one sort column that may be NULL (the others are NOT NULL). */
const NULLABLE_SORT_COLUMNS: ReadonlySet<DocumentSortField> = new Set(['document_date']);

/**
 * ORDER BY of the document list (table alias d). NULL dates sort last either way; id breaks ties so pages never
 * overlap. Written as NULLS LAST (not `x IS NULL, x`) so the (deleted_at, <column>, id) indexes yield the order without
 * sorting every row; only on the nullable column, because PostgreSQL matches NULLS LAST … DESC to no backward index
 * scan, even on a NOT NULL column.
 */
export function documentListOrder(sortBy: DocumentSortField, sortOrder: 'asc' | 'desc'): string {
  const direction = sortOrder.toUpperCase();
  const nulls = NULLABLE_SORT_COLUMNS.has(sortBy) ? ' NULLS LAST' : '';
  return `d.${SORT_COLUMNS[sortBy]} ${direction}${nulls}, d.id ${direction}`;
}

/** The documents of these rowids, read in one statement; a rowid without a document is left out. */
export async function documentRowsByRowid(db: Sql, rowids: readonly number[]): Promise<Map<number, DocumentRow>> {
  if (rowids.length === 0) return new Map();
  const rows = await db.all<DocumentRow>(
    `${documentSelect(db)} WHERE d.rowid IN (${rowids.map(() => '?').join(', ')})`,
    ...rowids,
  );
  return new Map(rows.map((row) => [Number(row.doc_rowid), row]));
}

export function findDocumentRow(db: Sql, id: string): Promise<DocumentRow | undefined> {
  return db.get<DocumentRow>(`${documentSelect(db)} WHERE d.id = ?`, id);
}

export function toDocument(row: DocumentRow): ArchiveDocument {
  return {
    id: row.id,
    space_id: row.space_id,
    category_id: row.category_id,
    category_name: row.category_name,
    status: row.status as DocumentStatus,
    title: row.title,
    original_filename: row.original_filename,
    mime_type: row.mime_type,
    file_format: row.file_format as FileFormat,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    page_count: row.page_count,
    language: row.language,
    sender_name: row.sender_name,
    document_date: row.document_date,
    tags: (JSON.parse(row.tags_json) as string[]).sort((a, b) => a.localeCompare(b)),
    duplicate_of: row.duplicate_of,
    possible_duplicate_of: row.possible_duplicate_of,
    processing_note: row.processing_note,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processed_at: row.processed_at,
    deleted_at: row.deleted_at,
  };
}

export async function toDocumentDetail(db: Sql, row: DocumentRow): Promise<ArchiveDocumentDetail> {
  const events = await db.all<{ id: string }>(
    'SELECT id FROM events WHERE document_id = ? ORDER BY created_at',
    row.id,
  );
  return {
    ...toDocument(row),
    content: row.content,
    extracted_data: JSON.parse(row.extracted_data) as Record<string, unknown>,
    metadata: row.metadata ? (JSON.parse(row.metadata) as UploadMetadata) : null,
    event_ids: events.map((e) => e.id),
  };
}

/** The space a document is in (tags and senders are kept per space). */
async function spaceOf(db: Sql, documentId: string): Promise<string> {
  const row = await db.get<{ space_id: string }>('SELECT space_id FROM documents WHERE id = ?', documentId);
  if (!row) throw new Error(`No document ${documentId}`);
  return row.space_id;
}

/**
 * Replaces a document's tags. Names are per space and case-insensitive: a tag is created on first use in the document's
 * space, with that spelling, which stays the space's spelling; other spaces never see or change it.
 */
export async function setDocumentTags(db: Sql, documentId: string, names: readonly string[]): Promise<void> {
  const spaceId = await spaceOf(db, documentId);
  await db.run('DELETE FROM document_tags WHERE document_id = ?', documentId);
  for (const name of names) {
    // Without a conflict target: each back end has its own unique index on the name (SQLite NOCASE, PostgreSQL lower()).
    await db.run('INSERT INTO tags (space_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING', spaceId, name);
    const { id } = (await db.get<{ id: number }>(
      'SELECT id FROM tags WHERE space_id = ? AND lower(name) = lower(?)',
      spaceId,
      name,
    ))!;
    await db.run(
      'INSERT INTO document_tags (document_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING',
      documentId,
      id,
    );
  }
}

/** Keeps the full-text index row of a document in step with its searchable fields. */
export function reindexDocument(db: Sql, documentId: string): Promise<void> {
  return reindexFullText(db, documentId);
}

/**
 * Finds or creates the sender of this name (case-insensitive) in the document's space and returns its id. Senders are
 * per space like tags: each space keeps the spelling first used there.
 */
export async function senderIdFor(db: Sql, documentId: string, name: string, now: string): Promise<string> {
  const spaceId = await spaceOf(db, documentId);
  const found = await db.get<{ id: string }>(
    'SELECT id FROM senders WHERE space_id = ? AND lower(name) = lower(?)',
    spaceId,
    name,
  );
  if (found) return found.id;
  const id = crypto.randomUUID();
  await db.run('INSERT INTO senders (id, space_id, name, created_at) VALUES (?, ?, ?, ?)', id, spaceId, name, now);
  return id;
}

/** Finds or creates a category of a space by name (case-insensitive) and returns its id. */
export async function categoryIdFor(db: Sql, spaceId: string, name: string, now: string): Promise<string> {
  const found = await db.get<{ id: string }>(
    'SELECT id FROM categories WHERE space_id = ? AND lower(name) = lower(?)',
    spaceId,
    name,
  );
  if (found) return found.id;
  const id = crypto.randomUUID();
  await db.run('INSERT INTO categories (id, space_id, name, created_at) VALUES (?, ?, ?, ?)', id, spaceId, name, now);
  return id;
}
