import { nowIso, transaction, type Database } from '../db/database.ts';

export type JobKind = 'process' | 'reprocess';
export interface Job {
  id: number;
  document_id: string;
  kind: JobKind;
  attempts: number;
}

/** The durable processing queue (table `jobs`). At most one queued-or-running job per document, by a unique index. */
export class JobQueue {
  private readonly db: Database;
  constructor(db: Database) {
    this.db = db;
  }

  /** Queues a job; returns false when the document is already in the pipeline. */
  enqueue(documentId: string, kind: JobKind): boolean {
    const result = this.db
      .prepare(
        `INSERT INTO jobs (document_id, kind, state, created_at) VALUES (?, ?, 'queued', ?)
      ON CONFLICT DO NOTHING`,
      )
      .run(documentId, kind, nowIso());
    return result.changes > 0;
  }

  isActive(documentId: string): boolean {
    return !!this.db
      .prepare("SELECT 1 FROM jobs WHERE document_id = ? AND state IN ('queued', 'running')")
      .get(documentId);
  }

  // Bookkeeping of the pipeline commits with deferred durability: a claim, a finish or a failure lost to a power cut
  // leaves the job queued or running, and start-up runs it again (requeueInterrupted). Enqueueing is part of the
  // upload's own transaction, which is durable.

  /** Takes the oldest queued job and marks it running (and its document processing). */
  claim(): Job | undefined {
    return transaction(
      this.db,
      () => {
        const job = this.db
          .prepare(
            `UPDATE jobs SET state = 'running', started_at = ?, attempts = attempts + 1
        WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1)
        RETURNING id, document_id, kind, attempts`,
          )
          .get(nowIso()) as Job | undefined;
        if (job)
          this.db
            .prepare("UPDATE documents SET status = 'processing' WHERE id = ? AND status <> 'processing'")
            .run(job.document_id);
        return job;
      },
      'deferred',
    );
  }

  finish(jobId: number): void {
    this.write("UPDATE jobs SET state = 'done', finished_at = ?, error = NULL WHERE id = ?", nowIso(), jobId);
  }

  fail(jobId: number, error: string): void {
    this.write("UPDATE jobs SET state = 'failed', finished_at = ?, error = ? WHERE id = ?", nowIso(), error, jobId);
  }

  /** Puts a job back for another try (after the analysis process was lost); the try counts. */
  retry(jobId: number, error: string): void {
    this.write("UPDATE jobs SET state = 'queued', error = ? WHERE id = ?", error, jobId);
  }

  /** Puts a running job back without counting its try: the service is stopping cleanly, the document is not to blame. */
  release(jobId: number): void {
    this.write(
      "UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0) WHERE id = ? AND state = 'running'",
      jobId,
    );
  }

  private write(sql: string, ...params: Array<string | number>): void {
    transaction(this.db, () => void this.db.prepare(sql).run(...params), 'deferred');
  }

  /**
   * At start-up: whatever was running when the service died runs again, each such try counted (claim() counted it).
   * A job that has had `maxAttempts` tries is not queued again (it may be what brought the service down each time):
   * it is returned, still running, for the caller to fail.
   */
  requeueInterrupted(maxAttempts: number): { requeued: number; exhausted: Job[] } {
    return transaction(this.db, () => {
      const exhausted = this.db
        .prepare("SELECT id, document_id, kind, attempts FROM jobs WHERE state = 'running' AND attempts >= ?")
        .all(maxAttempts) as unknown as Job[];
      const requeued = Number(
        this.db.prepare("UPDATE jobs SET state = 'queued' WHERE state = 'running' AND attempts < ?").run(maxAttempts)
          .changes,
      );
      return { requeued, exhausted };
    });
  }

  pendingCount(): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')").get() as { n: number }
    ).n;
  }
}
