import pg from 'pg';
import type { Durability, Sql, SqlRow, SqlValue } from '../sql.ts';
import { describeConnectionError, parsePostgresUrl, type PostgresTarget } from './pg-connection.ts';
import { toNumberedPlaceholders } from './placeholders.ts';
import { PG_TYPE_PARSERS } from './pg-types.ts';

export interface PgSqlOptions {
  /** Connections this process keeps at most (each instance of the service has its own pool). */
  maxConnections?: number;
  connectTimeoutMs?: number;
}

/** What runs a statement: the pool (any free connection) or the one connection of a transaction. */
interface Queryable {
  query(config: pg.QueryConfig<unknown[]>): Promise<pg.QueryResult<SqlRow>>;
}

/** The Sql interface over a pool of PostgreSQL connections (the `pg` package). */
export class PgSql implements Sql {
  readonly dialect = 'postgres';
  readonly target: PostgresTarget;
  /** Whether pgvector is installed in this database (openPostgres detects it); embeddings are bytea either way. */
  pgvector = false;
  private readonly pool: pg.Pool;
  private closed: Promise<void> | null = null;

  constructor(url: string, options: PgSqlOptions = {}) {
    this.target = parsePostgresUrl(url);
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: 'archive-service',
      types: PG_TYPE_PARSERS,
    });
    // An idle connection the server drops (restart, failover) is removed from the pool; the next statement gets a new
    // one and reports its own error. Without a listener the process would exit.
    this.pool.on('error', () => {});
  }

  all<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.withConnection(async (client) => (await runStatement(client, sql, params)).rows as T[]);
  }

  async get<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await this.all<T>(sql, ...params))[0];
  }

  run(sql: string, ...params: SqlValue[]): Promise<{ changes: number }> {
    return this.withConnection(async (client) => ({
      changes: (await runStatement(client, sql, params)).rowCount ?? 0,
    }));
  }

  async exec(sql: string): Promise<void> {
    await this.withConnection((client) => client.query(sql));
  }

  /**
   * BEGIN … COMMIT on one pooled connection; 'deferred' commits without waiting for the WAL flush. A transaction
   * PostgreSQL ends as a deadlock victim (two writers locking the same rows in opposite orders, as a PATCH and the
   * processor's results can) runs again from the start: SQLite's single writer never meets that case, so callers do not
   * expect it. fn must therefore do nothing outside the transaction that cannot be done twice.
   */
  async transaction<T>(fn: (tx: Sql) => Promise<T>, durability: Durability = 'full'): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(fn, durability);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
        // A random pause lets the survivor commit before the victim takes its first lock again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * RETRY_PAUSE_MS * attempt));
      }
    }
  }

  private transactionOnce<T>(fn: (tx: Sql) => Promise<T>, durability: Durability): Promise<T> {
    return this.withConnection(async (client) => {
      await client.query('BEGIN');
      const tx = new PgTransaction(client, durability);
      try {
        if (durability === 'deferred') await client.query('SET LOCAL synchronous_commit = off');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A failed ROLLBACK means the connection is gone, and with it the transaction: the first error is the news.
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        tx.end();
      }
    });
  }

  close(): Promise<void> {
    this.closed ??= this.pool.end();
    return this.closed;
  }

  private async withConnection<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`PostgreSQL connection to ${this.target.description} is closed`);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw describeConnectionError(error, this.target);
    }
    let broken: Error | undefined;
    try {
      return await fn(client);
    } catch (error) {
      // A connection that died mid-statement must not go back to the pool.
      if (isConnectionLoss(error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** The handle a transaction's fn gets: every statement on the transaction's connection. */
class PgTransaction implements Sql {
  readonly dialect = 'postgres';
  private ended = false;
  private readonly client: pg.PoolClient;
  private durability: Durability;

  constructor(client: pg.PoolClient, durability: Durability) {
    this.client = client;
    this.durability = durability;
  }

  async all<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return (await this.statement(sql, params)).rows as T[];
  }

  async get<T extends object = SqlRow>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await this.all<T>(sql, ...params))[0];
  }

  async run(sql: string, ...params: SqlValue[]): Promise<{ changes: number }> {
    return { changes: (await this.statement(sql, params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    this.checkOpen();
    await this.client.query(sql);
  }

  /** Joins the open transaction. A 'full' request inside a 'deferred' one makes the whole commit full. */
  async transaction<T>(fn: (tx: Sql) => Promise<T>, durability: Durability = 'full'): Promise<T> {
    this.checkOpen();
    if (durability === 'full' && this.durability === 'deferred') {
      await this.client.query('SET LOCAL synchronous_commit = on');
      this.durability = 'full';
    }
    return fn(this);
  }

  close(): Promise<void> {
    return Promise.reject(new Error('A transaction handle cannot close the database; close the PgSql it came from'));
  }

  end(): void {
    this.ended = true;
  }

  private async statement(sql: string, params: SqlValue[]): Promise<pg.QueryResult<SqlRow>> {
    this.checkOpen();
    return runStatement(this.client, sql, params);
  }

  private checkOpen(): void {
    // The connection is back in the pool, perhaps inside someone else's transaction by now.
    if (this.ended) throw new Error('This transaction has ended; its handle cannot run statements any more');
  }
}

async function runStatement(client: Queryable, sql: string, params: SqlValue[]): Promise<pg.QueryResult<SqlRow>> {
  const { text, parameterCount } = toNumberedPlaceholders(sql);
  if (parameterCount !== params.length) {
    throw new Error(`SQL has ${parameterCount} placeholders but ${params.length} parameters were given: ${sql}`);
  }
  return client.query({ text, values: params });
}

/** Errors after which the connection cannot be trusted (socket gone, server shut down), unlike an SQL error. */
/** How often a transaction is tried when PostgreSQL ends it as a deadlock victim or a serialization failure. */
const TRANSACTION_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 50;

/** deadlock_detected and serialization_failure: the transaction was rolled back, and may simply run again. */
function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error instanceof Error && /Connection terminated/i.test(error.message);
  return code.startsWith('08') || code.startsWith('57P') || /^E[A-Z]+$/.test(code);
}
