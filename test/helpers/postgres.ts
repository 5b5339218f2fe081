import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freeLoopbackPort } from './free-port.ts';
import { cleanUpWhenGone } from './orphan-cleanup.ts';

/**
 * A throwaway PostgreSQL cluster for a test run: initdb in a temp directory, the server on 127.0.0.1 and a socket in
 * that directory, stopped and removed at the end. The global setup starts one per vitest run and hands its URL to the
 * test files through the environment; each file takes a database of its own from it (freshDatabase).
 */

/** A server the tests use: set by the global setup, or by a developer who points the tests at a server of theirs. */
export const POSTGRES_URL_ENV = 'ARCHIVE_TEST_POSTGRES_URL';
/** Why PostgreSQL tests skip on this machine (set by the global setup when the server binaries are missing). */
export const POSTGRES_UNAVAILABLE_ENV = 'ARCHIVE_TEST_POSTGRES_UNAVAILABLE';
/** A directory holding initdb and pg_ctl, when they are neither on the PATH nor in Debian's place. */
export const POSTGRES_BIN_ENV = 'ARCHIVE_TEST_POSTGRES_BIN';

const MIN_MAJOR_VERSION = 15;
const PG_CTL_WAIT_SECONDS = 30;
const START_ATTEMPTS = 3;
const SUPERUSER = 'archive_test';
const run = promisify(execFile);

export interface PostgresCluster {
  /** Superuser URL of the cluster's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl, or why there is none. */
export function findPostgresBinaries(): { binDir: string } | { missing: string } {
  const candidates = [
    process.env[POSTGRES_BIN_ENV],
    ...(process.env.PATH ?? '').split(delimiter),
    ...debianBinDirs(),
  ].filter((dir): dir is string => Boolean(dir));
  const binDir = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  return binDir
    ? { binDir }
    : {
        missing: `PostgreSQL ≥ ${MIN_MAJOR_VERSION} server binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin`,
      };
}

/** Debian and Ubuntu keep each major version's server binaries off the PATH; newest first. */
function debianBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => Number(version) >= MIN_MAJOR_VERSION)
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'));
}

/**
 * Starts a cluster in a new temp directory. fsync is off: the data is thrown away, and tests must not wait on disks.
 * `settings` are further server settings (`-c name=value`, after the defaults, so they may override them): a benchmark
 * tunes memory and turns durability back on. `keptDir`: a cluster that outlives the run (a benchmark's seeded archive,
 * reused while iterating), made in that directory by the first call and started again by later ones; stop() keeps it.
 */
export async function startPostgresCluster(
  binDir: string,
  settings: Readonly<Record<string, string | number>> = {},
  keptDir?: string,
): Promise<PostgresCluster> {
  if (keptDir) await mkdir(keptDir, { recursive: true });
  const dir = keptDir ?? (await mkdtemp(join(tmpdir(), 'archive-pg-')));
  const dataDir = join(dir, 'data');
  const reused = keptDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'));
  const passwordFile = join(dir, 'password');
  const password = reused ? (await readFile(passwordFile, 'utf8')).trim() : randomBytes(18).toString('base64url');
  const discard = () => (keptDir ? Promise.resolve() : rm(dir, { recursive: true, force: true }));
  const serverUser = await serverAccount();
  // initdb refuses to run as root; the server runs as the postgres system account then.
  const serverCommand = (binary: string, args: string[]): string[] => {
    const path = join(binDir, binary);
    return serverUser ? ['runuser', '-u', serverUser.name, '--', path, ...args] : [path, ...args];
  };
  const asServer = (binary: string, args: string[]) => {
    const [command = '', ...rest] = serverCommand(binary, args);
    return run(command, rest);
  };
  try {
    if (!reused) {
      await writeFile(passwordFile, password, { mode: 0o600 });
      if (serverUser) {
        await chown(dir, serverUser.uid, serverUser.gid);
        await chown(passwordFile, serverUser.uid, serverUser.gid);
      }
      await asServer('initdb', [
        ...['-D', dataDir, '-U', SUPERUSER, `--pwfile=${passwordFile}`],
        // Password checks over TCP, so a test can see what a wrong password does; trust on the socket in `dir` only.
        ...['--auth-local=trust', '--auth-host=scram-sha-256'],
        ...['-E', 'UTF8', '--locale=C.UTF-8', '--no-sync', '--no-instructions'],
      ]);
    }
    const port = await startOnFreePort(dir, dataDir, asServer, settings);
    const orphanCleanup = keptDir
      ? undefined
      : cleanUpWhenGone(process.pid, [
          serverCommand('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate']),
          ['rm', '-rf', dir],
        ]);
    return {
      url: `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
      stop: async () => {
        orphanCleanup?.cancel();
        try {
          await asServer('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', String(PG_CTL_WAIT_SECONDS)]);
        } finally {
          await discard();
        }
      },
    };
  } catch (error) {
    if (!reused) await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Another process may take the free port between the probe and the server's bind; then another port is tried. */
async function startOnFreePort(
  dir: string,
  dataDir: string,
  asServer: (binary: string, args: string[]) => Promise<unknown>,
  settings: Readonly<Record<string, string | number>>,
): Promise<number> {
  const logFile = join(dir, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freeLoopbackPort();
    const extra = Object.entries(settings).map(([name, value]) => ` -c ${name}=${value}`);
    const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off${extra.join('')}`;
    try {
      await asServer('pg_ctl', [
        ...['start', '-D', dataDir, '-l', logFile, '-w', '-t', String(PG_CTL_WAIT_SECONDS)],
        ...['-o', serverOptions],
      ]);
      return port;
    } catch (error) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      if (attempt < START_ATTEMPTS && /could not (bind|create listen socket)/i.test(log)) continue;
      throw new Error(`PostgreSQL test cluster did not start: ${String(error)}\n${log.slice(-2000)}`, { cause: error });
    }
  }
}

/** The postgres system account when running as root (containers, CI), else null: the server runs as this user. */
async function serverAccount(): Promise<{ name: string; uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const ids = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  try {
    return { name: 'postgres', uid: await ids('-u'), gid: await ids('-g') };
  } catch (error) {
    throw new Error('Running as root: PostgreSQL needs a "postgres" system account to run as (initdb refuses root)', {
      cause: error,
    });
  }
}

/** Where this test file's PostgreSQL is: a URL, or why the tests skip. In CI, missing PostgreSQL is a failure. */
export function postgresForTests(): { url: string; skipReason?: undefined } | { url?: undefined; skipReason: string } {
  const url = process.env[POSTGRES_URL_ENV];
  if (url) return { url };
  const reason =
    process.env[POSTGRES_UNAVAILABLE_ENV] ?? `${POSTGRES_URL_ENV} is not set (test/global-setup.ts sets it)`;
  if (process.env.CI === 'true') throw new Error(`PostgreSQL tests cannot run in CI: ${reason}`);
  return { skipReason: reason };
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, uniquely named database on the run's cluster, so test files never see each other's rows. */
export async function freshDatabase(): Promise<TestDatabase> {
  const { url: clusterUrl, skipReason } = postgresForTests();
  if (!clusterUrl) throw new Error(`No PostgreSQL for tests: ${skipReason}`);
  const name = `archive_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(clusterUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // FORCE: a pool a failed test left open must not keep the database.
    drop: async () => {
      await withAdminClient(clusterUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
