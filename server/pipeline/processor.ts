import type { FileFormat } from '../../common/archive-types.ts';
import { errorMessage } from '../../common/errors.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import type { BlobStorage, LocalCopy } from '../storage/blob-storage.ts';
import { embeddingIndexFor } from '../search/embedding-index.ts';
import { readOcrLanguages } from '../catalog/space-ocr-languages.ts';
import { llmJobSetting } from '../intelligence/llm/llm-settings.ts';
import { applyAnalysis, markFailed, markSkipped } from './apply-analysis.ts';
import { JobLeaseLost, JobQueue, type Job, type JobClaimer, type JobLease, type JobSignals } from './job-queue.ts';
import { DEFAULT_PROCESSING_LIMITS, type ProcessingLimits } from './processing-limits.ts';
import type { OcrInput } from './steps/ocr-report.ts';
import { AnalysisProcessLost, WorkerPool, type RunningAnalysis } from './worker-pool.ts';
import { processingMessage } from '../../common/processing-messages.ts';

/** How often the queue is looked at when nothing said a job was queued. */
export const POLL_INTERVAL_MS = 2000;
/** How long after the last upload was answered processing stays held back (the next upload of a burst is near). */
export const UPLOAD_GRACE_MS = 250;
/**
 * Uploads hold processing back for at most this long at a stretch: then one job goes through (and one more every
 * MAX_HOLD_MS), so a steady stream of uploads cannot stop processing.
 */
export const MAX_HOLD_MS = 5000;
/**
 * An upload whose body brings fewer than UPLOAD_STALL_BYTES in UPLOAD_STALL_MS stops holding processing back until it
 * brings that much again: a client trickling its body (or sending none) costs the machine nothing, and must not slow
 * processing for as long as it keeps the request open.
 */
export const UPLOAD_STALL_MS = 2000;
export const UPLOAD_STALL_BYTES = 64 * 1024;

/** Releases an upload's hold (calling it twice is harmless); `received` reports body bytes as they arrive. */
export type UploadHold = (() => void) & { received(bytes: number): void };

/** One upload in flight: it holds processing back until `activeUntil` (performance.now()), renewed by its body bytes. */
interface InFlightUpload {
  activeUntil: number;
  bytesSinceRenewal: number;
}

/** A job being worked on: `long` once it has run longer than longJobMs and no longer holds a worker slot. */
interface ActiveJob {
  job: Job;
  long: boolean;
  analysis: RunningAnalysis | null;
}

