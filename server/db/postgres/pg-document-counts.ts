import type { Sql } from '../sql.ts';

/**
 * Exact document counts per (space, status, deleted) on PostgreSQL, so the list's `total` reads a few rows instead
 * of counting up to a million index entries per request. Triggers on `documents` add signed delta rows in the writing
 * transaction, so the sum is exact in every snapshot. Deltas are only ever appended: concurrent uploads to one space
 * never wait on one counter row (an upsert would serialise them on it). Compaction folds the deltas into one row per
 * key, in one statement, so a reader sees either the deltas or their sum. SQLite counts rows (fast enough there).
 *
 * Inserts and deletes are counted per statement from their transition tables (a bulk INSERT … SELECT adds one row per
 * key, not one per document); an update only when space, status or liveness really changed (the pipeline's many
 * updates of other columns add nothing).
 */
export const DOCUMENT_COUNTS_SQL = `
  CREATE TABLE document_counts (
    space_id text NOT NULL, status text NOT NULL, deleted integer NOT NULL, n bigint NOT NULL
  );
  CREATE FUNCTION document_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, n)
      SELECT space_id, status, (deleted_at IS NOT NULL)::integer, count(*) FROM new_rows GROUP BY 1, 2, 3;
    RETURN NULL;
  END $$;
  CREATE FUNCTION document_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, n)
      SELECT space_id, status, (deleted_at IS NOT NULL)::integer, -count(*) FROM old_rows GROUP BY 1, 2, 3;
    RETURN NULL;
  END $$;
  CREATE FUNCTION document_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, n) VALUES
      (OLD.space_id, OLD.status, (OLD.deleted_at IS NOT NULL)::integer, -1),
      (NEW.space_id, NEW.status, (NEW.deleted_at IS NOT NULL)::integer, 1);
    RETURN NULL;
  END $$;
  CREATE FUNCTION document_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM document_counts;
    RETURN NULL;
  END $$;
  CREATE TRIGGER document_counts_insert AFTER INSERT ON documents
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION document_counts_insert();
  CREATE TRIGGER document_counts_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION document_counts_delete();
  CREATE TRIGGER document_counts_update AFTER UPDATE OF space_id, status, deleted_at ON documents FOR EACH ROW
    WHEN (OLD.space_id IS DISTINCT FROM NEW.space_id OR OLD.status IS DISTINCT FROM NEW.status
      OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
    EXECUTE FUNCTION document_counts_update();
  CREATE TRIGGER document_counts_truncate AFTER TRUNCATE ON documents
    FOR EACH STATEMENT EXECUTE FUNCTION document_counts_truncate();
`;

/**
 * The counts of the documents already there. Run after DOCUMENT_COUNTS_SQL in the same transaction: creating the
 * triggers locked out writers of `documents` until it commits, so no document is counted twice or missed.
 */
export const DOCUMENT_COUNTS_BACKFILL_SQL = `
  INSERT INTO document_counts (space_id, status, deleted, n)
    SELECT space_id, status, (deleted_at IS NOT NULL)::integer, count(*) FROM documents GROUP BY 1, 2, 3
`;

/** Any fixed number, other than the migrations' lock: one compaction at a time across all instances. */
export const COMPACTION_LOCK = 7_474_016;

/**
 * When a count sums this many more rows than it has keys, the read compacts them: reads stay a few hundred rows
 * however long no maintenance ran.
 */
export const COMPACT_AFTER_DELTAS = 500;

/** Which documents to count: all of them are keyed columns. */
export interface DocumentCountFilter {
  deleted: boolean;
  /** Only these spaces (null: every space). */
  spaces: readonly string[] | null;
  status?: string;
}

/** The exact number of documents the filter selects, from the counts table. */
export async function countDocumentsPg(db: Sql, filter: DocumentCountFilter): Promise<number> {
  const where = ['deleted = ?'];
  const args: Array<string | number> = [filter.deleted ? 1 : 0];
  if (filter.spaces) {
    if (filter.spaces.length === 0) return 0;
    where.push(`space_id IN (${filter.spaces.map(() => '?').join(', ')})`);
    args.push(...filter.spaces);
  }
  if (filter.status !== undefined) {
    where.push('status = ?');
    args.push(filter.status);
  }
  const row = await db.get<{ n: number | null; surplus: number }>(
    `SELECT sum(n) AS n, count(*) - count(DISTINCT (space_id, status)) AS surplus
    FROM document_counts WHERE ${where.join(' AND ')}`,
    ...args,
  );
  if (row!.surplus > COMPACT_AFTER_DELTAS) await compactDocumentCounts(db);
  return Number(row!.n ?? 0);
}

/**
 * Folds the delta rows into one row per key (none for a key whose documents are all gone). Skipped, returning false,
 * while another instance compacts: the work is the same, so waiting for it would only delay this caller.
 */
export function compactDocumentCounts(db: Sql): Promise<boolean> {
  return db.transaction(async (tx) => {
    const lock = await tx.get<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${COMPACTION_LOCK}) AS locked`);
    if (!lock!.locked) return false;
    await tx.run(
      `WITH gone AS (DELETE FROM document_counts RETURNING space_id, status, deleted, n)
      INSERT INTO document_counts (space_id, status, deleted, n)
        SELECT space_id, status, deleted, sum(n) FROM gone GROUP BY space_id, status, deleted HAVING sum(n) <> 0`,
    );
    return true;
  });
}
