import {
  findPostgresBinaries,
  POSTGRES_UNAVAILABLE_ENV,
  POSTGRES_URL_ENV,
  startPostgresCluster,
} from './helpers/postgres.ts';

/**
 * Vitest global setup: one throwaway PostgreSQL cluster per run, its URL handed to the test files (forked after this
 * runs) through the environment. A URL already set is used as it is. Without the server binaries the PostgreSQL tests
 * skip with the reason printed here, except in CI, where the run fails.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[POSTGRES_URL_ENV]) return undefined;
  const binaries = findPostgresBinaries();
  if ('missing' in binaries) {
    if (process.env.CI === 'true') throw new Error(`CI needs PostgreSQL: ${binaries.missing}`);
    console.log(`PostgreSQL tests skipped: ${binaries.missing}`);
    process.env[POSTGRES_UNAVAILABLE_ENV] = binaries.missing;
    return undefined;
  }
  const cluster = await startPostgresCluster(binaries.binDir);
  process.env[POSTGRES_URL_ENV] = cluster.url;
  return () => cluster.stop();
}
