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

/**
 * Schema 7: the counts also keyed by the month a document was created (`created_at`'s first seven characters, which
 * never change), so a deep offset of the default order (created_at) starts at its month instead of walking the index
 * from the top (createdAtSkip). A month of a few tens of thousands of documents is read in a few milliseconds; the
 * rows per key grow by the archive's age in months, which the total still sums in well under one.
 * The table is emptied and counted again under a lock that keeps writers of `documents` out until the commit.
 */
export const DOCUMENT_COUNTS_BY_MONTH_SQL = `
  LOCK TABLE documents IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM document_counts;
  ALTER TABLE document_counts ADD COLUMN month text NOT NULL;
  CREATE OR REPLACE FUNCTION document_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, month, n)
      SELECT space_id, status, (deleted_at IS NOT NULL)::integer, left(created_at, 7), count(*)
      FROM new_rows GROUP BY 1, 2, 3, 4;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION document_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, month, n)
      SELECT space_id, status, (deleted_at IS NOT NULL)::integer, left(created_at, 7), -count(*)
      FROM old_rows GROUP BY 1, 2, 3, 4;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION document_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO document_counts (space_id, status, deleted, month, n) VALUES
      (OLD.space_id, OLD.status, (OLD.deleted_at IS NOT NULL)::integer, left(OLD.created_at, 7), -1),
      (NEW.space_id, NEW.status, (NEW.deleted_at IS NOT NULL)::integer, left(NEW.created_at, 7), 1);
    RETURN NULL;
  END $$;
  DROP TRIGGER document_counts_update ON documents;
  CREATE TRIGGER document_counts_update AFTER UPDATE OF space_id, status, deleted_at, created_at ON documents
    FOR EACH ROW
    WHEN (OLD.space_id IS DISTINCT FROM NEW.space_id OR OLD.status IS DISTINCT FROM NEW.status
      OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) OR left(OLD.created_at, 7) <> left(NEW.created_at, 7))
    EXECUTE FUNCTION document_counts_update();
  INSERT INTO document_counts (space_id, status, deleted, month, n)
    SELECT space_id, status, (deleted_at IS NOT NULL)::integer, left(created_at, 7), count(*) FROM documents
    GROUP BY 1, 2, 3, 4;
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
  const keys = countKeys(filter);
  if (!keys) return 0;
  const row = await db.get<{ n: number | null; surplus: number }>(
    `SELECT sum(n) AS n, count(*) - count(DISTINCT (space_id, status, month)) AS surplus
    FROM document_counts WHERE ${keys.where}`,
    ...keys.args,
  );
  if (row!.surplus > COMPACT_AFTER_DELTAS) await compactDocumentCounts(db);
  return Number(row!.n ?? 0);
}

/** Where a list of the filter's documents in created_at order may start reading instead of at its top. */
export interface CreatedAtSkip {
  /** How many of the list's documents come before the bound: they are skipped without reading them. */
  skipped: number;
  /** A condition on d.created_at that leaves out exactly those documents. */
  sql: string;
  bound: string;
}

/**
 * For a list in created_at order (newest or oldest first) at a deep offset: the months wholly before the offset, from
 * the counts, so the index walk starts at the offset's month. Null when the offset lies in the first month (nothing to
 * skip). Counts and the page are read in separate statements: a document added or removed in between shifts the page
 * as it would shift any offset page between two requests.
 */
export async function createdAtSkip(
  db: Sql,
  filter: DocumentCountFilter,
  offset: number,
  newestFirst: boolean,
): Promise<CreatedAtSkip | null> {
  const keys = countKeys(filter);
  if (!keys) return null;
  const months = await db.all<{ month: string; n: number }>(
    `SELECT month, sum(n) AS n FROM document_counts WHERE ${keys.where}
    GROUP BY month HAVING sum(n) <> 0 ORDER BY month ${newestFirst ? 'DESC' : 'ASC'}`,
    ...keys.args,
  );
  let skipped = 0;
  for (const [index, { month, n }] of months.entries()) {
    if (skipped + Number(n) > offset) {
      if (index === 0) return null;
      // Months are ISO text (YYYY-MM): every created_at of an earlier month sorts below its month's prefix, every one of
      // the month or a later one at or above it.
      return newestFirst
        ? { skipped, sql: 'd.created_at < ?', bound: nextMonth(month) }
        : { skipped, sql: 'd.created_at >= ?', bound: month };
    }
    skipped += Number(n);
  }
  return null;
}

/** The month after YYYY-MM, as YYYY-MM; a key that is not a month (never written by the service) sorts after it. */
function nextMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return `${month}\u{10FFFF}`;
  const [year, m] = [Number(match[1]), Number(match[2])];
  return m === 12 ? `${String(year + 1).padStart(4, '0')}-01` : `${match[1]}-${String(m + 1).padStart(2, '0')}`;
}

function countKeys(filter: DocumentCountFilter): { where: string; args: Array<string | number> } | null {
  const where = ['deleted = ?'];
  const args: Array<string | number> = [filter.deleted ? 1 : 0];
  if (filter.spaces) {
    if (filter.spaces.length === 0) return null;
    where.push(`space_id IN (${filter.spaces.map(() => '?').join(', ')})`);
    args.push(...filter.spaces);
  }
  if (filter.status !== undefined) {
    where.push('status = ?');
    args.push(filter.status);
  }
  return { where: where.join(' AND '), args };
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
      `WITH gone AS (DELETE FROM document_counts RETURNING space_id, status, deleted, month, n)
      INSERT INTO document_counts (space_id, status, deleted, month, n)
        SELECT space_id, status, deleted, month, sum(n) FROM gone GROUP BY space_id, status, deleted, month
        HAVING sum(n) <> 0`,
    );
    return true;
  });
}
