import type { FileFormat } from '../../common/archive-types.ts';
import { nowIso, type Database } from '../db/database.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { embeddingIndexFor } from '../search/embedding-index.ts';
import { applyAnalysis, markFailed, markSkipped } from './apply-analysis.ts';
import { JobQueue, type Job } from './job-queue.ts';
import { WorkerPool } from './worker-pool.ts';

const MAX_ATTEMPTS = 3;

/**
 * Drains the job queue through the worker pool. Wakes on notify() and on a slow timer (jobs queued by another
 * process, e.g. the CLI). The database is only written here, on the server's thread.
 */
export class DocumentProcessor {
  private readonly queue: JobQueue;
  private readonly pool: WorkerPool;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly db: Database;
  private readonly blobs: BlobStore;
  private readonly log: (line: string) => void;

  constructor(db: Database, blobs: BlobStore, options: { workers: number; log: (line: string) => void }) {
    this.db = db;
    this.blobs = blobs;
    this.log = options.log;
    this.queue = new JobQueue(db);
    this.pool = new WorkerPool(options.workers);
  }

  get jobs(): JobQueue {
    return this.queue;
  }

  start(): void {
    const resumed = this.queue.requeueInterrupted();
    if (resumed > 0) this.log(`resuming ${resumed} interrupted processing job(s)`);
    this.timer = setInterval(() => this.notify(), 2000);
    this.timer.unref();
    this.notify();
  }

  notify(): void {
    while (!this.stopped && this.running.size < this.pool.size) {
      const job = this.queue.claim();
      if (!job) break;
      const task = this.process(job).finally(() => {
        this.running.delete(task);
        this.notify();
      });
      this.running.add(task);
    }
    if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves when nothing is queued or running (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    if (this.running.size === 0 && this.queue.pendingCount() === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    return this.idle();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    // Interrupted jobs stay 'running' in the database and are resumed by the next start().
    await this.pool.close();
    await Promise.allSettled([...this.running]);
  }

  private async process(job: Job): Promise<void> {
    const doc = this.db.prepare('SELECT sha256, file_format, original_filename, duplicate_of, space_id FROM documents WHERE id = ?')
      .get(job.document_id) as {
        sha256: string; file_format: string; original_filename: string; duplicate_of: string | null; space_id: string;
      } | undefined;
    if (!doc) return this.queue.fail(job.id, 'document missing');
    if (job.kind === 'process' && doc.duplicate_of) {
      markSkipped(this.db, job.document_id);
      return this.queue.finish(job.id);
    }
    try {
      const analysis = await this.pool.run({
        documentId: job.document_id, filePath: this.blobs.pathOf(doc.sha256),
        format: doc.file_format as FileFormat, originalFilename: doc.original_filename,
        categories: (this.db.prepare('SELECT name FROM categories WHERE space_id = ? ORDER BY name').all(doc.space_id) as
          Array<{ name: string }>).map((c) => c.name),
        today: nowIso().slice(0, 10),
      });
      if (this.stopped) return;
      applyAnalysis(this.db, job.document_id, analysis, job.kind === 'process');
      // Before finish(): idle() then also means "searchable". A failed embedding leaves full-text search intact.
      await embeddingIndexFor(this.db).index(job.document_id)
        .catch((error: unknown) => this.log(`embedding ${job.document_id} failed: ${String(error)}`));
      this.queue.finish(job.id);
    } catch (error) {
      if (this.stopped) return;
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts < MAX_ATTEMPTS && /worker exited|terminated/.test(message)) {
        this.queue.retry(job.id, message);
        return;
      }
      this.log(`processing ${job.document_id} failed: ${message}`);
      markFailed(this.db, job.document_id, `Processing failed: ${message}`);
      this.queue.fail(job.id, message);
    }
  }
}
