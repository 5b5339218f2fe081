/**
 * The organisation set-up of docs/deploy.md on this machine, for the server bench's PostgreSQL rows: a throwaway
 * PostgreSQL cluster tuned for the run, an s3rver bucket, service instances and workers as separate CLI processes
 * (`npm run server`, `npm run worker`), and the round-robin proxy in front of the instances.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../../server/gc-tuning.ts';
import { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from '../helpers/postgres.ts';
import { s3ServerForTests, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { serverNodeArgs } from './bench-utils.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * The cluster's settings for a benchmark of 1,000,000 documents on a 23 GB machine shared with other work. Durability
 * is on (fsync, full-page writes, synchronous commit: an upload's 202 waits for its commit, as in production), unlike
 * the test clusters. Memory as for a dedicated 8 GB database server: shared_buffers holds the hot indexes and the
 * full-text table, work_mem lets a sort of a page of results stay in memory, maintenance_work_mem builds the GIN index
 * of the seeding in memory. random_page_cost 1.1: the data sits on SSD-class storage (and in the page cache).
 */
export const BENCH_POSTGRES_SETTINGS = {
  fsync: 'on',
  full_page_writes: 'on',
  synchronous_commit: 'on',
  shared_buffers: '2GB',
  effective_cache_size: '6GB',
  work_mem: '32MB',
  maintenance_work_mem: '1GB',
  max_wal_size: '8GB',
  checkpoint_timeout: '30min',
  random_page_cost: '1.1',
  max_connections: 200,
  max_parallel_workers_per_gather: 2,
} as const;

export interface BenchPostgres {
  /** The archive database's URL (an empty database; the service creates the schema). */
  url: string;
  stop(): Promise<void>;
}

/**
 * A tuned cluster with a UTF-8 database `archive`: throwaway, or kept in `keptDir` (BENCH_PG_DIR) with whatever an
 * earlier run left in its database.
 */
export async function startBenchPostgres(keptDir?: string): Promise<BenchPostgres> {
  const binaries = findPostgresBinaries();
  if ('missing' in binaries) throw new Error(`--backend postgres needs PostgreSQL: ${binaries.missing}`);
  const cluster: PostgresCluster = await startPostgresCluster(binaries.binDir, BENCH_POSTGRES_SETTINGS, keptDir);
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'archive'`);
      if (exists.rowCount === 0) await admin.query('CREATE DATABASE archive');
    } finally {
      await admin.end();
    }
    const url = new URL(cluster.url);
    url.pathname = '/archive';
    return { url: url.toString(), stop: () => cluster.stop() };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** s3rver on loopback with one bucket, and the environment that points the service's S3 client at it. */
export async function startBenchS3(): Promise<{ server: S3TestServer; blobs: string; env: NodeJS.ProcessEnv }> {
  const found = s3ServerForTests();
  if (!found.bin) throw new Error(`--backend postgres needs s3rver: ${found.skipReason}`);
  const server = await startS3Server(found.bin, 'archive-bench');
  return {
    server,
    blobs: `s3://${server.bucket}/archive`,
    env: {
      AWS_ENDPOINT_URL_S3: server.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    },
  };
}

/** A service or worker process; its output goes to a log file (a request line each) that is read only to start. */
export class BenchProcess {
  readonly pid: number;
  private readonly child: ChildProcess;
  private readonly dir: string;

  private constructor(child: ChildProcess, dir: string) {
    this.child = child;
    this.pid = child.pid!;
    this.dir = dir;
  }

  /** Starts `server/cli/<cli>.ts` with `args(its own directory)`; resolves once its log matches `ready`. */
  static async start(
    cli: 'server' | 'worker',
    args: (dir: string) => readonly string[],
    env: NodeJS.ProcessEnv,
    ready: RegExp,
  ): Promise<{ process: BenchProcess; match: RegExpExecArray }> {
    const dir = await mkdtemp(join(tmpdir(), `archive-bench-${cli}-`));
    const logPath = join(dir, 'log');
    const log = openSync(logPath, 'w');
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, ...serverNodeArgs(), join(ROOT, 'server', 'cli', `${cli}.ts`), ...args(dir)],
      {
        stdio: ['ignore', log, log],
        env: { ...process.env, ...env },
      },
    );
    closeSync(log);
    const started = new BenchProcess(child, dir);
    const deadline = performance.now() + START_TIMEOUT_MS;
    for (;;) {
      const text = readFileSync(logPath, 'utf8');
      const match = ready.exec(text);
      if (match) return { process: started, match };
      if (child.exitCode !== null || performance.now() > deadline) {
        await started.stop();
        throw new Error(`${cli} did not start:\n${text.slice(-3000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The process's log so far (for an error message). */
  log(): string {
    return readFileSync(join(this.dir, 'log'), 'utf8');
  }

  /** SIGTERM (the CLI's clean shutdown), SIGKILL if it has not exited in time; then its directory is removed. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** `npm run server -- --workers 0 --port 0 --database … --blobs …`: an instance that serves HTTP and processes nothing. */
export async function startServiceInstance(
  database: string,
  blobs: string,
  env: NodeJS.ProcessEnv,
): Promise<{ process: BenchProcess; url: string }> {
  const { process: instance, match } = await BenchProcess.start(
    'server',
    (dir) => [
      '--data-dir',
      join(dir, 'data'),
      '--port',
      '0',
      '--workers',
      '0',
      '--database',
      database,
      '--blobs',
      blobs,
    ],
    env,
    /listening on (http:\/\/\S+)/,
  );
  return { process: instance, url: match[1]! };
}

/** `npm run worker -- --workers 1 --database … --blobs …`: one document analysed at a time, no HTTP. */
export async function startWorker(database: string, blobs: string, env: NodeJS.ProcessEnv): Promise<BenchProcess> {
  const { process: worker } = await BenchProcess.start(
    'worker',
    (dir) => ['--workers', '1', '--tmp-dir', join(dir, 'data'), '--database', database, '--blobs', blobs],
    env,
    /Archive worker processing/,
  );
  return worker;
}
