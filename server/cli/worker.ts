import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { onStopSignals, runLongRunning } from './long-running.ts';
import { installProcessGuard } from '../../shared/process-guard.ts';
import { backendsFromEnv, jobLeaseMsFrom, redactUrl } from '../archive-backends.ts';
import { openArchive } from '../archive-service.ts';

const HELP = `Usage: npm run worker -- --database URL --blobs URL [options]

Processes documents (text, OCR, fields, search index) of an archive kept in PostgreSQL and an S3-compatible bucket,
without serving HTTP: run as many as the OCR load needs, on any machines that reach both. Jobs are leased; a worker
that dies (kill -9, a lost machine) has its job taken over by another once the lease runs out.

Options:
  --database URL   postgres://user:password@host:port/database (env ARCHIVE_DATABASE_URL)
  --blobs URL      s3://bucket/prefix (env ARCHIVE_BLOB_URL; endpoint, region and credentials from
                   AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)
  --workers N      documents analysed at a time, each in a process of its own (default: cores - 1, at least 1)
  --job-lease-seconds N
                   how long a claimed job stays this worker's without a renewal (renewed every third of it while
                   it runs); another worker takes it over after this once this one is gone (env
                   ARCHIVE_JOB_LEASE_SECONDS; default 60)
  --tmp-dir DIR    where files are copied for analysis (default: a new directory under the system's temp)
  -h, --help       this text`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      database: { type: 'string' },
      blobs: { type: 'string' },
      'job-lease-seconds': { type: 'string' },
      workers: { type: 'string' },
      'tmp-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const fromEnv = backendsFromEnv();
  const database = values.database ?? fromEnv.database;
  const blobs = values.blobs ?? fromEnv.blobs;
  // A worker beside a SQLite archive would compete with the server's own processing for one writer: not offered.
  if (!database)
    throw new Error('--database (or ARCHIVE_DATABASE_URL) is required: workers share a PostgreSQL archive');
  if (!blobs || !/^s3:\/\//i.test(blobs))
    throw new Error('--blobs s3://bucket/prefix (or ARCHIVE_BLOB_URL) is required: workers read files from the bucket');
  const workers = values.workers === undefined ? Math.max(1, availableParallelism() - 1) : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) throw new Error('--workers must be a positive integer');

  const jobLeaseMs = jobLeaseMsFrom(values['job-lease-seconds']);

  const log = (line: string): void => console.log(`${new Date().toISOString()} ${line}`);
  const guard = installProcessGuard({
    name: 'worker',
    log: (line) => console.error(`${new Date().toISOString()} ${line}`),
  });
  const ownTmp = values['tmp-dir'] === undefined;
  const dataDir = values['tmp-dir'] ?? (await mkdtemp(join(tmpdir(), 'archive-worker-')));
  const archive = await openArchive({
    dataDir,
    database,
    blobs,
    workers,
    log,
    ...(jobLeaseMs !== undefined ? { jobLeaseMs } : {}),
  });
  guard.onShutdown(async () => {
    await archive.processor.stop();
    await archive.db.close();
    await archive.blobs.close();
    if (ownTmp) await rm(dataDir, { recursive: true, force: true });
  });
  await archive.processor.start();
  log(`Archive worker processing with ${workers} process(es) (database ${redactUrl(database)}, files ${blobs})`);
  const stop = (signal: string): void => {
    log(`${signal}: finishing; running jobs go back to the queue`);
    void guard.shutdown(0);
  };
  onStopSignals(stop);
}

runLongRunning(import.meta.main, main);
