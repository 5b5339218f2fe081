import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_LEASE_MS, jobLeaseMsFrom } from '../../server/archive-backends.ts';
import { leasedJobClaimer } from '../../server/db/postgres/pg-job-claimer.ts';
import { pgJobSignals } from '../../server/db/postgres/pg-job-signals.ts';
import type { PgSql } from '../../server/db/postgres/pg-sql.ts';
import { nowIso, type Sql } from '../../server/db/sql.ts';
import { JobLeaseLost, JobQueue, type Job } from '../../server/pipeline/job-queue.ts';
import { DocumentProcessor } from '../../server/pipeline/processor.ts';
import type { LocalCopy } from '../../server/storage/blob-storage.ts';
import { BlobStore } from '../../server/storage/blob-store.ts';
import { eventually } from '../helpers/http-raw.ts';
import { useArchiveDatabase } from '../helpers/archive-database.ts';
import { postgresForTests } from '../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

const LEASE_MS = 10_000;

/** A file store whose local copies wait until `gate` opens: a job held in the middle of its work. */
class GatedBlobStore extends BlobStore {
  readonly reached = Promise.withResolvers<undefined>();
  readonly gate = Promise.withResolvers<undefined>();
  override async localCopy(sha256: string): Promise<LocalCopy> {
    this.reached.resolve(undefined);
    await this.gate.promise;
    return super.localCopy(sha256);
  }
}

interface JobRow {
  state: string;
  attempts: number;
  lease_owner: string | null;
  error: string | null;
}

describe('the job lease setting', () => {
  it('takes --job-lease-seconds, else ARCHIVE_JOB_LEASE_SECONDS, in ms; neither: the default applies', () => {
    expect(jobLeaseMsFrom('5', { ARCHIVE_JOB_LEASE_SECONDS: '7' })).toBe(5000);
    expect(jobLeaseMsFrom(undefined, { ARCHIVE_JOB_LEASE_SECONDS: '2.5' })).toBe(2500);
    expect(jobLeaseMsFrom(undefined, {})).toBeUndefined();
    expect(DEFAULT_JOB_LEASE_MS).toBe(60_000);
  });

  it('refuses what is not a number of seconds of at least 1, naming where it came from', () => {
    for (const bad of ['0', '0.5', '-3', 'abc', '1e3', '60s']) {
      expect(() => jobLeaseMsFrom(bad, {})).toThrow(
        `--job-lease-seconds must be a number of seconds, at least 1; got "${bad}"`,
      );
    }
    expect(() => jobLeaseMsFrom(undefined, { ARCHIVE_JOB_LEASE_SECONDS: 'soon' })).toThrow(
      'ARCHIVE_JOB_LEASE_SECONDS must be a number of seconds, at least 1; got "soon"',
    );
  });
});

