import { nowIso, type Sql } from '../sql.ts';

export interface PgMigration {
  /** Says what the step does; recorded beside its version. */
  name: string;
  up(tx: Sql): Promise<void>;
}

/** Any fixed number: every instance of the service takes the same lock. */
export const MIGRATION_LOCK = 7_474_015;

/**
 * Brings the database to the end of the migration list. Each step runs in its own transaction under a transaction-level
 * advisory lock and re-reads the applied versions there, so instances that start at once migrate exactly once: the
 * others wait, then find the step done.
 */
export async function runPgMigrations(sql: Sql, migrations: readonly PgMigration[]): Promise<void> {
  for (const [index, migration] of migrations.entries()) {
    const version = index + 1;
    await sql.transaction(async (tx) => {
      await tx.exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL
      )`);
      const latest = await tx.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
      if (latest?.version && latest.version > migrations.length) {
        throw new Error(
          `The archive database is at schema version ${latest.version}, newer than this service knows ` +
            `(${migrations.length}): run the newer service, or restore a backup made before the upgrade`,
        );
      }
      if (await tx.get('SELECT 1 FROM schema_migrations WHERE version = ?', version)) return;
      await migration.up(tx);
      await tx.run(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        version,
        migration.name,
        nowIso(),
      );
    });
  }
}
