import { parseArgs } from 'node:util';
import { errorMessage } from '../../common/errors.ts';
import { backendsFromEnv, redactUrl } from '../archive-backends.ts';
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
  --presigned-downloads
                   downloads redirect straight to the bucket (presigned, 60 s) instead of passing through the service;
                   only when clients can reach the bucket's endpoint (env ARCHIVE_PRESIGNED_DOWNLOADS=1)
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
      'presigned-downloads': { type: 'boolean' },
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
    presignedDownloads: values['presigned-downloads'] ?? process.env.ARCHIVE_PRESIGNED_DOWNLOADS === '1',
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  const stores = `${database ? `database ${redactUrl(database)}` : `data: ${dataDir}`}${blobs ? `, files: ${redactUrl(blobs)}` : ''}`;
  console.log(`Archive Service v1 listening on ${service.url} (${stores})`);
  guard.onShutdown(() => service.close());
  const stop = (signal: string): void => {
    console.log(`${signal}: shutting down`);
    void guard.shutdown(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`error: ${errorMessage(error)}`);
    process.exitCode = 1;
  });
}
