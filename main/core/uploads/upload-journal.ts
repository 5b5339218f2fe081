import { setTimeout as sleep } from 'node:timers/promises';
import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import type { UploadMetadata } from '../../../common/archive-types.ts';
import { errorMessage, errorStack } from '../../../common/errors.ts';
import { afterUploadSummary } from '../../../common/after-upload-summary.ts';
import { FILE_GONE } from '../../../common/file-problems.ts';
import type { WatchedFolder } from '../../../common/settings.ts';
import { ArchiveError } from '../client/archive-error.ts';
import { toArchiveError } from '../client/to-archive-error.ts';
import type { BackoffOptions } from '../client/backoff.ts';
import { ConnectionMonitor, type ConnectionState } from '../client/connection-monitor.ts';
import { applyAfterUpload } from '../watcher/after-upload.ts';
import type { ReadyFile } from '../watcher/folder-watcher.ts';
import { mergeTags } from '../watcher/tags.ts';
import { runAfterUploadAction } from './after-upload-step.ts';
import { droppedMetadata, statDroppedFiles } from './dropped-files.ts';
import { checkFile } from './file-check.ts';
import type { JournalStore, UploadItem, UploadState } from './journal-store.ts';
import type { Connectivity, JournalEvents, UploadJournalOptions, UploadTransport } from './journal-types.ts';
import { fileState, planCheckFailure, planLocalProblem, type FileState } from './local-problems.ts';
import { stillArchived } from './still-archived.ts';
import { planUploadFailure } from './upload-failures.ts';
import { uploadRequest } from './upload-request.ts';

// Re-exported: importers know these names from this module.
export type { Connectivity, JournalEvents, UploadJournalOptions, UploadTransport } from './journal-types.ts';

const ACTIVE: ReadonlySet<UploadState> = new Set(['queued', 'hashing', 'waiting', 'paused']);

/**
 * The zero-loss upload queue. Every file is a row in SQLite before anything else happens, and every step commits its
 * state: queued → hashing → waiting → uploading → accepted → done (or failed / paused). After a crash, `start()` puts
 * half-done steps back (hashing → queued, uploading → waiting) and finishes accepted items' after-upload actions.
 * At-least-once: an upload interrupted after the service took it is sent again, and the service's duplicate detection
 * answers 202 with `duplicate_of`, so the archive still holds the file once.
 */
/** How often a journal that could not be written tries again (heal). */
const JOURNAL_HEAL_MS = 30_000;

/** An error of the journal's own SQLite database (node:sqlite), as opposed to the file, the network or the service. */
function isJournalWriteFailure(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_SQLITE_ERROR';
}

export class UploadJournal extends EventEmitter<JournalEvents> {
  private readonly store: JournalStore;
  private readonly transport: UploadTransport;
  private readonly folderOf: (id: string) => WatchedFolder | undefined;
  private readonly afterUpload: NonNullable<UploadJournalOptions['afterUpload']>;
  private readonly check: NonNullable<UploadJournalOptions['check']>;
  private readonly hashConcurrency: number;
  private readonly uploadConcurrency: number;
  private readonly retryBackoff: BackoffOptions;
  private readonly connection: ConnectionMonitor;
  /** Whether this journal started the monitor (a fallback of its own) and so stops it. */
  private readonly ownsConnection: boolean;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly hashing = new Set<number>();
  private readonly uploading = new Map<number, AbortController>();
  private readonly finishing = new Set<number>();
  private readonly work = new Set<Promise<void>>();
  private state: Connectivity;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private countsQueued = false;
  private pumpQueued = false;
  private stopped = false;
  private healTimer: NodeJS.Timeout | undefined;
  /** Aborted by stop(): an after-upload action waiting for its file to settle is left for the next start. */
  private run = new AbortController();

