import type { FileFormat } from '../../common/archive-types.ts';
import { nowIso, type Database } from '../db/database.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { embeddingIndexFor } from '../search/embedding-index.ts';
import { readOcrLanguages } from '../catalog/space-ocr-languages.ts';
import { applyAnalysis, markFailed, markSkipped } from './apply-analysis.ts';
import { JobQueue, type Job } from './job-queue.ts';
import type { OcrInput } from './steps/ocr-report.ts';
import { WorkerPool } from './worker-pool.ts';

const MAX_ATTEMPTS = 3;

/** How long after the last upload was answered processing stays held back (the next upload of a burst is near). */
export const UPLOAD_GRACE_MS = 250;
/**
 * Uploads hold processing back for at most this long at a stretch: then one job goes through (and one more every
 * MAX_HOLD_MS), so a steady stream of uploads cannot stop processing.
 */
export const MAX_HOLD_MS = 5000;

/**
 * Drains the job queue through the worker pool. Wakes on notify() and on a slow timer (jobs queued by another
 * process, e.g. the CLI). The database is only written here, on the server's thread.
 *
 * Uploads take precedence (docs/benchmarks.md): while one is being received or accepted, and for UPLOAD_GRACE_MS
 * after, no job is claimed and a finished analysis waits before it is written. On two cores the worker's text
 * extraction and the results written on the server's thread (a transaction, the embedding, each with its disk
 * flush) otherwise compete with the uploads and more than doubled their accept latency. Durability is unchanged:
 * the 202 still follows the upload's own disk flushes and commit; only the processing that follows it waits.
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
  private uploads = 0;
  /** performance.now() at which the last upload's grace period ends. */
  private graceUntil = 0;
  /** performance.now() since which jobs have been held back for uploads (null: not held). */
  private heldSince: number | null = null;
  private resumeTimer: NodeJS.Timeout | undefined;
  private readonly graceMs: number;
  private readonly maxHoldMs: number;

  constructor(db: Database, blobs: BlobStore,
    options: { workers: number; log: (line: string) => void; uploadGraceMs?: number; maxHoldMs?: number }) {
    this.db = db;
    this.blobs = blobs;
    this.log = options.log;
    this.queue = new JobQueue(db);
    this.pool = new WorkerPool(options.workers);
    this.graceMs = options.uploadGraceMs ?? UPLOAD_GRACE_MS;
    this.maxHoldMs = options.maxHoldMs ?? MAX_HOLD_MS;
  }

  get jobs(): JobQueue {
    return this.queue;
  }

  /**
   * Called as an upload starts; the returned function as it is answered (whatever the outcome; calling it twice is
   * harmless). Until then, and for UPLOAD_GRACE_MS after, processing holds back.
   */
  holdForUpload(): () => void {
    this.uploads++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.uploads--;
      this.graceUntil = Math.max(this.graceUntil, performance.now() + this.graceMs);
      this.scheduleResume();
    };
  }

  /**
   * Whether uploads hold processing back now: 'hold', else 'go'; after MAX_HOLD_MS of holding, 'overdue' once (one
   * job goes through despite the uploads) and the clock restarts.
   */
  private uploadHold(): 'hold' | 'go' | 'overdue' {
    const now = performance.now();
    if (this.uploads === 0 && now >= this.graceUntil) {
      this.heldSince = null;
      return 'go';
    }
    this.heldSince ??= now;
    if (now - this.heldSince < this.maxHoldMs) return 'hold';
    this.heldSince = now;
    return 'overdue';
  }

  /** A wake-up for when the hold ends (or reaches MAX_HOLD_MS): notify() again then. */
  private scheduleResume(): void {
    if (this.stopped) return;
    const now = performance.now();
    const limit = (this.heldSince ?? now) + this.maxHoldMs;
    const at = this.uploads > 0 ? limit : Math.min(limit, this.graceUntil);
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.notify(), Math.max(0, at - now) + 1);
    this.resumeTimer.unref();
  }

  /** Resolves once uploads no longer hold processing back, or after MAX_HOLD_MS. */
  private async uploadsSettled(): Promise<void> {
    const started = performance.now();
    while (!this.stopped && (this.uploads > 0 || performance.now() < this.graceUntil) && performance.now() - started < this.maxHoldMs) {
      await new Promise<void>((resolve) => setTimeout(resolve, Math.max(5, Math.min(50, this.graceUntil - performance.now()))).unref());
    }
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
      const hold = this.uploadHold();
      if (hold === 'hold') {
        this.scheduleResume();
        break;
      }
      const job = this.queue.claim();
      if (!job) break;
      const task = this.process(job, hold === 'overdue').finally(() => {
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
    clearTimeout(this.resumeTimer);
    // Interrupted jobs stay 'running' in the database and are resumed by the next start().
    await this.pool.close();
    await Promise.allSettled([...this.running]);
  }

  private async process(job: Job, overdue: boolean): Promise<void> {
    const doc = this.db.prepare(`SELECT d.sha256, d.file_format, d.original_filename, d.duplicate_of, d.space_id, s.ocr_languages
      FROM documents d JOIN spaces s ON s.id = d.space_id WHERE d.id = ?`)
      .get(job.document_id) as {
        sha256: string; file_format: string; original_filename: string; duplicate_of: string | null; space_id: string;
        ocr_languages: string | null;
      } | undefined;
    if (!doc) return this.queue.fail(job.id, 'document missing');
    if (job.kind === 'process' && doc.duplicate_of) {
      markSkipped(this.db, job.document_id);
      return this.queue.finish(job.id);
    }
    try {
      const input: OcrInput = {
        documentId: job.document_id, filePath: this.blobs.pathOf(doc.sha256),
        format: doc.file_format as FileFormat, originalFilename: doc.original_filename,
        categories: (this.db.prepare('SELECT name FROM categories WHERE space_id = ? ORDER BY name').all(doc.space_id) as
          Array<{ name: string }>).map((c) => c.name),
        today: nowIso().slice(0, 10),
      };
      const ocrLanguages = readOcrLanguages(doc.ocr_languages);
      if (ocrLanguages) input.ocrLanguages = ocrLanguages;
      const analysis = await this.pool.run(input);
      if (this.stopped) return;
      // The worker's part is done; writing the result (on this thread, with disk flushes) waits for the uploads,
      // unless this is the job let through because the hold lasted too long.
      if (!overdue) await this.uploadsSettled();
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
