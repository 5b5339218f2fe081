import type { DatabaseSync as Database } from 'node:sqlite';
import type { SnippetFormat } from './full-text-index.ts';

/** At most this many words of a query are searched. */
const MAX_WORDS = 32;

export const queryWords = (input: string): string[] =>
  (input.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);

const phrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/**
 * Turns what a person types into a safe FTS5 query: every word must match (as a prefix, so "rechn" finds
 * "Rechnung"); quotes and operators typed by the user are taken as plain text, never as FTS syntax.
 * Returns null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = queryWords(input);
  if (words.length === 0) return null;
  return words.map((w) => `${phrase(w)}*`).join(' ');
}

/**
 * A word with more completions than this is left to FTS5's own prefix query: each completion is a phrase of its own,
 * which bm25() loops over for every row, and a short prefix ("a", "ver") can have thousands.
 */
export const MAX_EXPANSIONS = 64;

export interface FtsPlan {
  /** The FTS5 MATCH expression, or null when some word matches no indexed term (then nothing matches). */
  match: string | null;
  /** True when every word became a list of exact terms, i.e. the expression has no prefix query in it. */
  exact: boolean;
  /**
   * An upper bound of the matching rows (deleted ones and other spaces included), from the index's own term
   * statistics: for each exactly expanded word the sum of its terms' document counts, the least of those. Null
   * when no word was expanded.
   */
  maxMatches: number | null;
}

/**
 * The same query as toFtsQuery, with each word's prefix spelled out as the indexed terms that start with it:
 * "rechnung" becomes ("rechnung" OR "rechnungsnummer"). Same matches, but FTS5 reads an OR of terms lazily,
 * whereas a prefix query first merges the complete document lists of all those terms before the first row comes
 * out, and bm25() then merges them a second time for its statistics.
 * Each word is cut into tokens by FTS5 itself (a scratch FTS5 table with the index's tokenizer), so case and
 * diacritic folding are exactly the index's. A word the tokenizer splits, or one with more than MAX_EXPANSIONS
 * completions, stays a prefix query.
 */
export function planFtsQuery(db: Database, input: string): FtsPlan | null {
  const words = queryWords(input);
  if (words.length === 0) return null;
  const helpers = helpersFor(db);
  const tokens = helpers.tokenize(words);
  const parts: string[] = [];
  let exact = true;
  let maxMatches: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const wordTokens = tokens[i] ?? [];
    const only = wordTokens.length === 1 ? wordTokens[0]! : null;
    const terms = only === null ? null : helpers.completions(only);
    if (!terms || terms.length > MAX_EXPANSIONS) {
      parts.push(`${phrase(words[i]!)}*`);
      exact = false;
      continue;
    }
    if (terms.length === 0) return { match: null, exact: true, maxMatches: 0 };
    parts.push(terms.length === 1 ? phrase(terms[0]!.term) : `(${terms.map((t) => phrase(t.term)).join(' OR ')})`);
    const documents = terms.reduce((sum, t) => sum + t.doc, 0);
    maxMatches = maxMatches === null ? documents : Math.min(maxMatches, documents);
  }
  return { match: parts.join(' AND '), exact, maxMatches };
}

/**
 * FTS5's snippet() of the rows among `rowids` that match `match`, by rowid (rows that do not match have none).
 * Cut from a scratch copy of just those rows (same columns, same tokenizer, so the same snippets): on the archive's
 * own index each row would cost a seek into every term's document list (0.1–0.3 ms a row at 100,000 documents),
 * and a prefix query would merge its term lists anew for each row.
 */
export function ftsSnippets(
  db: Database,
  match: string,
  rowids: readonly number[],
  format: SnippetFormat,
): Map<number, string> {
  if (rowids.length === 0) return new Map();
  return helpersFor(db).snippets(match, rowids, format);
}

interface Helpers {
  /** The index tokens of each word, in order. */
  tokenize(words: readonly string[]): string[][];
  /** Indexed terms that start with a token (itself included), with their document counts; MAX_EXPANSIONS + 1 at most. */
  completions(token: string): Array<{ term: string; doc: number }>;
  snippets(match: string, rowids: readonly number[], format: SnippetFormat): Map<number, string>;
}

const helpers = new WeakMap<Database, Helpers>();

/**
 * Per connection: temp-schema tables (never written to the archive file) and their statements. The scratch table
 * copies the tokenizer of documents_fts from its schema, so the two cannot drift apart.
 */
