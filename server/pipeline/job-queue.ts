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

/** The durable processing queue (table `jobs`). At most one queued-or-running job per document, by a unique index. */
export class JobQueue {
  private readonly db: Sql;
  private readonly claimJob: JobClaimer;
  constructor(db: Sql, claimJob: JobClaimer = claimOldestQueued) {
    this.db = db;
    this.claimJob = claimJob;
  }

  /** Queues a job; returns false when the document is already in the pipeline. db: a transaction's handle, if any. */
  async enqueue(documentId: string, kind: JobKind, db: Sql = this.db): Promise<boolean> {
    const result = await db.run(
      `INSERT INTO jobs (document_id, kind, state, created_at) VALUES (?, ?, 'queued', ?) ON CONFLICT DO NOTHING`,
      documentId,
      kind,
      nowIso(),
    );
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

  finish(jobId: number): Promise<void> {
    return this.write("UPDATE jobs SET state = 'done', finished_at = ?, error = NULL WHERE id = ?", nowIso(), jobId);
  }

  fail(jobId: number, error: string): Promise<void> {
    return this.write(
      "UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?",
      nowIso(),
      error,
      jobId,
    );
  }

  /** Puts a job back for another try (after the analysis process was lost); the try counts. */
  retry(jobId: number, error: string): Promise<void> {
    return this.write("UPDATE jobs SET state = 'queued', error = ? WHERE id = ?", error, jobId);
  }

  /** Puts a running job back without counting its try: the service is stopping cleanly, the document is not to blame. */
  release(jobId: number): Promise<void> {
    return this.write(
      `UPDATE jobs SET state = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
      WHERE id = ? AND state = 'running'`,
      jobId,
    );
  }

  private async write(sql: string, ...params: Array<string | number>): Promise<void> {
    await this.db.transaction(async (tx) => void (await tx.run(sql, ...params)), 'deferred');
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