  constructor(options: UploadJournalOptions) {
    super();
    this.store = options.store;
    this.transport = options.transport;
    this.folderOf = options.folder;
    this.afterUpload = options.afterUpload ?? applyAfterUpload;
    this.check = options.check ?? checkFile;
    this.hashConcurrency = options.hashConcurrency ?? 2;
    this.uploadConcurrency = options.uploadConcurrency ?? 2;
    this.retryBackoff = options.retryBackoff ?? { baseMs: 2_000, capMs: 5 * 60_000 };
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    const transport = options.transport;
    this.ownsConnection = !transport.connection;
    this.connection =
      transport.connection ??
      new ConnectionMonitor({
        probe: async (signal) => {
          await transport.health(signal);
        },
        now: this.now,
      });
    this.state = {
      online: this.connection.online,
      authRequired: false,
      paused: options.paused ?? false,
      reason: this.connection.reason,
    };
  }

  get connectivity(): Connectivity {
    return { ...this.state };
  }
  counts(): Record<UploadState, number> {
    return this.store.counts();
  }
  list(options: { states?: readonly UploadState[]; limit?: number; offset?: number } = {}): {
    items: UploadItem[];
    total: number;
  } {
    return this.store.list({ states: options.states, limit: options.limit ?? 100, offset: options.offset ?? 0 });
  }
  get(id: number): UploadItem | undefined {
    return this.store.get(id);
  }

  /** Resumes after a crash or a restart, then keeps the queue moving. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    this.run = new AbortController();
    this.connection.on('change', this.onConnection);
    this.onConnection(this.connection.current);
    if (this.ownsConnection) this.connection.start();
    const recovered = this.store.recover(this.now());
    if (recovered.rehash + recovered.reupload + recovered.after > 0) {
      this.log(
        `journal: resuming after restart (${recovered.rehash} to hash, ${recovered.reupload} to upload again, ${recovered.after} to finish)`,
      );
    }
    for (const item of this.store.list({ states: ['accepted'], limit: 10_000, offset: 0 }).items)
      this.track(this.finish(item));
    this.pump();
  }

  /**
   * Asks the service once whether it answers (health, no key needed) and returns it: a status line must not report
   * a service nobody has reached yet. A check whose signal fires before any answer counts as unreachable. The
   * outcome sets the shared connection state, which the journal follows.
   */
  checkConnection(signal?: AbortSignal): Promise<boolean> {
    return this.connection.check(signal);
  }

  /** Stops taking work; uploads in flight are cancelled and go back to waiting (the journal stays consistent). */
  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
    this.run.abort();
    if (this.timer) clearTimeout(this.timer);
    clearTimeout(this.healTimer);
    this.healTimer = undefined;
    this.connection.off('change', this.onConnection);
    if (this.ownsConnection) await this.connection.stop();
    for (const controller of this.uploading.values())
      controller.abort(new ArchiveError('The upload queue stopped', { kind: 'aborted' }));
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  // ---- adding work ----------------------------------------------------------------------------------------------

  /**
   * A complete file from a watched folder. Known versions (same path, size and mtime) are ignored, so duplicate
   * watcher events and catch-up scans queue nothing twice; a changed file supersedes its waiting or failed row.
   */
  addFolderFile(file: ReadyFile): UploadItem | null {
    const folder = this.folderOf(file.folderId);
    if (!folder) return null;
    const latest = this.store.latestForPath(file.path);
    // A row that failed because its file had vanished does not make the file known: it is back, so it goes again.
    const vanished = latest?.state === 'failed' && latest.last_error?.startsWith(FILE_GONE) === true;
    if (latest && !vanished && latest.size === file.size && latest.mtime_ms === file.mtimeMs) return null;
    const tags = mergeTags(folder.metadata.tags, file.subfolderTags);
    const metadata: UploadMetadata = { ...folder.metadata, ...(tags.length > 0 ? { tags } : {}) };
    const fields = { size: file.size, mtime_ms: file.mtimeMs, space_id: folder.space_id ?? null, metadata };
    let item: UploadItem;
    if (latest && (ACTIVE.has(latest.state) || latest.state === 'failed') && !this.hashing.has(latest.id)) {
      item = this.store.update(
        latest.id,
        {
          ...fields,
          sha256: null,
          state: 'queued',
          attempts: 0,
          next_attempt_at: 0,
          last_error: null,
        },
        this.now(),
      );
      this.log(`queued again (changed): ${file.path}`);
    } else {
      item = this.store.insert(
        {
          source: 'folder',
          folder_id: folder.id,
          path: file.path,
          relative_path: file.relativePath,
          file_name: basename(file.path),
          ...fields,
        },
        this.now(),
      );
      this.log(`queued: ${file.path}`);
    }
    this.changed(item);
    return item;
  }

