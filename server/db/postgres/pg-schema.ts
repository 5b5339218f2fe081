import { randomUUID } from 'node:crypto';
import { nowIso, type Sql } from '../sql.ts';
import {
  DOCUMENT_COUNTS_BACKFILL_SQL,
  DOCUMENT_COUNTS_BY_MONTH_SQL,
  DOCUMENT_COUNTS_SQL,
} from './pg-document-counts.ts';
import { MIGRATION_LOCK, runPgMigrations, type PgMigration } from './pg-migrate.ts';
import { PgSql, type PgSqlOptions } from './pg-sql.ts';
import {
  ARCHIVE_TABLES_SQL,
  HIDDEN_DOCUMENTS_SQL,
  LIVE_DOCUMENT_ORDER_SQL,
  SEARCH_VISIBILITY_SQL,
  SHARED_STATE_SQL,
} from './pg-tables.ts';
import { SEARCH_VECTOR_INLINE_SQL, TEXT_SEARCH_SQL } from './pg-text-search.ts';
import { TITLE_KEY_PREREQUISITES_SQL, TITLE_KEY_SQL } from './pg-title-key.ts';

/**
 * The PostgreSQL schema's migrations: ordered, append-only, each run once (server/db/postgres/pg-migrate.ts). The first
 * is the SQLite schema at its latest migration (server/db/migrations.ts) in one step; a later SQLite migration gets its
 * twin appended here (test/server/postgres/schema-parity.test.ts fails until it has one).
 */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    name: 'archive schema (SQLite migrations 1–10)',
    up: async (tx) => {
      await tx.exec(TITLE_KEY_PREREQUISITES_SQL);
      await tx.exec(ARCHIVE_TABLES_SQL);
      await tx.exec(SEARCH_VISIBILITY_SQL);
      await tx.exec(TITLE_KEY_SQL);
      await tx.exec(TEXT_SEARCH_SQL);
      await tx.run(
        'INSERT INTO spaces (id, name, is_default, created_at) VALUES (?, ?, 1, ?)',
        randomUUID(),
        'Default',
        nowIso(),
      );
    },
  },
  {
    name: 'state shared by service instances: rate-limit windows, job leases',
    up: async (tx) => {
      await tx.exec(SHARED_STATE_SQL);
    },
  },
  {
    name: 'list orders of the live documents as indexes PostgreSQL can use',
    up: async (tx) => {
      await tx.exec(LIVE_DOCUMENT_ORDER_SQL);
    },
  },
  {
    name: 'document counts per space, status and deletion, kept by triggers (the list total)',
    up: async (tx) => {
      await tx.exec(DOCUMENT_COUNTS_SQL);
      await tx.exec(DOCUMENT_COUNTS_BACKFILL_SQL);
    },
  },
  {
    name: 'search vectors stored in their rows, not out of line',
    up: async (tx) => {
      await tx.exec(SEARCH_VECTOR_INLINE_SQL);
    },
  },
  {
    name: 'the hidden (deleted) documents indexed apart, for searches by keys that see every space',
    up: async (tx) => {
      await tx.exec(HIDDEN_DOCUMENTS_SQL);
    },
  },
  {
    name: 'document counts also per month of creation, so a deep offset of the default order starts at its month',
    up: async (tx) => {
      await tx.exec(DOCUMENT_COUNTS_BY_MONTH_SQL);
    },
  },
];

/** Connects to the archive database at url and brings its schema up to date. */
export async function openPostgres(url: string, options: PgSqlOptions = {}): Promise<PgSql> {
  const sql = new PgSql(url, options);
  try {
    await runPgMigrations(sql, PG_MIGRATIONS);
    sql.pgvector = await usePgvectorIfPresent(sql);
    return sql;
  } catch (error) {
    await sql.close();
    throw error;
  }
}

/**
 * pgvector is optional: used when the server has it (installed here, or installable by this role); otherwise
 * embeddings are ranked in the service from their bytea vectors, as on SQLite.
 */
async function usePgvectorIfPresent(sql: Sql): Promise<boolean> {
  const row = await sql.get<{ available: number; installed: number }>(
    `SELECT count(*) AS available, count(installed_version) AS installed
     FROM pg_available_extensions WHERE name = 'vector'`,
  );
  if (!row?.available) return false;
  if (row.installed) return true;
  try {
    // Under the migrations' lock: instances starting at once would otherwise race to create it.
    await sql.transaction(async (tx) => {
      await tx.exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.exec('CREATE EXTENSION IF NOT EXISTS vector');
    });
    return true;
  } catch {
    return false; // a role that may not create extensions: the bytea path, which needs nothing
  }
}
