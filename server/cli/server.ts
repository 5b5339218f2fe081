import { parseArgs } from 'node:util';
import { onStopSignals, runLongRunning } from './long-running.ts';
import { backendsFromEnv, jobLeaseMsFrom, redactUrl } from '../archive-backends.ts';
import { startArchiveService } from '../archive-service.ts';
import { installProcessGuard } from '../../shared/process-guard.ts';
import { DEFAULT_HOST, DEFAULT_PORT, defaultDataDir } from '../config.ts';

const HELP = `Usage: npm run server -- [options]

Starts the Document Archive Service (v1).

Options:
  --data-dir DIR   where the archive lives (default: ${defaultDataDir()}; env ARCHIVE_DATA_DIR)
  --host HOST      address to listen on (default: ${DEFAULT_HOST}; use 0.0.0.0 for a small office server)
  --port N         port (default: ${DEFAULT_PORT}; 0 picks a free one)
  --workers N      documents analysed at a time, each in a process of its own (default: cores - 1; 0: none here,
                   left to \`npm run worker\` processes)
  --database URL   postgres://user:password@host:port/database: keep the archive's rows in PostgreSQL, shared by
                   every instance (env ARCHIVE_DATABASE_URL; default: SQLite in the data directory)
  --blobs URL      s3://bucket/prefix: keep files in an S3-compatible bucket (env ARCHIVE_BLOB_URL; endpoint, region
                   and credentials from AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY);
                   or a directory (default: the data directory)
  --job-lease-seconds N
                   with --database: how long a processing job claimed here stays this instance's without a renewal
                   (renewed every third of it while it runs); a job of an instance that died is taken over by another
                   after this (env ARCHIVE_JOB_LEASE_SECONDS; default 60)
  --presigned-downloads
                   downloads redirect straight to the bucket (presigned, 60 s) instead of passing through the service;
                   only when clients can reach the bucket's endpoint (env ARCHIVE_PRESIGNED_DOWNLOADS=1)
  --trust-proxy    behind a load balancer that appends X-Forwarded-For: count key-less requests per client
                   address (its last entry), not per balancer (env ARCHIVE_TRUST_PROXY=1); never without one
  -h, --help       this text

docs/deploy.md describes a small office (one process, SQLite) and an organisation (PostgreSQL, S3, several
instances behind a load balancer, workers).

Keys are managed with: npm run archive -- keys create --help`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      workers: { type: 'string' },
      database: { type: 'string' },
      blobs: { type: 'string' },
      'job-lease-seconds': { type: 'string' },
      'presigned-downloads': { type: 'boolean' },
      'trust-proxy': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0))
    throw new Error('--workers must be 0 or a positive integer');
  const fromEnv = backendsFromEnv();
  const database = values.database ?? fromEnv.database;
  const blobs = values.blobs ?? fromEnv.blobs;
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const jobLeaseMs = jobLeaseMsFrom(values['job-lease-seconds']);
  const guard = installProcessGuard({
    name: 'server',
    log: (line) => console.error(`${new Date().toISOString()} ${line}`),
  });
  const service = await startArchiveService({
    dataDir,
    host: values.host ?? DEFAULT_HOST,
    port,
    ...(workers !== undefined ? { workers } : {}),
    ...(database ? { database } : {}),
    ...(blobs ? { blobs } : {}),
    ...(jobLeaseMs !== undefined ? { jobLeaseMs } : {}),
    presignedDownloads: values['presigned-downloads'] ?? process.env.ARCHIVE_PRESIGNED_DOWNLOADS === '1',
    trustProxy: values['trust-proxy'] ?? process.env.ARCHIVE_TRUST_PROXY === '1',
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  const stores = `${database ? `database ${redactUrl(database)}` : `data: ${dataDir}`}${blobs ? `, files: ${redactUrl(blobs)}` : ''}`;
  console.log(`Archive Service v1 listening on ${service.url} (${stores})`);
  guard.onShutdown(() => service.close());
  const stop = (signal: string): void => {
    console.log(`${signal}: shutting down`);
    void guard.shutdown(0);
  };
  onStopSignals(stop);
}

runLongRunning(import.meta.main, main);
