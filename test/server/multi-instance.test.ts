import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run as archiveCli } from '../../server/cli/archive.ts';
import { openPostgres } from '../../server/db/postgres/pg-schema.ts';
import type { PgSql } from '../../server/db/postgres/pg-sql.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { eventually } from '../helpers/http-raw.ts';
import { freshDatabase, postgresForTests, type TestDatabase } from '../helpers/postgres.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.ts';
import { s3ServerForTests, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';

/**
 * Issue 15, item 4: three service processes (the real CLI, --workers 0) and two `npm run worker` processes on one
 * PostgreSQL database and one S3 bucket, behind a round-robin proxy, behave as one service.
 */
const postgres = postgresForTests();
const s3rver = s3ServerForTests();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_CLI = join(ROOT, 'server/cli/server.ts');
const WORKER_CLI = join(ROOT, 'server/cli/worker.ts');
/** A scanned page for OCR: a job that runs long enough (seconds) to catch its worker in the middle of it. */
const SCANNED_JPEG = join(ROOT, 'test/fixtures/corpus/doc-04.jpg');
/** Short, so a dead worker's job is taken over within the test; renewals every third of it keep live ones' jobs. */
const JOB_LEASE_SECONDS = 5;
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

/** A CLI process of the test, its output kept (stdout must be read, or a chatty server would block on it). */
interface CliProcess {
  name: string;
  child: ChildProcess;
  output: string;
}

function spawnCli(name: string, script: string, args: string[], env: NodeJS.ProcessEnv): CliProcess {
  // process.execPath: the project's pinned Node that runs this test, not whatever `node` the PATH has.
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const cli: CliProcess = { name, child, output: '' };
  const keep = (chunk: Buffer): void => {
    cli.output = (cli.output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return cli;
}

/** Resolves with the first match of pattern in the process's output; rejects if it exits or the time runs out. */
function waitForOutput(cli: CliProcess, pattern: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = pattern.exec(cli.output);
      if (match) done(() => resolve(match));
    };
    const fail = (why: string): void =>
      done(() => reject(new Error(`${cli.name} ${why}; its output:\n${cli.output.slice(-4000)}`)));
    const onExit = (code: number | null, signal: string | null): void => fail(`exited (${signal ?? code})`);
    const timer = setTimeout(() => fail(`printed no ${pattern} within ${timeoutMs} ms`), timeoutMs);
    const done = (settle: () => void): void => {
      clearTimeout(timer);
      cli.child.stdout!.off('data', check);
      cli.child.stderr!.off('data', check);
      cli.child.off('exit', onExit);
      settle();
    };
    cli.child.stdout!.on('data', check);
    cli.child.stderr!.on('data', check);
    cli.child.once('exit', onExit);
    check();
  });
}

