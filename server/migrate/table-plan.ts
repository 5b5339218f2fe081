import type { SourceTable } from './source-archive.ts';
import type { TargetTable } from './target-catalog.ts';

/** How one table's rows move: which columns, conflict key, identities to honour and to move past the copied ids. */
export interface TableCopy {
  table: string;
  /** Read from SQLite and written to PostgreSQL under the same names (`rowid`: SQLite's implicit one). */
  columns: string[];
  primaryKey: string[];
  /** A copied column is an identity GENERATED ALWAYS (documents.rowid): the insert must override it. */
  overridesIdentity: boolean;
  /** Copied identity columns whose sequences must continue past the largest copied value. */
  identityColumns: string[];
}

export interface TablePlan {
  /** Parents before children (foreign-key order), so every row's references exist when it arrives. */
  copies: TableCopy[];
  /** SQLite tables not copied, each with why. */
  leftBehind: Array<{ table: string; reason: string }>;
}

/**
 * SQLite tables that have no rows of their own to move. Anything else in the source must have a PostgreSQL twin:
 * a future table without one stops the migration instead of being silently left behind.
 */
export const LEFT_BEHIND: Readonly<Record<string, string>> = {
  search_visibility: 'derived: PostgreSQL triggers fill it from documents as their rows arrive',
};

export class TablePlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TablePlanError';
  }
}

/** Matches the source's tables to the target's and orders them; throws if a table or column has nowhere to go. */
export function planTables(source: readonly SourceTable[], target: ReadonlyMap<string, TargetTable>): TablePlan {
  const leftBehind: TablePlan['leftBehind'] = [];
  const copies = new Map<string, TableCopy>();
  const problems: string[] = [];
  for (const table of source) {
    const reason = leaveBehindReason(table, source);
    if (reason) {
      leftBehind.push({ table: table.name, reason });
      continue;
    }
    const twin = target.get(table.name);
    if (!twin) {
      problems.push(`table ${table.name} has no PostgreSQL twin and no reason to be left behind`);
      continue;
    }
    const copy = planCopy(table, twin, problems);
    if (copy) copies.set(table.name, copy);
  }
  if (problems.length > 0) {
    throw new TablePlanError(`Cannot copy this archive to PostgreSQL: ${problems.join('; ')}`);
  }
  return { copies: inForeignKeyOrder(copies, target), leftBehind };
}

function leaveBehindReason(table: SourceTable, source: readonly SourceTable[]): string | undefined {
  if (LEFT_BEHIND[table.name]) return LEFT_BEHIND[table.name];
  if (table.name.startsWith('sqlite_')) {
    return "SQLite's own bookkeeping (AUTOINCREMENT counters, statistics): PostgreSQL identities continue past the copied ids";
  }
  const owner = source.find((other) => other.virtual && table.name.startsWith(`${other.name}_`));
  if (owner) return `the storage of the virtual table ${owner.name}, whose rows are copied through its columns`;
  return undefined;
}

function planCopy(table: SourceTable, twin: TargetTable, problems: string[]): TableCopy | undefined {
  const targetColumns = new Map(twin.columns.map((column) => [column.name, column]));
  const missing = table.columns.filter((column) => !targetColumns.has(column));
  if (missing.length > 0) {
    problems.push(`columns ${missing.join(', ')} of ${table.name} have no PostgreSQL twin`);
    return undefined;
  }
  if (twin.primaryKey.length === 0) {
    problems.push(`${table.name} has no primary key on PostgreSQL, so a second run could not tell copied rows`);
    return undefined;
  }
  // PostgreSQL's real column for SQLite's implicit rowid (documents, documents_fts), which other rows refer to.
  const columns = [...table.columns];
  if (table.hasRowid && targetColumns.has('rowid')) columns.push('rowid');
  const written = columns.filter((column) => !targetColumns.get(column)!.generated);
  const identities = written.filter((column) => targetColumns.get(column)!.identity !== null);
  return {
    table: table.name,
    columns: written,
    primaryKey: twin.primaryKey,
    overridesIdentity: identities.some((column) => targetColumns.get(column)!.identity === 'always'),
    identityColumns: identities,
  };
}

/** Parents first; among tables free to go, by name, so the order is the same on every run. */
function inForeignKeyOrder(copies: Map<string, TableCopy>, target: ReadonlyMap<string, TargetTable>): TableCopy[] {
  const waitingFor = new Map(
    [...copies.keys()].map((name) => [name, new Set(target.get(name)!.references.filter((p) => copies.has(p)))]),
  );
  const ordered: TableCopy[] = [];
  while (waitingFor.size > 0) {
    const ready = [...waitingFor].filter(([, parents]) => parents.size === 0).map(([name]) => name);
    if (ready.length === 0) {
      throw new TablePlanError(`The foreign keys of ${[...waitingFor.keys()].join(', ')} form a cycle`);
    }
    const next = ready.sort()[0]!;
    ordered.push(copies.get(next)!);
    waitingFor.delete(next);
    for (const parents of waitingFor.values()) parents.delete(next);
  }
  return ordered;
}
