import { joinedText } from '../db/sql-dialect.ts';
import type { Sql } from '../db/sql.ts';

/**
 * The table documents_fts, which both back ends keep with the same columns (rowid = documents.rowid; title, content,
 * sender, tags): SQLite indexes it with FTS5, PostgreSQL with a generated tsvector. Keeping an entry current is the
 * same statements on both.
 */
export async function reindexDocumentsFts(db: Sql, documentId: string): Promise<void> {
  const row = await db.get<{
    rowid: number;
    title: string;
    content: string;
    sender: string | null;
    tags: string | null;
  }>(
    `SELECT d.rowid AS rowid, d.title, d.content, s.name AS sender,
      (SELECT ${joinedText(db.dialect, 't.name', "' '")} FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
        WHERE dt.document_id = d.id) AS tags
    FROM documents d LEFT JOIN senders s ON s.id = d.sender_id WHERE d.id = ?`,
    documentId,
  );
  if (!row) return;
  await db.run('DELETE FROM documents_fts WHERE rowid = ?', row.rowid);
  await db.run(
    'INSERT INTO documents_fts (rowid, title, content, sender, tags) VALUES (?, ?, ?, ?, ?)',
    row.rowid,
    row.title,
    row.content,
    row.sender ?? '',
    row.tags ?? '',
  );
}

/** A SQL condition: the document whose documents.rowid is the expression `rowid` has an entry (it is searchable). */
export const hasDocumentsFtsEntry = (rowid: string): string =>
  `EXISTS (SELECT 1 FROM documents_fts f WHERE f.rowid = ${rowid})`;
