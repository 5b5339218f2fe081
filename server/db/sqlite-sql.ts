import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { Durability, Sql, SqlValue } from './sql.ts';

/** Distinct SQL strings kept compiled; the service has a few hundred, dynamic IN lists add some. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The archive's SQL over one node:sqlite connection. A statement runs at once (node:sqlite is synchronous); a
 * transaction holds the connection until fn's promise settles, so statements and transactions issued meanwhile
 * through this handle wait their turn (in order) instead of landing inside it. Inside fn, `tx` runs at once.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  /** For SQLite-specific modules only (migrations, FTS5 search, the vector cache); general code uses the methods. */
  readonly raw: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly lock = new ConnectionLock();
  /** The connection whose transaction the current async context is inside, to catch statements that would wait for it. */
  private static readonly inside = new AsyncLocalStorage<SqliteSql>();

  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }

  all<T extends object>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.whenFree(() => this.statement(sql).all(...params) as T[]);
  }

  get<T extends object>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.whenFree(() => this.statement(sql).get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): Promise<{ changes: number }> {
    return this.whenFree(() => ({ changes: Number(this.statement(sql).run(...params).changes) }));
  }

  exec(sql: string): Promise<void> {
    return this.whenFree(() => this.raw.exec(sql));
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>, durability: Durability = 'full'): Promise<T> {
    if (!this.lock.free) this.refuseInsideOwnTransaction();
    await this.lock.acquire();
    try {
      return await SqliteSql.inside.run(this, () => this.runTransaction(fn, durability));
    } finally {
      this.lock.release();
    }
  }

  close(): Promise<void> {
    this.statements.clear();
    this.raw.close();
    return Promise.resolve();
  }

  /** Runs step on the connection when no transaction holds it (SQLite-specific modules: FTS5 search). */
  withConnection<T>(step: (raw: DatabaseSync) => T): Promise<T> {
    return this.whenFree(() => step(this.raw));
  }

  /** The compiled statement for sql, prepared on first use. */
  statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      // Oldest first: constant statements are compiled early and used again at once, so they come back cheaply.
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, (statement = this.raw.prepare(sql)));
    }
    return statement;
  }

  /** Runs a synchronous step now when no transaction holds the connection, else after the ones waiting before it. */
  private whenFree<T>(step: () => T): Promise<T> {
    if (this.lock.free) {
      try {
        return Promise.resolve(step());
      } catch (error) {
        return Promise.reject(error as Error);
      }
    }
    try {
      this.refuseInsideOwnTransaction();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.lock.acquire().then(() => {
      try {
        return step();
      } finally {
        this.lock.release();
      }
    });
  }

  /**
   * A statement through the outer handle from inside a transaction's fn would wait for that transaction to end, which
   * waits for the statement: a deadlock, reported instead. (fn must use its tx.)
   */
  private refuseInsideOwnTransaction(): void {
    if (SqliteSql.inside.getStore() === this)
      throw new Error('A statement through the outer handle inside its own transaction would wait forever: use tx');
  }

  /** BEGIN IMMEDIATE … COMMIT so concurrent writers (server, CLI) queue instead of failing mid-way. */
  private async runTransaction<T>(fn: (tx: Sql) => Promise<T>, durability: Durability): Promise<T> {
    // The level is per connection and cannot change inside a transaction; it is set for this one and put back.
    if (durability === 'deferred') this.raw.exec('PRAGMA synchronous = NORMAL');
    const tx = new SqliteTransaction(this);
    try {
      this.raw.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(tx);
        this.raw.exec('COMMIT');
        return result;
      } catch (error) {
        // SQLite may have rolled back itself (disk full): a second ROLLBACK would hide the real error.
        if (this.raw.isTransaction) this.raw.exec('ROLLBACK');
        throw error;
      }
    } finally {
      tx.end();
      if (durability === 'deferred') this.raw.exec('PRAGMA synchronous = FULL');
    }
  }
}

/** The handle a transaction's fn works through: runs at once on the held connection; a nested transaction joins. */
class SqliteTransaction implements Sql {
  readonly dialect = 'sqlite' as const;
  private readonly owner: SqliteSql;
  private ended = false;

  constructor(owner: SqliteSql) {
    this.owner = owner;
  }

  all<T extends object>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.now(() => this.owner.statement(sql).all(...params) as T[]);
  }

  get<T extends object>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.now(() => this.owner.statement(sql).get(...params) as T | undefined);
  }

  run(sql: string, ...params: SqlValue[]): Promise<{ changes: number }> {
    return this.now(() => ({ changes: Number(this.owner.statement(sql).run(...params).changes) }));
  }

  exec(sql: string): Promise<void> {
    return this.now(() => this.owner.raw.exec(sql));
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.ended) return Promise.reject(new Error('This transaction has already ended'));
    return fn(this);
  }

  close(): Promise<void> {
    return Promise.reject(new Error('A transaction handle cannot close the connection'));
  }

  /** Runs step at once on the transaction's connection (SQLite-specific modules: FTS5 search). */
  withConnection<T>(step: (raw: DatabaseSync) => T): Promise<T> {
    return this.now(() => step(this.owner.raw));
  }

  end(): void {
    this.ended = true;
  }

  private now<T>(step: () => T): Promise<T> {
    // A statement through a finished transaction's handle would run outside it, unnoticed: a bug to report.
    if (this.ended) return Promise.reject(new Error('This transaction has already ended'));
    try {
      return Promise.resolve(step());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}

/**
 * Runs step on the SQLite connection behind db, in turn with its other statements: for the modules that need SQLite's
 * own API (FTS5 helpers with temp tables of the connection). Fails for another back end.
 */
export function withSqliteConnection<T>(db: Sql, step: (raw: DatabaseSync) => T): Promise<T> {
  if (db instanceof SqliteSql || db instanceof SqliteTransaction) return db.withConnection(step);
  return Promise.reject(new Error(`A SQLite connection is needed here, not ${db.dialect}`));
}

/** A FIFO mutex: the connection passes from one holder straight to the next waiter. */
class ConnectionLock {
  private held = false;
  private readonly waiters: Array<() => void> = [];

  get free(): boolean {
    return !this.held;
  }

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}