describe.skipIf(!postgres.url)('job leases on PostgreSQL (many workers, one queue)', () => {
  /** Connection pools of their own: separate processes taking jobs from one table. */
  const archive = useArchiveDatabase(4);
  let clock = 1_000_000;
  const now = (): number => clock;

  /** The queue as the process `owner` (on pool `pool`) sees it: the claimer and the lease of openBackends. */
  const queueOf = (owner: string, pool = 0): JobQueue =>
    new JobQueue(archive.pools[pool]!, {
      claimJob: leasedJobClaimer(owner, LEASE_MS, now),
      lease: { owner, ms: LEASE_MS, now },
    });

  const db = (): PgSql => archive.sql;

  /** A pending document (no file stored) and its job, queued through `queue` in one transaction on `sql`. */
  async function queueDocument(sql: Sql = db(), queue: JobQueue = queueOf('enqueuer')): Promise<string> {
    const id = randomUUID();
    await sql.transaction(async (tx) => {
      const space = await tx.get<{ id: string }>('SELECT id FROM spaces LIMIT 1');
      await tx.run(
        `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
        sha256, created_at, updated_at) VALUES (?, ?, 'pending', 'doc', 'doc.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?)`,
        id,
        space!.id,
        randomUUID().replaceAll('-', '').padEnd(64, '0'),
        nowIso(),
        nowIso(),
      );
      await queue.enqueue(id, 'process', tx);
    });
    return id;
  }

  async function queueDocuments(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await queueDocument());
    return ids;
  }

  /**
   * Runs `fn` with a processor leasing jobs as `owner`, over a file store in a temp directory whose local copies wait
   * for the test (GatedBlobStore); stops and removes them after. `lines` collects what it logs.
   */
  async function withProcessor(
    owner: string,
    options: Partial<ConstructorParameters<typeof DocumentProcessor>[2]>,
    fn: (processor: DocumentProcessor, blobs: GatedBlobStore, lines: string[]) => Promise<void>,
  ): Promise<void> {
    const dataDir = await mkdtemp(join(tmpdir(), 'job-leases-'));
    const blobs = new GatedBlobStore(dataDir);
    await blobs.init();
    const lines: string[] = [];
    const processor = new DocumentProcessor(db(), blobs, {
      workers: 1,
      claimJob: leasedJobClaimer(owner, LEASE_MS, now),
      lease: { owner, ms: LEASE_MS, now },
      log: (line) => lines.push(line),
      ...options,
    });
    try {
      await processor.start();
      await fn(processor, blobs, lines);
    } finally {
      blobs.gate.resolve(undefined);
      await processor.stop();
      await blobs.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  const jobRow = async (id: number): Promise<JobRow> =>
    (await db().get<JobRow>('SELECT state, attempts, lease_owner, error FROM jobs WHERE id = ?', id))!;

  beforeEach(async () => {
    // Each test starts from an empty queue: earlier tests' jobs are finished.
    await db().run("UPDATE jobs SET state = 'done' WHERE state IN ('queued', 'running')");
    clock += 10 * LEASE_MS;
  });

  it('never gives one job to two of many concurrent claimers', async () => {
    await queueDocuments(40);
    const claimers = Array.from({ length: 8 }, (_, i) => ({
      owner: `worker-${i}`,
      queue: queueOf(`worker-${i}`, i % 4),
    }));
    const claimed = await Promise.all(
      claimers.map(async ({ owner, queue }) => {
        const jobs: Array<{ owner: string; job: Job }> = [];
        // Bounded: there are 40 jobs in all.
        for (let i = 0; i < 41; i++) {
          const job = await queue.claim();
          if (!job) break;
          jobs.push({ owner, job });
        }
        return jobs;
      }),
    );
    const all = claimed.flat();
    expect(all).toHaveLength(40);
    expect(new Set(all.map(({ job }) => job.id)).size).toBe(40);
    for (const { owner, job } of all) {
      expect(job.attempts).toBe(1);
      expect((await jobRow(job.id)).lease_owner).toBe(owner);
    }
    // More than one claimer took part, so the claims really were concurrent.
    expect(claimed.filter((jobs) => jobs.length > 0).length).toBeGreaterThan(1);
  });

  it('lets another owner take a job over once its lease ran out, and counts the try', async () => {
    await queueDocuments(1);
    const first = queueOf('first', 0);
    const second = queueOf('second', 1);
    const job = (await first.claim())!;
    expect(job.attempts).toBe(1);

    clock += LEASE_MS - 1;
    expect(await second.claim()).toBeUndefined();

    clock += 2;
    const takenOver = (await second.claim())!;
    expect(takenOver.id).toBe(job.id);
    expect(takenOver.attempts).toBe(2);
    expect(await jobRow(job.id)).toMatchObject({ state: 'running', attempts: 2, lease_owner: 'second' });
  });

  it('keeps a job whose lease is renewed', async () => {
    await queueDocuments(1);
    const first = queueOf('first', 0);
    const second = queueOf('second', 1);
    const job = (await first.claim())!;
    for (let i = 0; i < 5; i++) {
      clock += Math.floor((LEASE_MS * 2) / 3);
      expect(await first.renewLease(job.id)).toBe(true);
      expect(await second.claim()).toBeUndefined();
    }
    expect(await jobRow(job.id)).toMatchObject({ state: 'running', attempts: 1, lease_owner: 'first' });
  });

  it("refuses the first owner's writes once the job was taken over", async () => {
    await queueDocuments(1);
    const first = queueOf('first', 0);
    const second = queueOf('second', 1);
    const job = (await first.claim())!;
    clock += LEASE_MS + 1;
    await second.claim();
    const takenOver = await jobRow(job.id);

    expect(await first.renewLease(job.id)).toBe(false);
    await first.finish(job.id);
    await first.fail(job.id, 'late failure');
    await first.retry(job.id, 'late retry');
    await first.release(job.id);
    expect(await jobRow(job.id)).toEqual(takenOver);
    await expect(db().transaction((tx) => first.assertOwned(tx, job.id))).rejects.toBeInstanceOf(JobLeaseLost);

    await db().transaction((tx) => second.assertOwned(tx, job.id));
    await second.finish(job.id);
    expect(await jobRow(job.id)).toMatchObject({ state: 'done', attempts: 2, lease_owner: 'second' });
  });

  it('fails a job, with the reason, that has been taken over more often than maxAttempts allows', async () => {
    const documentId = (await queueDocuments(1))[0]!;
    // Each of these workers claims the job and dies with it (its lease runs out).
    for (const owner of ['lost-1', 'lost-2', 'lost-3']) {
      expect((await queueOf(owner).claim())?.document_id).toBe(documentId);
      clock += LEASE_MS + 1;
    }
    const owner = 'survivor';
    await withProcessor(owner, { limits: { maxAttempts: 3 } }, (processor) => processor.idle());
    const job = await db().get<JobRow>(
      'SELECT state, attempts, lease_owner, error FROM jobs WHERE document_id = ?',
      documentId,
    );
    expect(job).toMatchObject({ state: 'failed', attempts: 4, lease_owner: owner });
    expect(job!.error).toBe('the worker running it was lost 3 times; not tried again');
    const document = await db().get<{ status: string; error: string }>(
      'SELECT status, error FROM documents WHERE id = ?',
      documentId,
    );
    expect(document).toEqual({
      status: 'failed',
      error: 'Processing failed: the worker running it was lost 3 times; not tried again',
    });
  });

  it('leaves a document alone when its first owner fails on it after the job was taken over', async () => {
    const documentId = (await queueDocuments(1))[0]!;
    let takenOver: Job | undefined;
    let lines: string[] = [];
    // No file is stored: once the gate opens, the first owner's local copy fails and it gives the document up.
    await withProcessor('first', {}, async (_processor, blobs, logged) => {
      lines = logged;
      await blobs.reached.promise;
      clock += LEASE_MS + 1;
      takenOver = await queueOf('second', 1).claim();
      expect(takenOver?.document_id).toBe(documentId);
      blobs.gate.resolve(undefined);
      await eventually(async () => {
        if (!lines.some((line) => line.includes(`job ${takenOver!.id}`) || line.includes('failed')))
          throw new Error('the first owner has not ended the job');
      }, 10_000);
    });
    expect(lines).toContain(`job ${takenOver!.id} was taken over by another worker after its lease ran out`);
    const document = await db().get<{ status: string; error: string | null }>(
      'SELECT status, error FROM documents WHERE id = ?',
      documentId,
    );
    expect(document).toEqual({ status: 'processing', error: null });
    expect(await jobRow(takenOver!.id)).toMatchObject({ state: 'running', attempts: 2, lease_owner: 'second' });
  });

  it('starts a job another process queued when it is announced, not at the next poll', async () => {
    const signals = pgJobSignals(archive.url);
    // The poll is longer than the test may take: only the announcement can start the job in time.
    await withProcessor('listener', { signals, pollIntervalMs: 10 * 60_000 }, async (processor, blobs) => {
      await processor.idle();
      // Another process (its own pool) queues the job in the transaction that records the document, as uploads do.
      const documentId = await queueDocument(archive.pools[1]!, new JobQueue(archive.pools[1]!, { signals }));
      let started = false;
      void blobs.reached.promise.then(() => (started = true));
      await eventually(async () => {
        if (!started) throw new Error('the announced job was not started');
      }, 10_000);
      const job = await db().get<JobRow>(
        'SELECT state, attempts, lease_owner, error FROM jobs WHERE document_id = ?',
        documentId,
      );
      expect(job).toMatchObject({ state: 'running', lease_owner: 'listener' });
    });
  });

  it('listens again after its connection is lost, and starts what was queued meanwhile', async () => {
    const signals = pgJobSignals(archive.url);
    await withProcessor('listener', { signals, pollIntervalMs: 10 * 60_000 }, async (processor, blobs, lines) => {
      await processor.idle();
      // What a database restart or failover does to the listening connection.
      await db().get(
        `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
        WHERE application_name = 'archive-job-listener' AND datname = current_database()`,
      );
      await eventually(async () => {
        if (!lines.some((line) => line.startsWith('listening for queued jobs stopped')))
          throw new Error('the lost connection was not noticed');
      }, 10_000);
      const documentId = await queueDocument(archive.pools[1]!, new JobQueue(archive.pools[1]!, { signals }));
      let started = false;
      void blobs.reached.promise.then(() => (started = true));
      await eventually(async () => {
        if (!started) throw new Error('the job queued around the reconnection was not started');
      }, 10_000);
      expect(lines).toContain('listening for queued jobs again');
      expect(await db().get<JobRow>('SELECT lease_owner FROM jobs WHERE document_id = ?', documentId)).toEqual({
        lease_owner: 'listener',
      });
    });
  });
});
