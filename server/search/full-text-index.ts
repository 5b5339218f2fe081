import type { Sql, SqlDialect } from '../db/sql.ts';
import { sqliteFullTextIndex } from './sqlite-full-text-index.ts';

/**
 * The full-text half of search, which each back end does its own way (SQLite: FTS5 with bm25 and snippet();
 * PostgreSQL: its own text search). Everything around it (access rules, fusion with vectors, paging) is shared.
 */
export interface FullTextIndex {
  /** Refreshes a document's entry from its title, text, sender and tags; call it in the transaction that changed them. */
  reindex(db: Sql, documentId: string): Promise<void>;
  /** A SQL condition: the document whose documents.rowid is the expression `rowid` has an entry (it is searchable). */
  hasEntry(rowid: string): string;
  /** What a person typed as a query of this index, or null when nothing searchable is left. */
  plan(db: Sql, query: string): Promise<FullTextPlan | null>;
  /**
   * Matches of plan.match visible by `visible` (a condition on search_visibility `v`), newest (highest rowid) first,
   * at most `limit`; `rank` is lower for a better match.
   */
  matches(db: Sql, match: string, visible: VisibleRows, limit: number): Promise<RankedMatch[]>;
  /** Snippets of the rows among `rowids` that match `match`, by rowid (rows that do not match have none). */
  snippets(db: Sql, match: string, rowids: readonly number[], format: SnippetFormat): Promise<Map<number, string>>;
}

export interface FullTextPlan {
  /** The index's query expression, or null when some word matches no indexed term (then nothing matches). */
  match: string | null;
  /** True when the expression looks up exact terms only (no prefix query). */
  exact: boolean;
  /** An upper bound of the matching rows from the index's own statistics, or null when unknown. */
  maxMatches: number | null;
}

/** A condition on search_visibility `v` with its parameters. */
export interface VisibleRows {
  sql: string;
  args: string[];
  /** True when the condition leaves out deleted documents only: the key sees every space, and no space was asked for. */
  everySpace: boolean;
}

export interface RankedMatch {
  rowid: number;
  rank: number;
}

/** The marks around each match, the ellipsis, the length in tokens. */
export interface SnippetFormat {
  open: string;
  close: string;
  ellipsis: string;
  tokens: number;
}

const indexes = new Map<SqlDialect, FullTextIndex>([['sqlite', sqliteFullTextIndex]]);

/** Installs the full-text index of a back end (the PostgreSQL one registers itself here). */
export function registerFullTextIndex(dialect: SqlDialect, index: FullTextIndex): void {
  indexes.set(dialect, index);
}

export function fullTextIndexFor(db: Sql): FullTextIndex {
  const index = indexes.get(db.dialect);
  if (!index) throw new Error(`No full-text index is registered for ${db.dialect}`);
  return index;
}

/** Keeps the full-text entry of a document in step with its searchable fields. */
export const reindexFullText = (db: Sql, documentId: string): Promise<void> =>
  fullTextIndexFor(db).reindex(db, documentId);
