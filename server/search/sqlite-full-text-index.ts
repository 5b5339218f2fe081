import { joinedText } from '../db/sql-dialect.ts';
import type { Sql } from '../db/sql.ts';
import { withSqliteConnection } from '../db/sqlite-sql.ts';
import { ftsSnippets, planFtsQuery } from './fts-query.ts';
import type { FullTextIndex, RankedMatch } from './full-text-index.ts';

const BM25 = 'bm25(documents_fts, 10.0, 1.0, 5.0, 5.0)';

/** FTS5: the documents_fts table (title, content, sender, tags) keyed by documents.rowid; see fts-query.ts. */
export const sqliteFullTextIndex: FullTextIndex = {
  async reindex(db, documentId) {
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
  },

  hasEntry: (rowid) => `EXISTS (SELECT 1 FROM documents_fts f WHERE f.rowid = ${rowid})`,

  plan: (db, query) => withSqliteConnection(db, (raw) => planFtsQuery(raw, query)),

  // Joined with search_visibility so only visible rows count and bm25() runs only for them; read newest first, FTS5
  // stops after `limit` rows.
  matches: (db: Sql, match, visible, limit) =>
    db.all<RankedMatch>(
      `SELECT f.rowid AS rowid, ${BM25} AS rank
      FROM documents_fts f CROSS JOIN search_visibility v ON v.doc_rowid = f.rowid
      WHERE documents_fts MATCH ? AND ${visible.sql} ORDER BY f.rowid DESC LIMIT ?`,
      match,
      ...visible.args,
      limit,
    ),

  snippets: (db, match, rowids, format) =>
    rowids.length === 0
      ? Promise.resolve(new Map())
      : withSqliteConnection(db, (raw) => ftsSnippets(raw, match, rowids, format)),
};
