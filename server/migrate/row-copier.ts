import type { Sql, SqlValue } from '../db/sql.ts';
import { quoteIdentifier, type SourceArchive } from './source-archive.ts';
import type { TableCopy } from './table-plan.ts';

export interface BatchLimits {
  rows: number;
  /** Roughly: documents carry their whole text, so a batch of them is cut by size too. */
  bytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { rows: 500, bytes: 8 * 1024 * 1024 };

/** PostgreSQL's limit of parameters per statement. */
const MAX_PARAMETERS = 65_535;

export interface TableResult {
  table: string;
  copied: number;
  /** Rows whose primary key the target had already (an earlier, interrupted run). */
  alreadyThere: number;
}

/**
 * Copies a table's rows in batches, each one INSERT (so one transaction of its own) that skips rows whose primary key
 * is there already: a run after an interruption picks up where it stopped, with no duplicates. Any other conflict (a
 * name unique on PostgreSQL but not on SQLite) stops the copy with the row's key.
 */
export async function copyTableRows(
  source: SourceArchive,
  target: Sql,
  copy: TableCopy,
  limits: BatchLimits = DEFAULT_BATCH_LIMITS,
): Promise<TableResult> {
  const result: TableResult = { table: copy.table, copied: 0, alreadyThere: 0 };
  const maxRows = Math.max(1, Math.min(limits.rows, Math.floor(MAX_PARAMETERS / copy.columns.length)));
  let batch: SqlValue[][] = [];
  let batchBytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const inserted = await insertBatch(target, copy, batch);
    result.copied += inserted;
    result.alreadyThere += batch.length - inserted;
    batch = [];
    batchBytes = 0;
  };
  for (const row of source.rows(copy.table, copy.columns)) {
    batch.push(row);
    batchBytes += row.reduce<number>((sum, value) => sum + sizeOf(value), 0);
    if (batch.length >= maxRows || batchBytes >= limits.bytes) await flush();
  }
  await flush();
  return result;
}

/** Moves each copied identity past the largest id now in the table, so new rows never take a copied id. */
export async function continueIdentities(target: Sql, copy: TableCopy): Promise<void> {
  for (const column of copy.identityColumns) {
    await target.get(
      `SELECT setval(pg_get_serial_sequence(?, ?), coalesce(max(${quoteIdentifier(column)}), 0) + 1, false)
       FROM ${quoteIdentifier(copy.table)}`,
      quoteIdentifier(copy.table),
      column,
    );
  }
}

async function insertBatch(target: Sql, copy: TableCopy, rows: SqlValue[][]): Promise<number> {
  const placeholders = `(${copy.columns.map(() => '?').join(', ')})`;
  const sql =
    `INSERT INTO ${quoteIdentifier(copy.table)} (${copy.columns.map(quoteIdentifier).join(', ')})` +
    (copy.overridesIdentity ? ' OVERRIDING SYSTEM VALUE' : '') +
    ` VALUES ${rows.map(() => placeholders).join(', ')}` +
    ` ON CONFLICT (${copy.primaryKey.map(quoteIdentifier).join(', ')}) DO NOTHING`;
  try {
    return (await target.run(sql, ...rows.flat())).changes;
  } catch (error) {
    const detail = (error as { detail?: unknown }).detail;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Copying ${copy.table} failed: ${message}${typeof detail === 'string' ? ` (${detail})` : ''}`, {
      cause: error,
    });
  }
}

function sizeOf(value: SqlValue): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  return 8;
}