  /** Files the user dropped on the app, with the metadata form's values. Validated like the service would. */
  async addFiles(
    paths: readonly string[],
    options: { spaceId?: string; metadata?: unknown } = {},
  ): Promise<UploadItem[]> {
    const metadata = droppedMetadata(options.metadata);
    const files = await statDroppedFiles(paths);
    const items = files.map((file) =>
      this.store.insert(
        {
          source: 'manual',
          folder_id: null,
          path: file.path,
          relative_path: basename(file.path),
          file_name: basename(file.path),
          size: file.size,
          mtime_ms: file.mtimeMs,
          space_id: options.spaceId ?? null,
          metadata,
        },
        this.now(),
      ),
    );
    for (const item of items) {
      this.log(`queued: ${item.path}`);
      this.changed(item);
    }
    return items;
  }

  // ---- user actions -----------------------------------------------------------------------------------------------

  pause(): void {
    this.setState({ paused: true });
  }
  resume(): void {
    this.setState({ paused: false });
    this.pump();
  }

  /** A new key was set on the transport: uploads continue. */
  authRenewed(): void {
    this.setState({ authRequired: false, reason: null });
    this.pump();
  }

  pauseItem(id: number): UploadItem | undefined {
    const item = this.store.get(id);
    if (!item || !['queued', 'waiting'].includes(item.state)) return item;
    return this.changed(this.store.update(id, { state: 'paused' }, this.now()));
  }

  /** A paused or failed item goes back into the queue (a failed one is checked afresh). */
  retry(id: number): UploadItem | undefined {
    const item = this.store.get(id);
    if (!item || !['paused', 'failed'].includes(item.state)) return item;
    const next = this.changed(
      this.store.update(
        id,
        {
          state: item.sha256 && item.state === 'paused' ? 'waiting' : 'queued',
          attempts: 0,
          next_attempt_at: 0,
          last_error: null,
        },
        this.now(),
      ),
    );
    this.pump();
    return next;
  }

  /** Forgets an item that is not in the middle of being uploaded (the file itself is never touched). */
  remove(id: number): boolean {
    const item = this.store.get(id);
    if (!item || item.state === 'uploading' || item.state === 'accepted' || this.hashing.has(id)) return false;
    this.store.delete(id);
    this.emit('removed', id);
    this.queueCounts();
    return true;
  }

  // ---- the engine -------------------------------------------------------------------------------------------------

  /** Fills free hashing and upload slots with due items and sets a timer for the next one. */
  private pump(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.now();
    const freeHash = this.hashConcurrency - this.hashing.size;
    if (freeHash > 0) {
      for (const item of this.store.due('queued', now, freeHash + this.hashing.size)) {
        if (this.hashing.size >= this.hashConcurrency) break;
        if (!this.hashing.has(item.id)) this.track(this.hash(item));
      }
    }
    const canUpload = this.state.online && !this.state.authRequired && !this.state.paused;
    if (canUpload) {
      const freeUpload = this.uploadConcurrency - this.uploading.size;
      for (const item of freeUpload > 0 ? this.store.due('waiting', now, freeUpload) : [])
        this.track(this.upload(item));
    }
    const next = [this.store.nextDue('queued'), canUpload ? this.store.nextDue('waiting') : undefined].filter(
      (at): at is number => at !== undefined && at > now,
    );
    if (next.length > 0) this.timer = setTimeout(() => this.pump(), Math.min(...next) - now + 5);
  }

