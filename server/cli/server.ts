import { parseArgs } from 'node:util';
import { errorMessage } from '../../common/errors.ts';
import { startArchiveService } from '../archive-service.ts';
import { installProcessGuard } from '../../shared/process-guard.ts';
import { DEFAULT_HOST, DEFAULT_PORT, defaultDataDir } from '../config.ts';

const HELP = `Usage: npm run server -- [options]

Starts the Document Archive Service (v1).

Options:
  --data-dir DIR   where the archive lives (default: ${defaultDataDir()}; env ARCHIVE_DATA_DIR)
  --host HOST      address to listen on (default: ${DEFAULT_HOST}; use 0.0.0.0 for a small office server)
  --port N         port (default: ${DEFAULT_PORT}; 0 picks a free one)
  --workers N      processing worker threads (default: cores - 1)
  -h, --help       this text

Keys are managed with: npm run archive -- keys create --help`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      workers: { type: 'string' },
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
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1))
    throw new Error('--workers must be a positive integer');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const guard = installProcessGuard({
    name: 'server',
    log: (line) => console.error(`${new Date().toISOString()} ${line}`),
  });
  const service = await startArchiveService({
    dataDir,
    host: values.host ?? DEFAULT_HOST,
    port,
    ...(workers ? { workers } : {}),
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  console.log(`Archive Service v1 listening on ${service.url} (data: ${dataDir})`);
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
