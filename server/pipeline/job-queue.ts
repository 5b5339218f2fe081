import { nowIso, type Sql } from '../db/sql.ts';

export type JobKind = 'process' | 'reprocess';
export interface Job {
  id: number;
  document_id: string;
  kind: JobKind;
  attempts: number;
}

/**
 * Takes the oldest queued job, marks it running and returns it, inside the caller's transaction. Each back end picks
 * the row its own way (SQLite: its transaction holds the only writer; PostgreSQL can add one that skips rows other
 * workers have locked); the queue around it is shared.
 */
export type JobClaimer = (tx: Sql, startedAt: string) => Promise<Job | undefined>;

/** SQLite: BEGIN IMMEDIATE already makes this the only writer, so the oldest queued row is simply taken. */
export const claimOldestQueued: JobClaimer = (tx, startedAt) =>
  tx.get<Job>(
    `UPDATE jobs SET state = 'running', started_at = ?, attempts = attempts + 1
    WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1)
    RETURNING id, document_id, kind, attempts`,
    startedAt,
  );

/**
 * Where several processes take jobs from one table (PostgreSQL): a claimed job is leased to `owner` until
 * `now() + ms`, renewed while it runs, and taken over by another claimer once the lease has run out.
 */
export interface JobLease {
  owner: string;
  ms: number;
  now: () => number;
}

/**
 * Where other processes take jobs from the same table (PostgreSQL): a queued job is announced, so idle workers start
 * it at once rather than at their next poll. The poll stays, for announcements missed.
 */
export interface JobSignals {
  /** Inside the transaction that queued a job: announced when it commits. */
  announce(tx: Sql): Promise<void>;
  /** Calls onQueued whenever a job was queued by any process; resolves to the function that stops listening. */
  listen(onQueued: () => void, log: (line: string) => void): Promise<() => Promise<void>>;
}

