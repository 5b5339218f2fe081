import { afterAll, beforeAll } from 'vitest';
import { openPostgres } from '../../server/db/postgres/pg-schema.ts';
import type { PgSql } from '../../server/db/postgres/pg-sql.ts';
import { freshDatabase, type TestDatabase } from './postgres.ts';

export interface ArchiveDatabase {
  /** The database's URL (for what opens connections of its own: a listener, a CLI). */
  readonly url: string;
  /** One pool per instance of the service sharing the database. */
  readonly pools: readonly PgSql[];
  /** The first pool. */
  readonly sql: PgSql;
}

/**
 * Inside a describe: a fresh PostgreSQL database migrated to the archive's schema before its tests, reached through
 * `pools` connection pools (as that many service instances would), closed and dropped after them.
 */
export function useArchiveDatabase(pools = 1): ArchiveDatabase {
  let database: TestDatabase | undefined;
  const opened: PgSql[] = [];
  beforeAll(async () => {
    database = await freshDatabase();
    for (let i = 0; i < pools; i++) opened.push(await openPostgres(database.url));
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((sql) => sql.close()));
    await database?.drop();
  });
  return {
    get url() {
      if (!database) throw new Error('The archive database is made in beforeAll: use it inside a test or hook');
      return database.url;
    },
    pools: opened,
    get sql() {
      const first = opened[0];
      if (!first) throw new Error('The archive database is made in beforeAll: use it inside a test or hook');
      return first;
    },
  };
}