/**
 * Drains the job queue through the worker pool. Wakes on notify() and on a slow timer (jobs queued by another
 * process, e.g. the CLI). The database is only written here, on the server's thread.
 *
 * Fair sharing: `workers` jobs run at a time, but a job running longer than longJobMs gives its slot to the next
 * document and goes on at low priority (at most `workers` such long jobs), so a small document uploaded after a
 * 3000-page scan starts at once instead of hours later. Every job has a time limit and a memory limit
 * (worker-pool.ts); a job whose analysis process is lost is tried maxAttempts times in all, across restarts too.
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
  private readonly running = new Map<Promise<void>, ActiveJob>();
  private readonly workers: number;
  private readonly limits: ProcessingLimits;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The claim loop while it runs (notify() starts it; stop() waits for it). */
  private filling: Promise<void> | null = null;
  private fillAgain = false;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly statusListeners = new Set<(documentId: string) => void>();
  private readonly db: Sql;
  private readonly blobs: BlobStorage;
  private readonly log: (line: string) => void;
  private readonly uploads = new Set<InFlightUpload>();
  /** performance.now() at which the last upload's grace period ends. */
  private graceUntil = 0;
  /** performance.now() since which jobs have been held back for uploads (null: not held). */
  private heldSince: number | null = null;
  private resumeTimer: NodeJS.Timeout | undefined;
  private readonly graceMs: number;
  private readonly maxHoldMs: number;
  private readonly stallMs: number;
  private readonly pollIntervalMs: number;
  /** Stops listening for jobs other processes queue (set while started, with signals and workers). */
  private stopListening: (() => Promise<void>) | null = null;

  constructor(
    db: Sql,
    blobs: BlobStorage,
    options: {
      workers: number;
      /** How jobs are taken from the queue (PostgreSQL: skipping rows other workers hold). */
      claimJob?: JobClaimer;
      /** Jobs leased to this process, where several share the queue (PostgreSQL); null: this process owns it. */
      lease?: JobLease | null;
      /** Jobs queued by other processes announced (PostgreSQL): claimed at once instead of at the next poll. */
      signals?: JobSignals | null;
      /** How often the queue is looked at without a notice (jobs queued by another process, or a notice missed). */
      pollIntervalMs?: number;
      log: (line: string) => void;
      uploadGraceMs?: number;
      maxHoldMs?: number;
      uploadStallMs?: number;
      limits?: Partial<ProcessingLimits>;
    },
  ) {
    this.db = db;
    this.blobs = blobs;
    this.log = options.log;
    this.queue = new JobQueue(db, { claimJob: options.claimJob, lease: options.lease, signals: options.signals });
    this.pollIntervalMs = options.pollIntervalMs ?? POLL_INTERVAL_MS;
    this.workers = options.workers;
    this.limits = { ...DEFAULT_PROCESSING_LIMITS, ...options.limits };
    this.pool = new WorkerPool({
      idleProcesses: options.workers,
      memoryMb: this.limits.memoryMb,
      jobTimeoutMs: this.limits.jobTimeoutMs,
    });
    this.graceMs = options.uploadGraceMs ?? UPLOAD_GRACE_MS;
    this.maxHoldMs = options.maxHoldMs ?? MAX_HOLD_MS;
    this.stallMs = options.uploadStallMs ?? UPLOAD_STALL_MS;
  }

  get jobs(): JobQueue {
    return this.queue;
  }

  /**
   * Called as an upload starts; the returned function as it is answered (whatever the outcome; calling it twice is
   * harmless). Until then, and for UPLOAD_GRACE_MS after, processing holds back, except while the upload stalls
   * (UPLOAD_STALL_MS without UPLOAD_STALL_BYTES reported to `received`).
   */
  holdForUpload(): UploadHold {
    const upload: InFlightUpload = { activeUntil: performance.now() + this.stallMs, bytesSinceRenewal: 0 };
    this.uploads.add(upload);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.uploads.delete(upload);
      this.graceUntil = Math.max(this.graceUntil, performance.now() + this.graceMs);
      this.scheduleResume();
    };
    return Object.assign(release, {
      received: (bytes: number): void => {
        upload.bytesSinceRenewal += bytes;
        if (upload.bytesSinceRenewal < UPLOAD_STALL_BYTES) return;
        upload.bytesSinceRenewal = 0;
        upload.activeUntil = performance.now() + this.stallMs;
      },
    });
  }

  /** Until when (performance.now()) uploads in flight hold processing back; in the past when none does. */
  private uploadsActiveUntil(): number {
    let until = 0;
    for (const upload of this.uploads) until = Math.max(until, upload.activeUntil);
    return until;
  }

  /**
   * Whether uploads hold processing back now: 'hold', else 'go'; after MAX_HOLD_MS of holding, 'overdue' once (one
   * job goes through despite the uploads) and the clock restarts.
   */
  private uploadHold(): 'hold' | 'go' | 'overdue' {
    const now = performance.now();
    if (now >= this.uploadsActiveUntil() && now >= this.graceUntil) {
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
    const at = Math.min(limit, Math.max(this.uploadsActiveUntil(), this.graceUntil));
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.notify(), Math.max(0, at - now) + 1);
    this.resumeTimer.unref();
  }

  /** Resolves once uploads no longer hold processing back, or after MAX_HOLD_MS. */
  private async uploadsSettled(): Promise<void> {
    const started = performance.now();
    const held = (): boolean => performance.now() < Math.max(this.uploadsActiveUntil(), this.graceUntil);
    while (!this.stopped && held() && performance.now() - started < this.maxHoldMs) {
      await new Promise<void>((resolve) =>
        setTimeout(resolve, Math.max(5, Math.min(50, this.graceUntil - performance.now()))).unref(),
      );
    }
  }

  async start(): Promise<void> {
    // With leases, a running job may be another live worker's: it is taken over only once its lease runs out (claim).
    if (!this.queue.lease) {
      const { requeued, exhausted } = await this.queue.requeueInterrupted(this.limits.maxAttempts);
      if (requeued > 0) this.log(`resuming ${requeued} interrupted processing job(s)`);
      for (const job of exhausted) {
        await this.giveUp(job, processingMessage('interrupted', { tries: job.attempts }));
      }
    }
    // A process without workers (a service instance beside `npm run worker` processes) claims nothing: it need not hear.
    if (this.queue.signals && this.workers > 0)
      this.stopListening = await this.queue.signals.listen(() => this.notify(), this.log);
    this.timer = setInterval(() => this.notify(), this.pollIntervalMs);
    this.timer.unref();
    this.notify();
  }

  /** Jobs holding a worker slot (not yet long). */
  private get fresh(): number {
    let count = 0;
    for (const active of this.running.values()) if (!active.long) count++;
    return count;
  }

  /** Starts queued jobs while slots are free; called again while it is claiming, it goes round once more after. */
  notify(): void {
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: unknown) => this.log(`claiming a job failed: ${errorMessage(error)}`))
      .finally(() => {
        this.filling = null;
        if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
  }

  private async fill(): Promise<void> {
    do {
      this.fillAgain = false;
      await this.claimWhileFree();
    } while (this.fillAgain && !this.stopped);
  }

  private async claimWhileFree(): Promise<void> {
    while (!this.stopped && this.fresh < this.workers && this.running.size < 2 * this.workers) {
      const hold = this.uploadHold();
      if (hold === 'hold') {
        this.scheduleResume();
        break;
      }
      const job = await this.queue.claim();
      if (!job) break;
      if (this.stopped) {
        await this.queue.release(job.id);
        break;
      }
      if (job.attempts > this.limits.maxAttempts) {
        // Taken over after its lease ran out, again and again: whatever ran it was lost each time.
        await this.giveUp(job, processingMessage('workerLost', { times: job.attempts - 1 }));
        continue;
      }
      this.statusChanged(job.document_id);
      const active: ActiveJob = { job, long: false, analysis: null };
      const longTimer = setTimeout(() => {
        active.long = true;
        active.analysis?.lowerPriority();
        this.notify();
      }, this.limits.longJobMs);
      longTimer.unref();
      const task = this.process(active, hold === 'overdue').finally(() => {
        clearTimeout(longTimer);
        this.running.delete(task);
        this.statusChanged(job.document_id);
        this.notify();
      });
      this.running.set(task, active);
    }
  }

  /**
   * Called with a document's id when its processing starts and when it ends (completed, failed, skipped, retried):
   * the desktop app, which runs this service in its own process, shows statuses as they change without polling.
   */
  onStatusChange(listener: (documentId: string) => void): () => void {
    this.statusListeners.add(listener);
    return () => void this.statusListeners.delete(listener);
  }

  private statusChanged(documentId: string): void {
    for (const listener of this.statusListeners) {
      try {
        listener(documentId);
      } catch (error) {
        this.log(`status listener failed: ${errorMessage(error)}`);
      }
    }
  }

  /** Resolves when nothing is queued or running (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    if (this.running.size === 0 && !this.filling && (await this.queue.pendingCount()) === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    return this.idle();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.resumeTimer);
    await this.stopListening?.();
    await this.filling;
    const interrupted = [...this.running.values()].map((active) => active.job.id);
    await this.pool.close();
    await Promise.allSettled([...this.running.keys()]);
    // A clean stop is not the document's fault: its jobs go back to the queue without counting the try. (A crash
    // leaves them running, counted, for the next start().)
    for (const jobId of interrupted) await this.queue.release(jobId);
  }

  private async giveUp(job: Job, reason: string): Promise<void> {
    const ours = await this.endOwned(job, async (tx) => {
      await markFailed(tx, job.document_id, processingMessage('failed', { reason }));
      await this.queue.fail(job.id, reason, tx);
    });
    if (ours) this.log(`processing ${job.document_id} failed: ${reason}`);
  }

  /**
   * Writes a job's outcome in one transaction, only while the job is still this process's: a job taken over after its
   * lease ran out is the new owner's, and so is its document's status. False (and logged) when it was taken over.
   */
  private async endOwned(job: Job, write: (tx: Sql) => Promise<void>): Promise<boolean> {
    try {
      await this.db.transaction(async (tx) => {
        await this.queue.assertOwned(tx, job.id);
        await write(tx);
      }, 'deferred');
      return true;
    } catch (error) {
      if (!(error instanceof JobLeaseLost)) throw error;
      this.log(errorMessage(error));
      return false;
    }
  }

  private async process(active: ActiveJob, overdue: boolean): Promise<void> {
    const { job } = active;
    const doc = await this.db.get<{
      sha256: string;
      file_format: string;
      original_filename: string;
      duplicate_of: string | null;
      space_id: string;
      ocr_languages: string | null;
    }>(
      `SELECT d.sha256, d.file_format, d.original_filename, d.duplicate_of, d.space_id, s.ocr_languages
      FROM documents d JOIN spaces s ON s.id = d.space_id WHERE d.id = ?`,
      job.document_id,
    );
    if (!doc) return this.queue.fail(job.id, 'document missing');
    if (job.kind === 'process' && doc.duplicate_of) {
      await this.endOwned(job, async (tx) => {
        await markSkipped(tx, job.document_id);
        await this.queue.finish(job.id, tx);
      });
      return;
    }
    let copy: LocalCopy | null = null;
    // The lease is renewed while the job runs; a renewal that finds the job gone to another worker ends nothing by
    // itself (the analysis runs on), but the result is then not written (assertOwned below).
    const renewal = this.queue.lease
      ? setInterval(
          () =>
            void this.queue
              .renewLease(job.id)
              .then((ours) => ours || this.log(`lost the lease of job ${job.id} (${job.document_id})`))
              .catch((error: unknown) => this.log(`renewing job ${job.id}'s lease failed: ${errorMessage(error)}`)),
          this.queue.lease.ms / 3,
        )
      : undefined;
    renewal?.unref();
    try {
      copy = await this.blobs.localCopy(doc.sha256);
      const input: OcrInput = {
        documentId: job.document_id,
        filePath: copy.path,
        format: doc.file_format as FileFormat,
        originalFilename: doc.original_filename,
        categories: (
          await this.db.all<{
            name: string;
          }>('SELECT name FROM categories WHERE space_id = ? ORDER BY name', doc.space_id)
        ).map((c) => c.name),
        today: nowIso().slice(0, 10),
      };
      const ocrLanguages = readOcrLanguages(doc.ocr_languages);
      if (ocrLanguages) input.ocrLanguages = ocrLanguages;
      // Read per job: `llm set` / `llm off` apply from the next document on, without a restart.
      const llm = await llmJobSetting(this.db, process.env);
      if (llm) input.llm = llm;
      input.limits = {
        maxPages: this.limits.maxPages,
        maxStreamBytes: this.limits.maxStreamBytes,
        maxDecodedBytes: this.limits.maxDecodedBytes,
        maxImagePixels: this.limits.maxImagePixels,
      };
      active.analysis = this.pool.run(input);
      if (active.long) active.analysis.lowerPriority();
      const analysis = await active.analysis.result;
      if (this.stopped) return;
      // The worker's part is done; writing the result (on this thread, with disk flushes) waits for the uploads,
      // unless this is the job let through because the hold lasted too long.
      if (!overdue) await this.uploadsSettled();
      if (this.stopped) return;
      await this.db.transaction(async (tx) => {
        await this.queue.assertOwned(tx, job.id);
        await applyAnalysis(tx, job.document_id, analysis, job.kind === 'process');
      });
      // Before finish(): idle() then also means "searchable". A failed embedding leaves full-text search intact.
      await embeddingIndexFor(this.db)
        .index(job.document_id)
        .catch((error: unknown) => this.log(`embedding ${job.document_id} failed: ${String(error)}`));
      await this.queue.finish(job.id);
    } catch (error) {
      if (this.stopped) return;
      if (error instanceof JobLeaseLost) return void this.log(errorMessage(error));
      const message = errorMessage(error);
      // A limit is the document's own: another try would end the same way. A lost process may have been bad luck.
      if (error instanceof AnalysisProcessLost) {
        if (job.attempts < this.limits.maxAttempts) return this.queue.retry(job.id, message);
        return this.giveUp(job, processingMessage('notTriedAgain', { reason: message, tries: job.attempts }));
      }
      await this.giveUp(job, message);
    } finally {
      clearInterval(renewal);
      await copy
        ?.release()
        .catch((error: unknown) => this.log(`removing an analysis copy failed: ${errorMessage(error)}`));
    }
  }
}
