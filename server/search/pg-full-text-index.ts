import { hasDocumentsFtsEntry, reindexDocumentsFts } from './documents-fts.ts';
import { queryWords } from './fts-query.ts';
import type { FullTextIndex, RankedMatch } from './full-text-index.ts';

/**
 * ts_headline's parser drops what looks like an HTML tag (and a script element's text) from a snippet, where FTS5 keeps
 * the text as written for the caller to escape; the brackets go through it as private-use characters instead (others
 * than the marks of SNIPPET_FORMAT).
 */
const TAG_STAND_INS = '\uE002\uE003';
const withTagBrackets = (snippet: string): string => snippet.replaceAll('\uE002', '<').replaceAll('\uE003', '>');

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
  // rank is lower for a better match, as bm25() is (ts_rank_cd is higher for better, hence the sign).
  matches: (db, match, visible, limit) =>
    db.all<RankedMatch>(
      `SELECT f.rowid AS rowid, -ts_rank_cd(f.search_vector, q.query) AS rank
      FROM (SELECT to_tsquery('archive_simple', ?) AS query) q
        CROSS JOIN documents_fts f JOIN search_visibility v ON v.doc_rowid = f.rowid
      WHERE f.search_vector @@ q.query AND ${visible.sql} ORDER BY f.rowid DESC LIMIT ?`,
      match,
      ...visible.args,
      limit,
    ),

  async snippets(db, match, rowids, format) {
    if (rowids.length === 0) return new Map();
    // One fragment of about `tokens` words around the matches, from the text first (where a hit is best shown), then
    // the title, sender and tags; ts_headline's options are quoted because the marks are not plain words.
    const options = [
      `StartSel="${format.open}"`,
      `StopSel="${format.close}"`,
      `MaxWords=${format.tokens}`,
      `MinWords=${Math.max(1, Math.floor(format.tokens / 2))}`,
      'MaxFragments=1',
      `FragmentDelimiter="${format.ellipsis}"`,
    ].join(', ');
    const placeholders = rowids.map(() => '?').join(', ');
    // A fragment starts at a word; FTS5's, at the start of the text, keeps what comes before the first word.
    const rows = await db.all<{ rowid: number; snippet: string }>(
      `SELECT h.rowid,
        CASE WHEN starts_with(h.text, h.lead || replace(replace(h.snippet, ?, ''), ?, '')) THEN h.lead || h.snippet
          ELSE h.snippet END AS snippet
      FROM (SELECT f.rowid AS rowid, t.text, substring(t.text FROM '^[^[:alnum:]]*') AS lead,
          ts_headline('archive_simple', t.text, q.query, ?) AS snippet
        FROM (SELECT to_tsquery('archive_simple', ?) AS query) q CROSS JOIN documents_fts f
          CROSS JOIN LATERAL (SELECT translate(concat_ws(' ', f.content, f.title, f.sender, f.tags), '<>', ?) AS text) t
        WHERE f.rowid IN (${placeholders}) AND f.search_vector @@ q.query) h`,
      format.open,
      format.close,
      options,
      match,
      TAG_STAND_INS,
      ...rowids,
    );
    return new Map(rows.map((row) => [row.rowid, withTagBrackets(row.snippet)]));
  },
};
