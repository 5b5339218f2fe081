import { hasDocumentsFtsEntry, reindexDocumentsFts } from './documents-fts.ts';
import { queryWords } from './fts-query.ts';
import type { FullTextIndex, RankedMatch } from './full-text-index.ts';
import { prefixSnippet } from './prefix-snippet.ts';

/**
 * PostgreSQL's text search over documents_fts.search_vector (server/db/postgres/pg-text-search.ts: archive_simple,
 * accents and case folded, weights A title, B sender and tags, D content). The query syntax is the one the SQLite
 * index takes: every word must match, as a prefix ("rechn" finds "Rechnung"); what people type is never tsquery
 * syntax, because only runs of letters and digits reach the expression.
 */
export const pgFullTextIndex: FullTextIndex = {
  // PostgreSQL computes the tsvector itself from the columns both back ends keep.
  reindex: reindexDocumentsFts,

  hasEntry: hasDocumentsFtsEntry,

  plan(_db, query) {
    const words = queryWords(query);
    if (words.length === 0) return Promise.resolve(null);
    return Promise.resolve({ match: words.map((w) => `${w}:*`).join(' & '), exact: false, maxMatches: null });
  },

  // Newest first like the SQLite index, so a word most documents contain is ranked in the newest `limit` only;
  // rank is lower for a better match, as bm25() is (ts_rank_cd is higher for better, hence the sign). Visibility is
  // checked per match, never joined: joined, a word of a few thousand matches was planned as a merge join over the
  // whole visibility index, or as a parallel scan whose workers took the CPU the service's own half of the search
  // needed. A key that sees every space only needs the match not to be deleted: the small index of hidden documents
  // answers that (pg-tables.ts, HIDDEN_DOCUMENTS_SQL); a key of some spaces looks each match up.
  matches: (db, match, visible, limit) =>
    db.all<RankedMatch>(
      `SELECT f.rowid AS rowid, -ts_rank_cd(f.search_vector, q.query) AS rank
      FROM (SELECT to_tsquery('archive_simple', ?) AS query) q CROSS JOIN documents_fts f
      WHERE f.search_vector @@ q.query AND ${
        visible.everySpace
          ? 'NOT EXISTS (SELECT 1 FROM search_visibility v WHERE v.doc_rowid = f.rowid AND v.deleted <> 0)'
          : `(SELECT v.deleted FROM search_visibility v WHERE v.doc_rowid = f.rowid AND ${visible.sql}) IS NOT NULL`
      }
      ORDER BY f.rowid DESC LIMIT ?`,
      match,
      ...(visible.everySpace ? [] : visible.args),
      limit,
    ),

  // Cut here from the hits' text (prefix-snippet.ts): ts_headline parsed each hit's whole text on the database's CPU.
  async snippets(db, match, rowids, format) {
    if (rowids.length === 0) return new Map();
    const words = match.split(' & ').map((term) => term.replace(/:\*$/u, ''));
    const rows = await db.all<{ rowid: number; text: string }>(
      `SELECT rowid, concat_ws(' ', content, title, sender, tags) AS text FROM documents_fts
      WHERE rowid IN (${rowids.map(() => '?').join(', ')})`,
      ...rowids,
    );
    return new Map(rows.map((row) => [Number(row.rowid), prefixSnippet(row.text, words, format)]));
  },
};
