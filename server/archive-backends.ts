import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from './db/database.ts';
import { PgRateCounters } from './db/postgres/pg-rate-counters.ts';
import { openPostgres } from './db/postgres/pg-schema.ts';
import type { PgSql } from './db/postgres/pg-sql.ts';
import type { Sql } from './db/sql.ts';
import { InMemoryRateCounters, type RateCounters } from './http/rate-limiter.ts';
import { claimOldestQueued, type JobClaimer, type JobLease, type JobSignals } from './pipeline/job-queue.ts';
import { leasedJobClaimer } from './db/postgres/pg-job-claimer.ts';
import { pgJobSignals } from './db/postgres/pg-job-signals.ts';
import { registerFullTextIndex } from './search/full-text-index.ts';
import { pgFullTextIndex } from './search/pg-full-text-index.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import { BlobStore } from './storage/blob-store.ts';
import { parseS3Config, type S3Options } from './storage/s3-config.ts';
import { S3BlobStore } from './storage/s3-blob-store.ts';

/**
 * Where an archive keeps its rows and its files. The defaults are the desktop's and a small office's: SQLite and a
 * file tree in the data directory. An organisation points several instances at one PostgreSQL database and one
 * S3-compatible bucket (docs/deploy.md); the route handlers cannot tell which back ends run.
 */
export interface BackendOptions {
  /** This instance's own directory: the SQLite archive and file tree by default, else only its temp files. */
  dataDir: string;
  /** `postgres://…` (or `postgresql://…`): the metadata store; SQLite in dataDir when absent. */
  database?: string;
  /** `s3://bucket/prefix`, or a directory for the file store; dataDir when absent. */
  blobs?: string;
  /** S3 endpoint, region, credentials, path style (the standard AWS environment fills in the rest). */
  s3?: S3Options;
  /** How long a claimed job stays this instance's without a renewal (PostgreSQL only); DEFAULT_JOB_LEASE_MS if absent. */
  jobLeaseMs?: number;
  now?: () => number;
}

export interface ArchiveBackends {
  db: Sql;
  blobs: BlobStorage;
  rateCounters: RateCounters;
  claimJob: JobClaimer;
  /** Where other instances share the queue (PostgreSQL): jobs are leased, not reclaimed at start-up. */
  jobLease: JobLease | null;
  /** Where other processes queue jobs too (PostgreSQL): queued jobs are announced to every worker. */
  jobSignals: JobSignals | null;
}

/** How long a claimed job stays this instance's without a renewal; a worker that dies loses it after this. */
export const DEFAULT_JOB_LEASE_MS = 60_000;
/** The shortest lease accepted: renewals go out every third of it, and a round trip to the database must fit. */
export const MIN_JOB_LEASE_SECONDS = 1;

/**
 * The job lease of `--job-lease-seconds` (a flag's value), else ARCHIVE_JOB_LEASE_SECONDS, in ms; undefined when
 * neither is set. A value that is not a number of seconds of at least MIN_JOB_LEASE_SECONDS is refused.
 */
export function jobLeaseMsFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const [value, source] =
    flag !== undefined ? [flag, '--job-lease-seconds'] : [env.ARCHIVE_JOB_LEASE_SECONDS, 'ARCHIVE_JOB_LEASE_SECONDS'];
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || seconds < MIN_JOB_LEASE_SECONDS)
    throw new Error(
      `${source} must be a number of seconds, at least ${MIN_JOB_LEASE_SECONDS}; got ${JSON.stringify(value)}`,
    );
  return Math.round(seconds * 1000);
}

/** The database and blob settings of the environment (ARCHIVE_DATABASE_URL, ARCHIVE_BLOB_URL). */
export function backendsFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<BackendOptions, 'database' | 'blobs'> {
  return {
    ...(env.ARCHIVE_DATABASE_URL ? { database: env.ARCHIVE_DATABASE_URL } : {}),
    ...(env.ARCHIVE_BLOB_URL ? { blobs: env.ARCHIVE_BLOB_URL } : {}),
  };
}

/** Opens (and migrates) the PostgreSQL database a `--database` URL names; any other URL is refused, saying why. */
export function openMetadataStore(url: string): Promise<PgSql> {
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    throw new Error(
      `Unsupported database URL ${JSON.stringify(redactUrl(url))}: use postgres://user@host:port/database, ` +
        'or leave it out for SQLite in the data directory',
    );
  }
  return openPostgres(url);
}

/** Opens (and migrates) the metadata store and prepares the blob store; on failure nothing stays open. */
export async function openBackends(options: BackendOptions): Promise<ArchiveBackends> {
  const now = options.now ?? Date.now;
  // Who this instance is in job leases: host, process and a random part (a pid can come again after a restart).
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.jobLeaseMs ?? DEFAULT_JOB_LEASE_MS;
  const blobs = blobStorageFor(options);
  await blobs.init();
  try {
    if (options.database !== undefined) {
      registerFullTextIndex('postgres', pgFullTextIndex);
      const db = await openMetadataStore(options.database);
      return {
        db,
        blobs,
        rateCounters: new PgRateCounters(db, now),
        claimJob: leasedJobClaimer(instanceId, leaseMs, now),
        jobLease: { owner: instanceId, ms: leaseMs, now },
        jobSignals: pgJobSignals(options.database),
      };
    }
    const db = await openDatabase(join(options.dataDir, 'archive.sqlite'));
    return {
      db,
      blobs,
      rateCounters: new InMemoryRateCounters(now),
      claimJob: claimOldestQueued,
      jobLease: null,
      jobSignals: null,
    };
  } catch (error) {
    await blobs.close();
    throw error;
  }
}

function blobStorageFor(options: BackendOptions): BlobStorage {
  if (options.blobs === undefined) return new BlobStore(options.dataDir);
  // Private to this instance: the store's init() empties it.
  return blobStorageAt(options.blobs, join(options.dataDir, 'tmp'), { s3: options.s3, now: options.now });
}

/**
 * The blob store a URL names: `s3://bucket/prefix` (staging uploads in `tmpDir`; endpoint, region and credentials
 * from `options.s3` over the standard AWS variables), or a directory (a path or `file://` URL), which holds a data
 * directory's `files/` and `tmp/`. Not initialised yet.
 */
export function blobStorageAt(
  url: string,
  tmpDir: string,
  options: { s3?: S3Options; env?: NodeJS.ProcessEnv; now?: () => number } = {},
): BlobStorage {
  if (/^s3:\/\//i.test(url)) {
    const config = parseS3Config(url, options.s3, options.env ?? process.env);
    return new S3BlobStore({ config, tmpDir, now: options.now });
  }
  if (/^file:/i.test(url)) return new BlobStore(fileURLToPath(url));
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^[a-z]:[\\/]/i.test(url)) {
    throw new Error(
      `Unsupported blob store URL ${JSON.stringify(redactUrl(url))}: use s3://bucket/prefix or a directory`,
    );
  }
  return new BlobStore(isAbsolute(url) ? url : resolve(url));
}

/** A URL for messages: its password is never shown. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
  }
}
