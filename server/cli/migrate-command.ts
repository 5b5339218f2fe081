import { parseArgs } from 'node:util';
import { errorMessage } from '../../common/errors.ts';
import { migrateArchive } from '../migrate/migrate-archive.ts';
import { formatSummary, migrationComplete } from '../migrate/summary.ts';

export const MIGRATE_HELP = `Usage: npm run archive -- migrate --from DIR --to-database URL --to-blobs URL [--json]

Copies a SQLite archive (a data directory) to PostgreSQL and a blob store: every document, file, event, payment,
key, space, setting (the download secret too), category, sender, tag, learned rule and the search index.

  --from DIR            the archive's data directory (holds archive.sqlite and files/); only read, never
                        changed, and read as one snapshot, so the app or server may keep running
  --to-database URL     postgres://user:password@host:port/database: a new, empty database, or the one an
                        interrupted run of this command left (a database holding another archive is refused)
  --to-blobs URL        s3://bucket/prefix (endpoint, region, keys from AWS_ENDPOINT_URL_S3, AWS_REGION,
                        AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or a directory (a data directory's files/)
  --json                the summary as JSON

Run it again after an interruption: rows and files already copied are skipped. Every file is checked against its
SHA-256 while it is copied; one whose bytes do not match, or that is missing, is listed and the exit code is 1
(the rows are copied all the same). Exit codes: 0 all copied, 1 files missing or an error, 2 a usage error.`;

/** `archive migrate …`: returns the exit code. */
export async function migrateCommand(
  argv: string[],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        'to-database': { type: 'string' },
        'to-blobs': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    err(`error: ${errorMessage(error)}\n\n${MIGRATE_HELP}`);
    return 2;
  }
  if (values.help) {
    out(MIGRATE_HELP);
    return 0;
  }
  const { from, 'to-database': toDatabase, 'to-blobs': toBlobs } = values;
  const absent = [!from && '--from DIR', !toDatabase && '--to-database URL', !toBlobs && '--to-blobs URL'];
  if (!from || !toDatabase || !toBlobs) {
    err(`error: migrate needs ${absent.filter(Boolean).join(', ')}\n\n${MIGRATE_HELP}`);
    return 2;
  }
  try {
    const summary = await migrateArchive({ from, toDatabase, toBlobs, progress: values.json ? undefined : err });
    out(values.json ? JSON.stringify(summary, null, 2) : formatSummary(summary));
    return migrationComplete(summary) ? 0 : 1;
  } catch (error) {
    err(`error: ${errorMessage(error)}`);
    return 1;
  }
}

if (import.meta.main) process.exitCode = await migrateCommand(process.argv.slice(2));
