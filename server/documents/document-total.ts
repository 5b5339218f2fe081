import {
  compactDocumentCounts,
  countDocumentsPg,
  createdAtSkip,
  type CreatedAtSkip,
  type DocumentCountFilter,
} from '../db/postgres/pg-document-counts.ts';
import type { Sql, SqlValue } from '../db/sql.ts';

export type { CreatedAtSkip, DocumentCountFilter };

/**
 * The exact `total` of a document list. On PostgreSQL a list filtered only by what the counts table keys (spaces,
 * status, deleted or not) reads it (server/db/postgres/pg-document-counts.ts): counting a million live documents'
 * index entries takes longer than the whole request may. Any other filter, and SQLite, count the matching rows of
 * `documents d` under `where`.
 */
export async function documentListTotal(
  db: Sql,
  where: string,
  args: readonly SqlValue[],
  keyed: DocumentCountFilter | null,
): Promise<number> {
  if (keyed && db.dialect === 'postgres') return countDocumentsPg(db, keyed);
  const row = await db.get<{ n: number }>(`SELECT count(*) AS n FROM documents d WHERE ${where}`, ...args);
  return Number(row!.n);
}

/** Below this offset a page is found by walking the index from the top: the counts would not save a millisecond. */
export const SKIP_FROM_OFFSET = 5_000;

/**
 * Where a page of a list in created_at order can start: on PostgreSQL, for the lists the counts key, the months before
 * the offset's month are skipped by their counts (pg-document-counts.ts, createdAtSkip). Null: walk from the top.
 */
export async function documentListSkip(
  db: Sql,
  keyed: DocumentCountFilter | null,
  offset: number,
  newestFirst: boolean,
): Promise<CreatedAtSkip | null> {
  if (!keyed || db.dialect !== 'postgres' || offset < SKIP_FROM_OFFSET) return null;
  return createdAtSkip(db, keyed, offset, newestFirst);
}

/**
 * How often each instance folds the count deltas: at the spec's upload limits a minute adds a few thousand rows, which
 * a read still sums in a millisecond or two.
 */
export const COUNT_COMPACTION_INTERVAL_MS = 60_000;

/** Periodic upkeep of the list totals: folds PostgreSQL's count deltas (nothing to do on SQLite). */
export async function compactDocumentTotals(db: Sql): Promise<void> {
  if (db.dialect === 'postgres') await compactDocumentCounts(db);
}