/** Raised when a job's lease was lost (taken over after it ran out): its result must not be written. */
export class JobLeaseLost extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} was taken over by another worker after its lease ran out`);
    this.name = 'JobLeaseLost';
  }
}

/** The durable processing queue (table `jobs`). At most one queued-or-running job per document, by a unique index. */
export class JobQueue {
  private readonly db: Sql;
  private readonly claimJob: JobClaimer;
  /** Null where one process owns the queue (SQLite): interrupted jobs are reclaimed at its start instead. */
  readonly lease: JobLease | null;
  /** Null where this process alone takes the jobs it queues (SQLite): notify() reaches its processor directly. */
  readonly signals: JobSignals | null;
  constructor(db: Sql, options: { claimJob?: JobClaimer; lease?: JobLease | null; signals?: JobSignals | null } = {}) {
    this.db = db;
    this.claimJob = options.claimJob ?? claimOldestQueued;
    this.lease = options.lease ?? null;
    this.signals = options.signals ?? null;
  }

  /** The condition that a running job is still ours, and its parameters (nothing to check without leases). */
  private owned(): { sql: string; args: string[] } {
    return this.lease ? { sql: ' AND lease_owner = ?', args: [this.lease.owner] } : { sql: '', args: [] };
  }

  /** Extends a running job's lease; false when it is no longer ours (then its result must not be written). */
  async renewLease(jobId: number): Promise<boolean> {
    if (!this.lease) return true;
    const { changes } = await this.db.run(
      "UPDATE jobs SET lease_until = ? WHERE id = ? AND state = 'running' AND lease_owner = ?",
      this.lease.now() + this.lease.ms,
      jobId,
      this.lease.owner,
    );
    return changes > 0;
  }

  /**
   * Inside the transaction that writes a job's result: locks the job's row and throws JobLeaseLost unless it is still
   * ours, so a worker that lost its lease (paused past it) cannot write over the one that took the job over.
   */
  async assertOwned(tx: Sql, jobId: number): Promise<void> {
    if (!this.lease) return;
    const row = await tx.get(
      "SELECT 1 FROM jobs WHERE id = ? AND state = 'running' AND lease_owner = ? FOR UPDATE",
      jobId,
      this.lease.owner,
    );
    if (!row) throw new JobLeaseLost(jobId);
  }

  /** Queues a job; returns false when the document is already in the pipeline. db: a transaction's handle, if any. */
  async enqueue(documentId: string, kind: JobKind, db: Sql = this.db): Promise<boolean> {
    const result = await db.run(
      `INSERT INTO jobs (document_id, kind, state, created_at) VALUES (?, ?, 'queued', ?) ON CONFLICT DO NOTHING`,
      documentId,
      kind,
      nowIso(),
    );
    if (result.changes > 0) await this.signals?.announce(db);
    return result.changes > 0;
  }

  async isActive(documentId: string): Promise<boolean> {
    return !!(await this.db.get(
      "SELECT 1 FROM jobs WHERE document_id = ? AND state IN ('queued', 'running')",
      documentId,
    ));
  }

  // Bookkeeping of the pipeline commits with deferred durability: a claim, a finish or a failure lost to a power cut
  // leaves the job queued or running, and start-up runs it again (requeueInterrupted). Enqueueing is part of the
  // upload's own transaction, which is durable.

  /** Takes the oldest queued job and marks it running (and its document processing). */
  claim(): Promise<Job | undefined> {
    return this.db.transaction(async (tx) => {
      const job = await this.claimJob(tx, nowIso());
      if (job)
        await tx.run(
          "UPDATE documents SET status = 'processing' WHERE id = ? AND status <> 'processing'",
          job.document_id,
        );
      return job;
    }, 'deferred');
  }

  // A job that is no longer ours (its lease ran out and another worker took it) is left to that worker.

  // db: the transaction that writes the job's outcome with it, if any.

  finish(jobId: number, db: Sql = this.db): Promise<void> {
    return this.writeOwned("state = 'done', finished_at = ?, error = NULL", [nowIso()], jobId, db);
  }

  fail(jobId: number, error: string, db: Sql = this.db): Promise<void> {
    return this.writeOwned("state = 'failed', finished_at = ?, error = ?", [nowIso(), error], jobId, db);
  }

  /** Puts a job back for another try (after the analysis process was lost); the try counts. */
  retry(jobId: number, error: string): Promise<void> {
    return this.writeOwned("state = 'queued', error = ?", [error], jobId);
  }

  /** Puts a running job back without counting its try: the service is stopping cleanly, the document is not to blame. */
  release(jobId: number): Promise<void> {
    return this.writeOwned(
      "state = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END",
      [],
      jobId,
    );
  }

  private async writeOwned(set: string, args: Array<string | number>, jobId: number, db: Sql = this.db): Promise<void> {
    const owned = this.owned();
    await db.transaction(
      async (tx) =>
        void (await tx.run(
          `UPDATE jobs SET ${set} WHERE id = ? AND state = 'running'${owned.sql}`,
          ...args,
          jobId,
          ...owned.args,
        )),
      'deferred',
    );
  }

  /**
   * At start-up: whatever was running when the service died runs again, each such try counted (claim() counted it).
   * A job that has had `maxAttempts` tries is not queued again (it may be what brought the service down each time):
   * it is returned, still running, for the caller to fail.
   */
  requeueInterrupted(maxAttempts: number): Promise<{ requeued: number; exhausted: Job[] }> {
    return this.db.transaction(async (tx) => {
      const exhausted = await tx.all<Job>(
        "SELECT id, document_id, kind, attempts FROM jobs WHERE state = 'running' AND attempts >= ?",
        maxAttempts,
      );
      const { changes: requeued } = await tx.run(
        "UPDATE jobs SET state = 'queued' WHERE state = 'running' AND attempts < ?",
        maxAttempts,
      );
      return { requeued, exhausted };
    });
  }

  async pendingCount(): Promise<number> {
    const row = await this.db.get<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')");
    return Number(row!.n);
  }
}
