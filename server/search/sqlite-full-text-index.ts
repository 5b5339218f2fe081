import type { Sql } from '../db/sql.ts';
import { withSqliteConnection } from '../db/sqlite-sql.ts';
import { hasDocumentsFtsEntry, reindexDocumentsFts } from './documents-fts.ts';
import { ftsSnippets, planFtsQuery } from './fts-query.ts';
import type { FullTextIndex, RankedMatch } from './full-text-index.ts';

const BM25 = 'bm25(documents_fts, 10.0, 1.0, 5.0, 5.0)';

/** FTS5: the documents_fts table (title, content, sender, tags) keyed by documents.rowid; see fts-query.ts. */
export const sqliteFullTextIndex: FullTextIndex = {
  reindex: reindexDocumentsFts,

  hasEntry: hasDocumentsFtsEntry,

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