  private async hash(item: UploadItem): Promise<void> {
    this.hashing.add(item.id);
    try {
      this.changed(this.store.update(item.id, { state: 'hashing' }, this.now()));
      const result = await this.check(item.path);
      const current = this.store.get(item.id);
      if (!current || current.state !== 'hashing') return; // removed or superseded meanwhile
      if (!result.ok) {
        const plan = planCheckFailure(item, current, result, this.now, this.retryBackoff);
        if (plan.log) this.log(plan.log);
        this.changed(this.store.update(item.id, plan.changes, this.now()));
        return;
      }
      if (result.size !== current.size || result.mtimeMs !== current.mtime_ms) {
        // The file changed after it was queued: what was hashed is the new version.
        this.store.update(item.id, { size: result.size, mtime_ms: result.mtimeMs }, this.now());
      }
      const twin = this.store.acceptedWithHash(result.sha256, current.space_id, item.id);
      const original = twin && (await stillArchived(this.transport, twin.duplicate_of ?? twin.document_id!));
      if (this.store.get(item.id)?.state !== 'hashing') return; // removed or superseded while the archive was asked
      if (twin && original) {
        this.log(`already archived (same content as ${twin.path}): ${item.path}`);
        const accepted = this.store.update(
          item.id,
          {
            sha256: result.sha256,
            state: 'accepted',
            document_id: original,
            duplicate_of: original,
          },
          this.now(),
        );
        this.changed(accepted);
        this.track(this.finish(accepted));
        return;
      }
      this.changed(
        this.store.update(
          item.id,
          { sha256: result.sha256, state: 'waiting', next_attempt_at: 0, last_error: null },
          this.now(),
        ),
      );
    } finally {
      this.hashing.delete(item.id);
      this.pump();
    }
  }

  private async upload(item: UploadItem): Promise<void> {
    const controller = new AbortController();
    this.uploading.set(item.id, controller);
    try {
      this.changed(this.store.update(item.id, { state: 'uploading' }, this.now()));
      // Right before spending a token: still there, still the version that was hashed?
      const file = await fileState(item);
      if (file.state !== 'same') {
        this.localProblem(item, file, null);
        return;
      }
      const accepted = await this.transport.upload(
        uploadRequest(item, controller.signal, this.now, (sent, total) =>
          this.emit('progress', { id: item.id, sent, total }),
        ),
      );
      this.log(
        accepted.duplicate_of
          ? `uploaded (duplicate of ${accepted.duplicate_of}): ${item.path}`
          : `uploaded: ${item.path} → ${accepted.id}`,
      );
      const done = this.store.update(
        item.id,
        {
          state: 'accepted',
          document_id: accepted.id,
          duplicate_of: accepted.duplicate_of,
          last_error: null,
        },
        this.now(),
      );
      this.changed(done);
      // Not awaited: the action may wait for the file to settle, which must not hold an upload slot.
      this.track(this.finish(done));
    } catch (error) {
      if (isJournalWriteFailure(error)) throw error; // this computer's journal, not the service: see heal()
      const failure = toArchiveError(error);
      if (failure.kind === 'local') this.localProblem(item, await fileState(item), failure);
      else this.uploadFailed(item, failure);
    } finally {
      this.uploading.delete(item.id);
      this.pump();
    }
  }

  private uploadFailed(item: UploadItem, error: ArchiveError): void {
    const current = this.store.get(item.id);
    if (!current) return;
    const now = this.now();
    const plan = planUploadFailure(item, current, error, now, this.retryBackoff);
    if (plan.log) this.log(plan.log);
    if (plan.authRequired) this.setState({ authRequired: true, reason: error.message });
    this.changed(this.store.update(item.id, plan.changes, now));
  }

  /** A problem with the file on this computer (see local-problems.ts): the row fails, waits, or is hashed again. */
  private localProblem(item: UploadItem, file: FileState, error: ArchiveError | null): void {
    const current = this.store.get(item.id);
    if (!current) return;
    const now = this.now();
    const latest = this.store.latestForPath(item.path);
    const plan = planLocalProblem(item, current, file, error, latest, now, this.retryBackoff);
    this.log(plan.log);
    if ('superseded' in plan) {
      this.store.delete(item.id);
      this.emit('removed', item.id);
      this.queueCounts();
      return;
    }
    this.changed(this.store.update(item.id, plan.changes, now));
  }

