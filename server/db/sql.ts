/**
 * The archive's metadata store as the service sees it: SQL with `?` placeholders, awaited, over either back end.
 * Route handlers, events, the pipeline and the CLI write portable SQL (the subset SQLite ≥ 3.45 and PostgreSQL ≥ 15
 * share: `ON CONFLICT … DO NOTHING/UPDATE`, `RETURNING`, `IS NOT DISTINCT FROM`, `coalesce`, `CASE`, integer 0/1 for
 * booleans, ISO-8601 text for times, `rowid` as a real column on PostgreSQL). What cannot be portable (full-text
 * search, job claiming, rate counters) lives behind interfaces of its own with one implementation per back end.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A row as the driver returns it; callers state the shape they selected. */
export type SqlRow = Record<string, unknown>;

export type SqlDialect = 'sqlite' | 'postgres';

/**
 * How a commit reaches the disk. 'full': durable before the promise resolves; use it for every write a client is told
 * about (an upload's 202, an edit's 200). 'deferred': may be lost to a power cut (never corrupting anything, never
 * reordered before a later full commit); for the pipeline's bookkeeping, which the job queue redoes if it is lost.
 */
export type Durability = 'full' | 'deferred';

export interface Sql {
  readonly dialect: SqlDialect;
  all<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  get<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
  /** Runs one statement; `changes` counts the rows it inserted, updated or deleted. */
  run(sql: string, ...params: SqlValue[]): Promise<{ changes: number }>;
  /** Runs a script of statements without parameters (schema changes). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn in one transaction on one connection; everything fn does through `tx` commits or rolls back together.
   * Statements issued meanwhile through the outer handle wait for it (SQLite) or run on other connections (PostgreSQL).
   * A transaction started inside fn through `tx` joins the outer one.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, durability?: Durability): Promise<T>;
  close(): Promise<void>;
}

export const nowIso = (): string => new Date().toISOString();
