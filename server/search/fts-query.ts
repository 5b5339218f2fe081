import type { Database } from '../db/database.ts';

/** At most this many words of a query are searched. */
const MAX_WORDS = 32;

const queryWords = (input: string): string[] => (input.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);

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
 * A word with more completions than this is left to FTS5's own prefix query. Each completion is a phrase of its
 * own (bm25() loops over them for every row), and past a few dozen the OR costs more than the prefix merge it avoids.
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
 * whereas a prefix query first merges the complete document lists of all those terms (8 ms for "rechnung*" at
 * 100,000 documents) before the first row comes out, and bm25() then merges them a second time for its statistics.
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

interface Helpers {
  /** The index tokens of each word, in order. */
  tokenize(words: readonly string[]): string[][];
  /** Indexed terms that start with a token (itself included), with their document counts; MAX_EXPANSIONS + 1 at most. */
  completions(token: string): Array<{ term: string; doc: number }>;
}

const helpers = new WeakMap<Database, Helpers>();

/**
 * Per connection: temp-schema tables (never written to the archive file) and their statements. The scratch table
 * copies the tokenizer of documents_fts from its schema, so the two cannot drift apart.
 */
function helpersFor(db: Database): Helpers {
  let found = helpers.get(db);
  if (found) return found;
  const schema = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'documents_fts'").get() as { sql: string } | undefined;
  const tokenizer = /tokenize\s*=\s*'([^']*)'/i.exec(schema?.sql ?? '')?.[1] ?? 'unicode61';
  db.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_query_words USING fts5(word, content = '', tokenize = '${tokenizer.replaceAll("'", "''")}');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_query_tokens USING fts5vocab(temp, search_query_words, 'instance');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, documents_fts, 'row');
  `);
  const insert = db.prepare('INSERT INTO temp.search_query_words (rowid, word) VALUES (?, ?)');
  const read = db.prepare('SELECT doc, term FROM temp.search_query_tokens ORDER BY doc, "offset"');
  // Contentless, so 'delete-all' can empty the index outright instead of piling up delete markers query after query.
  const clear = db.prepare("INSERT INTO temp.search_query_words (search_query_words) VALUES ('delete-all')");
  // fts5vocab compares terms as UTF-8 bytes; U+10FFFF sorts after every character a token can hold.
  const range = db.prepare(`SELECT term, doc FROM temp.search_terms WHERE term >= ? AND term < ? || char(1114111) LIMIT ${MAX_EXPANSIONS + 1}`);
  found = {
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
    completions: (token) => range.all(token, token) as Array<{ term: string; doc: number }>,
  };
  helpers.set(db, found);
  return found;
}