  /** Runs the folder's after-upload action for an accepted item, then marks it done. Safe to repeat after a crash. */
  private async finish(item: UploadItem): Promise<void> {
    if (this.finishing.has(item.id)) return;
    this.finishing.add(item.id);
    try {
      const folder = item.folder_id ? this.folderOf(item.folder_id) : undefined;
      // A folder removed since the file was queued: nothing is done with the file.
      let summary = item.source === 'manual' ? null : afterUploadSummary('kept');
      let lastError: string | null = null;
      if (folder && !(await this.settled(folder, item))) return; // stopped: the next start finishes it
      if (folder) ({ summary, lastError } = await runAfterUploadAction(this.afterUpload, folder, item, this.log));
      this.changed(
        this.store.update(item.id, { state: 'done', after_upload: summary, last_error: lastError }, this.now()),
      );
    } finally {
      this.finishing.delete(item.id);
    }
  }

  /**
   * Before a file is deleted or moved it must have been left alone for twice its folder's stability window: a scanner
   * that pauses between pages longer than the window may still be writing, and a delete would lose what it writes next.
   * (The action itself then checks that the file is still the version uploaded.) False when the journal stopped first.
   */
  private async settled(folder: WatchedFolder, item: UploadItem): Promise<boolean> {
    if (folder.after_upload.action === 'keep') return true;
    // The file system's clock, not the journal's (which tests may drive): mtime is wall-clock time.
    const wait = item.mtime_ms + 2 * folder.stability_window_ms - Date.now();
    if (wait <= 0) return true;
    try {
      await sleep(wait, undefined, { signal: this.run.signal });
      return true;
    } catch {
      return false;
    }
  }

  /** The shared connection state changed: the queue stops while the service is unreachable and resumes at once after. */
  private readonly onConnection = (connection: ConnectionState): void => {
    if (connection.online === this.state.online) {
      if (!connection.online) this.setState({ reason: connection.reason });
      return;
    }
    if (connection.online) {
      this.log('online: the service answers again');
      this.setState({ online: true, reason: this.state.authRequired ? this.state.reason : null });
      this.pump();
    } else {
      this.log(`offline: ${connection.reason ?? 'no answer'}; uploads wait until the service answers again`);
      this.setState({ online: false, reason: connection.reason });
    }
  };

  private setState(changes: Partial<Connectivity>): void {
    const next = { ...this.state, ...changes };
    if (JSON.stringify(next) === JSON.stringify(this.state)) return;
    this.state = next;
    this.emit('connectivity', this.connectivity);
  }

  private changed(item: UploadItem): UploadItem {
    this.emit('item', item);
    this.queueCounts();
    if ((item.state === 'queued' || item.state === 'waiting') && !this.pumpQueued) {
      // Coalesced: a burst of 10,000 new files costs one pass over the queue, not one each.
      this.pumpQueued = true;
      setImmediate(() => {
        this.pumpQueued = false;
        this.pump();
      });
    }
    return item;
  }

  private queueCounts(): void {
    if (this.countsQueued) return;
    this.countsQueued = true;
    setImmediate(() => {
      this.countsQueued = false;
      if (!this.stopped) this.emit('counts', this.store.counts());
    });
  }

  private track(promise: Promise<void>): void {
    const tracked = promise
      .catch((error: unknown) => {
        this.log(`journal error: ${errorStack(error)}`);
        if (isJournalWriteFailure(error)) this.healLater();
      })
      .finally(() => this.work.delete(tracked));
    this.work.add(tracked);
  }

  /**
   * The journal could not be written (its disk is full): the row that was being worked on is left in a step
   * (hashing, uploading) nothing picks up again in this run. Once nothing is in flight, the steps are put back as
   * after a restart, which is also the test that writing works again; until then it is tried every half minute.
   */
  private healLater(): void {
    if (this.healTimer !== undefined || this.stopped) return;
    this.healTimer = setTimeout(() => {
      this.healTimer = undefined;
      if (this.stopped) return;
      if (this.hashing.size + this.uploading.size + this.finishing.size > 0) return this.healLater();
      try {
        const recovered = this.store.recover(this.now());
        this.log(`journal: writing works again (${recovered.rehash} to hash, ${recovered.reupload} to upload again)`);
        for (const item of this.store.list({ states: ['accepted'], limit: 10_000, offset: 0 }).items)
          this.track(this.finish(item));
        this.pump();
      } catch (error) {
        this.log(`journal: still cannot write: ${errorMessage(error)}`);
        this.healLater();
      }
    }, JOURNAL_HEAL_MS);
    this.healTimer.unref();
  }
}