async function stopCli(cli: CliProcess): Promise<void> {
  const { child } = cli;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

interface JobRow {
  document_id: string;
  state: string;
  attempts: number;
  lease_owner: string | null;
}

describe.skipIf(!postgres.url || !s3rver.bin)('three instances and two workers behind a load balancer', () => {
  let database: TestDatabase;
  let s3: S3TestServer;
  let scratch: string;
  let db: PgSql;
  let proxy: RoundRobinProxy;
  let instanceUrls: string[] = [];
  const servers: CliProcess[] = [];
  const workers: CliProcess[] = [];

  const newKey = async (name: string): Promise<string> => {
    const lines: string[] = [];
    const code = await archiveCli(['--database', database.url, '--json', 'keys', 'create', '--name', name], (line) =>
      lines.push(line),
    );
    expect(code, lines.join('\n')).toBe(0);
    return (JSON.parse(lines.join('\n')) as { key: string }).key;
  };

  const get = (base: string, path: string, key: string): Promise<Response> =>
    fetch(base + path, { headers: { Authorization: `Bearer ${key}` } });

  const upload = (base: string, key: string, bytes: Uint8Array, name: string, type: string): Promise<Response> => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    return fetch(`${base}/v1/documents`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: form });
  };

  /** Every object key in the test's bucket. */
  const bucketKeys = async (): Promise<string[]> => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const listing = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (listing.Contents ?? []).map((object) => object.Key ?? '');
    } finally {
      client.destroy();
    }
  };

  /** The pid in a lease owner (`host:pid:random`, openBackends). */
  const ownerPid = (owner: string | null): number => Number(owner?.split(':').at(-2));

  beforeAll(async () => {
    database = await freshDatabase();
    s3 = await startS3Server(s3rver.bin!, 'multi-instance');
    scratch = await mkdtemp(join(tmpdir(), 'multi-instance-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      AWS_REGION: 'us-east-1',
      // The instances take the lease from the environment, the workers from --job-lease-seconds below.
      ARCHIVE_JOB_LEASE_SECONDS: String(JOB_LEASE_SECONDS),
    };
    const stores = ['--database', database.url, '--blobs', `s3://${s3.bucket}/archive`];
    for (let i = 0; i < 3; i++) {
      servers.push(
        spawnCli(
          `server ${i + 1}`,
          SERVER_CLI,
          [
            ...stores,
            ...['--workers', '0', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(scratch, `server-${i + 1}`)],
          ],
          env,
        ),
      );
    }
    for (let i = 0; i < 2; i++) {
      workers.push(
        spawnCli(
          `worker ${i + 1}`,
          WORKER_CLI,
          [
            ...stores,
            ...['--workers', '1', '--job-lease-seconds', String(JOB_LEASE_SECONDS)],
            ...['--tmp-dir', join(scratch, `worker-${i + 1}`)],
          ],
          env,
        ),
      );
    }
    instanceUrls = await Promise.all(
      servers.map(async (server) => (await waitForOutput(server, /listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!),
    );
    await Promise.all(workers.map((worker) => waitForOutput(worker, /Archive worker processing/)));
    // All five started at once on an empty database: one created the schema, the others waited for it.
    db = await openPostgres(database.url);
    proxy = await startRoundRobinProxy(instanceUrls);
  }, 60_000);

  beforeEach(({ onTestFailed }) => {
    // What the processes said and where the jobs stand: the story of a failure that happened in other processes.
    onTestFailed(async () => {
      const jobs = await db.all(
        'SELECT j.*, d.status, d.error AS document_error FROM jobs j JOIN documents d ON d.id = j.document_id',
      );
      console.log(`jobs: ${JSON.stringify(jobs, null, 1)}`);
      for (const cli of [...servers, ...workers]) console.log(`${cli.name}:\n${cli.output.slice(-3000)}`);
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([...servers, ...workers].map(stopCli));
    await db?.close();
    await s3?.stop();
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }, 30_000);

  it('holds 60 requests a minute per key across the instances, with RateLimit-Remaining counting down exactly', async () => {
    const key = await newKey('requests');
    const remaining: number[] = [];
    const before = [...proxy.served];
    for (let i = 0; i < 60; i++) {
      const res = await get(proxy.url, '/v1/documents', key);
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit-Limit')).toBe('60');
      remaining.push(Number(res.headers.get('RateLimit-Remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    // Each instance answered a third of them.
    expect(proxy.served.map((n, i) => n - before[i]!)).toEqual([20, 20, 20]);
    // The 61st is refused by whichever instance gets it.
    for (const base of [proxy.url, ...instanceUrls]) {
      const res = await get(base, '/v1/documents', key);
      expect(res.status).toBe(429);
      expect(res.headers.get('RateLimit-Remaining')).toBe('0');
      const retryAfter = Number(res.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await res.json()).toEqual({ success: false, error: 'Rate limit exceeded', retryAfter });
    }
  });

  it('holds 10 uploads a minute per key across the instances', async () => {
    const key = await newKey('uploads');
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await upload(
        proxy.url,
        key,
        await makePdf(`Upload ${i} of the rate test`),
        `u${i}.pdf`,
        'application/pdf',
      );
      expect(res.status, await res.clone().text()).toBe(202);
      expect(res.headers.get('RateLimit-Uploads-Limit')).toBe('10');
      remaining.push(Number(res.headers.get('RateLimit-Uploads-Remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 10 }, (_, i) => 9 - i));
    for (const base of [proxy.url, ...instanceUrls]) {
      const res = await upload(base, key, await makePdf('One too many'), 'over.pdf', 'application/pdf');
      expect(res.status).toBe(429);
      expect(res.headers.get('RateLimit-Uploads-Remaining')).toBe('0');
      expect(((await res.json()) as { error: string }).error).toBe('Rate limit exceeded');
    }
  });

  it('deduplicates one file uploaded through different instances, and the workers process every document', async () => {
    const key = await newKey('dedup');
    const bytes = await makePdf(['Invoice 4711', 'Total 120.50 EUR']);
    const ids: string[] = [];
    const duplicateOf: Array<string | null> = [];
    // Three uploads in a row through the proxy: one per instance.
    for (let i = 0; i < 3; i++) {
      const res = await upload(proxy.url, key, bytes, 'invoice.pdf', 'application/pdf');
      expect(res.status).toBe(202);
      const body = (await res.json()) as { id: string; duplicate_of: string | null };
      ids.push(body.id);
      duplicateOf.push(body.duplicate_of);
    }
    expect(duplicateOf).toEqual([null, ids[0], ids[0]]);

    const workerPids = new Set(workers.map((worker) => worker.child.pid));
    // Every document of the archive so far (the upload test's too) ends processed, each by one of the workers.
    const jobs = await eventually(async () => {
      const rows = await db.all<JobRow & { status: string }>(
        `SELECT j.document_id, j.state, j.attempts, j.lease_owner, d.status
        FROM jobs j JOIN documents d ON d.id = j.document_id`,
      );
      if (!rows.every((row) => row.state === 'done')) throw new Error(`jobs not all done: ${JSON.stringify(rows)}`);
      return rows;
    }, 30_000);
    expect(jobs.map((job) => job.document_id)).toEqual(expect.arrayContaining(ids));
    for (const job of jobs) {
      expect(workerPids.has(ownerPid(job.lease_owner)), `${job.lease_owner} is not a worker`).toBe(true);
      expect(job.attempts).toBe(1);
    }
    const statuses = new Map(jobs.map((job) => [job.document_id, job.status]));
    expect([ids[0], ids[1], ids[2]].map((id) => statuses.get(id!))).toEqual(['completed', 'skipped', 'skipped']);
    expect(jobs.filter((job) => !ids.includes(job.document_id)).every((job) => job.status === 'completed')).toBe(true);
    const res = await get(proxy.url, `/v1/documents/${ids[2]}`, key);
    expect(((await res.json()) as { document: { duplicate_of: string } }).document.duplicate_of).toBe(ids[0]);
    // The file is stored once in the bucket, whichever instances received it.
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect((await bucketKeys()).filter((key) => key.endsWith(`/${sha256}`))).toHaveLength(1);
  }, 40_000);

  it('deduplicates one file uploaded through all instances at the same moment', async () => {
    const key = await newKey('dedup-concurrent');
    const bytes = await makePdf(['Contract 2026-17', 'Uploaded three times at once']);
    const answers = await Promise.all(
      instanceUrls.map(async (base) => {
        const res = await upload(base, key, bytes, 'contract.pdf', 'application/pdf');
        expect(res.status).toBe(202);
        return (await res.json()) as { id: string; duplicate_of: string | null };
      }),
    );
    const originals = answers.filter((answer) => answer.duplicate_of === null);
    expect(originals).toHaveLength(1);
    expect(answers.filter((answer) => answer.duplicate_of === originals[0]!.id)).toHaveLength(2);
  });

  it('loses nothing when a worker is killed mid-job: another takes the job over after its lease', async () => {
    const key = await newKey('kill');
    const res = await upload(proxy.url, key, await readFile(SCANNED_JPEG), 'scan.jpg', 'image/jpeg');
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };

    const running = await eventually(async () => {
      const job = await db.get<JobRow>("SELECT * FROM jobs WHERE document_id = ? AND state = 'running'", id);
      if (!job) throw new Error('no worker claimed the scan');
      return job;
    }, 20_000);
    const victim = workers.find((worker) => worker.child.pid === ownerPid(running.lease_owner))!;
    const survivor = workers.find((worker) => worker !== victim)!;
    expect(victim, `${running.lease_owner} is not a worker`).toBeDefined();
    // Paused first, so it cannot finish the job between this check and the kill.
    victim.child.kill('SIGSTOP');
    const held = await db.get<JobRow>('SELECT * FROM jobs WHERE document_id = ?', id);
    expect(held, 'the OCR job finished before its worker could be stopped').toMatchObject({
      state: 'running',
      lease_owner: running.lease_owner,
    });
    const killed = Date.now();
    victim.child.kill('SIGKILL');

    // The job ends after the document's result (the embedding is written in between): wait for the job.
    const jobs = await eventually(async () => {
      const rows = await db.all<JobRow>('SELECT * FROM jobs WHERE document_id = ?', id);
      if (!rows.some((job) => job.state === 'done' || job.state === 'failed'))
        throw new Error(`the scan's job has not ended: ${JSON.stringify(rows)}`);
      return rows;
    }, 45_000);
    // Not before the dead worker's lease ran out (renewed at most a third of it before the kill).
    expect(Date.now() - killed).toBeGreaterThanOrEqual((JOB_LEASE_SECONDS * 1000 * 2) / 3);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'done', attempts: 2 });
    expect(ownerPid(jobs[0]!.lease_owner)).toBe(survivor.child.pid);
    const answer = await get(proxy.url, `/v1/documents/${id}`, key);
    expect(((await answer.json()) as { document: { status: string } }).document.status).toBe('completed');
  }, 60_000);
});