function helpersFor(db: Database): Helpers {
  let found = helpers.get(db);
  if (found) return found;
  const schema = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'documents_fts'").get() as
    { sql: string } | undefined;
  const tokenizer = `'${(/tokenize\s*=\s*'([^']*)'/i.exec(schema?.sql ?? '')?.[1] ?? 'unicode61').replaceAll("'", "''")}'`;
  const columns = (db.prepare("SELECT name FROM pragma_table_info('documents_fts')").all() as Array<{ name: string }>)
    .map((column) => `"${column.name.replaceAll('"', '""')}"`)
    .join(', ');
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_query_words USING fts5(word, content = '', tokenize = ${tokenizer});
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_query_tokens USING fts5vocab(temp, search_query_words, 'instance');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, documents_fts, 'row');
    CREATE TABLE IF NOT EXISTS temp.search_page_text (rowid INTEGER PRIMARY KEY, ${columns});
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_page USING fts5(${columns}, content = 'search_page_text', tokenize = ${tokenizer});
  `);
  const copyPage = db.prepare(`INSERT INTO temp.search_page_text (rowid, ${columns})
    SELECT f.rowid, ${columns
      .split(', ')
      .map((column) => `f.${column}`)
      .join(', ')} FROM json_each(?) AS ids CROSS JOIN documents_fts f ON f.rowid = ids.value`);
  const indexPage = db.prepare(
    `INSERT INTO temp.search_page (rowid, ${columns}) SELECT rowid, ${columns} FROM temp.search_page_text`,
  );
  // An external-content FTS5 table can drop its whole index at once; the text table is emptied after each use.
  const clearPage = [
    db.prepare("INSERT INTO temp.search_page (search_page) VALUES ('delete-all')"),
    db.prepare('DELETE FROM temp.search_page_text'),
  ];
  const pageSnippets = db.prepare(
    'SELECT rowid, snippet(search_page, -1, ?, ?, ?, ?) AS snippet FROM temp.search_page WHERE search_page MATCH ?',
  );
  const insert = db.prepare('INSERT INTO temp.search_query_words (rowid, word) VALUES (?, ?)');
  const read = db.prepare('SELECT doc, term FROM temp.search_query_tokens ORDER BY doc, "offset"');
  // Contentless, so 'delete-all' can empty the index outright instead of piling up delete markers query after query.
  const clear = db.prepare("INSERT INTO temp.search_query_words (search_query_words) VALUES ('delete-all')");
  // fts5vocab compares terms as UTF-8 bytes; U+10FFFF sorts after every character a token can hold.
  const range = db.prepare(
    `SELECT term, doc FROM temp.search_terms WHERE term >= ? AND term < ? || char(1114111) LIMIT ${MAX_EXPANSIONS + 1}`,
  );
  // fts5vocab counts each term's documents by reading its whole document list (slow for a common word in a large
  // archive), so completions are remembered while the index stays as it is: FTS5 rewrites its structure
  // record (id 10 of the _data table, a few dozen bytes) on every change to the index, so an equal record means an
  // unchanged term list.
  const structure = db.prepare('SELECT block FROM documents_fts_data WHERE id = 10');
  const remembered = new Map<string, Array<{ term: string; doc: number }>>();
  let rememberedFor: Uint8Array | null = null;
  const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
    a.length === b.length && a.every((byte, i) => byte === b[i]);
  found = {
    snippets(match, rowids, format) {
      try {
        copyPage.run(JSON.stringify(rowids));
        indexPage.run();
        const rows = pageSnippets.all(format.open, format.close, format.ellipsis, format.tokens, match) as Array<{
          rowid: number;
          snippet: string;
        }>;
        return new Map(rows.map((row) => [row.rowid, row.snippet]));
      } finally {
        for (const statement of clearPage) statement.run();
      }
    },
    tokenize(words) {
      const out: string[][] = words.map(() => []);
      try {
        words.forEach((word, i) => insert.run(i, word));
        for (const row of read.all() as Array<{ doc: number; term: string }>) out[row.doc]?.push(row.term);
      } finally {
        clear.run();
      }
      return out;
    },
    completions(token) {
      const now = (structure.get() as { block: Uint8Array } | undefined)?.block;
      // No record where it should be (another FTS5 layout): nothing to compare with, so nothing is remembered.
      if (!now) return range.all(token, token) as Array<{ term: string; doc: number }>;
      if (!rememberedFor || !sameBytes(rememberedFor, now) || remembered.size >= 2000) {
        remembered.clear();
        rememberedFor = now;
      }
      let terms = remembered.get(token);
      if (!terms) remembered.set(token, (terms = range.all(token, token) as Array<{ term: string; doc: number }>));
      return terms;
    },
  };
  helpers.set(db, found);
  return found;
}
