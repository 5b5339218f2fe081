import { availableParallelism } from 'node:os';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { findPostgresBinaries, POSTGRES_URL_ENV } from './test/helpers/postgres.ts';
import { s3ServerForTests } from './test/helpers/s3-server.ts';

/**
 * The service's tests run a second time on PostgreSQL + S3 (the harness reads ARCHIVE_TEST_BACKEND), except files
 * that are about one back end by nature.
 */
const SINGLE_BACKEND_SERVER_TESTS = [
  // SqliteSql itself.
  'test/server/sqlite-sql.test.ts',
  // SQLite's migrations, replayed on SQLite files (PostgreSQL's are test/server/postgres/schema.test.ts).
  'test/server/migrations.test.ts',
  'test/server/possible-duplicates-migration.test.ts',
  // From SQLite to PostgreSQL + blob stores: both back ends in every test already.
  'test/server/migrate.test.ts',
  // One behavioural suite run against both blob stores already.
  'test/server/blob-storage.test.ts',
  // Rules on an emitter: no back end at all.
  'test/server/process-guard.test.ts',
  // The archive CLI administering a data directory's SQLite archive beside a running service.
  'test/server/cli.test.ts',
  // PostgreSQL by nature: they start their own instances on it.
  'test/server/job-leases.test.ts',
  'test/server/multi-instance.test.ts',
];

/** The PostgreSQL project runs where its servers are, and always in CI (where their absence fails the run). */
const postgresBackendAvailable =
  process.env.CI === 'true' ||
  ((Boolean(process.env[POSTGRES_URL_ENV]) || !('missing' in findPostgresBinaries())) &&
    s3ServerForTests().bin !== undefined);
if (!postgresBackendAvailable) console.log('Service tests on PostgreSQL + S3 skipped: no PostgreSQL or s3rver here');

export default defineConfig({
  // Compiles the renderer's rune modules (*.svelte.ts: stores such as LibraryStore) for their unit tests; other
  // files pass through untouched.
  plugins: [svelte()],
  test: {
    globalSetup: ['test/global-setup.ts', 'test/postgres-setup.ts', 'test/s3-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine. Most files wait on servers, browsers
    // and child processes rather than compute, so two at a time halved the suite there (about 1,000 s to 600 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(postgresBackendAvailable
        ? [
            {
              extends: true,
              test: {
                name: 'postgres',
                include: ['test/server/*.test.ts'],
                exclude: SINGLE_BACKEND_SERVER_TESTS,
                env: { ARCHIVE_TEST_BACKEND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
