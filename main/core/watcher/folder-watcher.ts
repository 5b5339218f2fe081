import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../common/errors.ts';
import type { WatchedFolder } from '../../../common/settings.ts';
import { isGone, probeOpened, probeRoot } from './file-probes.ts';
import { forEachLimited } from './for-each-limited.ts';
import { errorCode } from './fs-errors.ts';
import { DirectoryTreeWatcher } from './tree-watcher.ts';
import { walkFiles } from './walk.ts';
import {
  createFolder,
  fingerprint,
  type Folder,
  type FolderState,
  type FolderStatus,
  type Pending,
  readyFile,
  type ReadyFile,
} from './watched-folder.ts';

export type { FolderState, FolderStatus, ReadyFile } from './watched-folder.ts';

export type FolderWatcherOptions = {
  onFileReady: (file: ReadyFile) => void;
  onFolderStatus?: (status: FolderStatus) => void;
  log?: (line: string) => void;
  now?: () => number;
  /**
   * The same file is looked at (stat) at most this often while events keep coming for it; a file's first look comes
   * right after its first event.
   */
  checkIntervalMs?: number;
  /** Catch-up scan of every folder (settings `uploads.rescan_interval_ms`). */
  rescanIntervalMs?: number;
  /**
   * How often every folder's root is checked: a missing or unreadable one is looked for again, a watched one that
   * vanished (unmounted share, deleted folder) or was replaced is noticed even when no event says so.
   */
  folderCheckIntervalMs?: number;
  /** How long a stable file that does not end as its format must is waited for (INCOMPLETE_GRACE_MS). */
  incompleteGraceMs?: number;
};

const CHECK_CONCURRENCY = 16;
/** Events arriving together are looked at together. */
const TICK_GAP_MS = 10;
const MAX_OPEN_BACKOFF_MS = 30_000;
/**
 * A file that stays unchanged this long without the end its format needs is handed over as it is: the writer gave up
 * (a jammed scanner), and what is on disk is all there will be. Until then it is waited for.
 */
export const INCOMPLETE_GRACE_MS = 60_000;

/**
 * Watches the configured folders and hands over each file once it is complete: size and mtime unchanged for the
 * folder's stability window, and openable. One checker with one timer walks a map of pending files (no timer per
 * file), so thousands of files dropped at once cost a small object each. Events only say which name to look at: native ones
 * from one fs.watch per directory, or, in polling mode (network shares, where native events are missed), a scan every
 * poll interval. A catch-up scan on start and every `rescanIntervalMs` finds what arrived while the app was closed.
 */
export class FolderWatcher {
  private readonly options: FolderWatcherOptions;
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  private readonly checkIntervalMs: number;
  private readonly rescanIntervalMs: number;
  private readonly folderCheckIntervalMs: number;
  private readonly folders = new Map<string, Folder>();
  private readonly tasks = new Set<Promise<unknown>>();
  private started = false;
  private closed = false;
  private ticking = false;
  private tickTimer: NodeJS.Timeout | undefined;
  private tickAt = Number.POSITIVE_INFINITY;
  private lastTickEnd = Number.NEGATIVE_INFINITY;
  private rescanTimer: NodeJS.Timeout | undefined;
  private folderCheckTimer: NodeJS.Timeout | undefined;
  private checkingFolders = false;

  constructor(options: FolderWatcherOptions) {
    this.options = options;
    this.log = options.log ?? (() => {});
    this.now = options.now ?? Date.now;
    this.checkIntervalMs = options.checkIntervalMs ?? 100;
    this.rescanIntervalMs = options.rescanIntervalMs ?? 300_000;
    this.folderCheckIntervalMs = options.folderCheckIntervalMs ?? 5_000;
  }

  /** Files seen and waiting to become stable. */
  get pendingCount(): number {
    let count = 0;
    for (const folder of this.folders.values()) count += folder.pending.size;
    return count;
  }

  statuses(): FolderStatus[] {
    return [...this.folders.values()].map((folder) => ({ ...folder.status }));
  }

  /** Applies the configured folders live: new ones start, removed ones stop, changed ones restart. */
  setFolders(configs: readonly WatchedFolder[]): void {
    if (this.closed) throw new Error('The folder watcher is closed');
    // A move target inside any watched folder must never be taken again, whichever folder's target it is.
    const moveTargets = configs.flatMap((c) =>
      c.after_upload.action === 'move' ? [path.resolve(c.after_upload.to)] : [],
    );
    const wanted = new Map(configs.map((c) => [c.id, c]));
    for (const [id, folder] of this.folders) {
      if (!wanted.has(id)) {
        this.folders.delete(id);
        folder.removed = true;
        this.track(this.deactivate(folder));
      }
    }
    for (const config of configs) {
      const key = JSON.stringify([config, moveTargets]);
      const previous = this.folders.get(config.id);
      if (previous?.key === key) continue;
      const folder = createFolder(config, key, moveTargets, previous);
      if (previous) {
        previous.removed = true;
        this.track(this.deactivate(previous));
      }
      this.folders.set(config.id, folder);
      this.reportStatus(folder);
      if (this.started && config.enabled) this.track(this.activate(folder));
    }
  }

  start(): void {
    if (this.closed) throw new Error('The folder watcher is closed');
    if (this.started) return;
    this.started = true;
    for (const folder of this.folders.values()) if (folder.config.enabled) this.track(this.activate(folder));
    this.rescanTimer = setInterval(() => this.track(this.rescan()), this.rescanIntervalMs);
    this.rescanTimer.unref();
    this.folderCheckTimer = setInterval(() => this.track(this.checkFolders()), this.folderCheckIntervalMs);
    this.folderCheckTimer.unref();
  }

  /**
   * Catch-up scan of one folder or all; a missing folder is looked for again. Resolves once every file found is
   * pending (files still need their stability window before they are handed over).
   */
  async rescan(folderId?: string): Promise<void> {
    const folders = [...this.folders.values()].filter(
      (f) => f.config.enabled && (folderId === undefined || f.config.id === folderId),
    );
    await Promise.all(
      folders.map((folder) => {
        if (folder.status.state === 'missing' || folder.status.state === 'error') return this.activate(folder);
        if (folder.status.state === 'watching') {
          const generation = folder.generation;
          return this.verifyRoot(folder, generation).then((ok) => (ok ? this.scan(folder) : undefined));
        }
        return undefined;
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.tickTimer);
    clearInterval(this.rescanTimer);
    clearInterval(this.folderCheckTimer);
    for (const folder of this.folders.values()) {
      folder.removed = true;
      this.track(this.deactivate(folder));
    }
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private track(task: Promise<unknown>): void {
    const guarded = task.catch((error: unknown) => this.log(`watcher: ${errorMessage(error)}`));
    this.tasks.add(guarded);
    void guarded.finally(() => this.tasks.delete(guarded));
  }

  private reportStatus(folder: Folder, state?: FolderState, error?: string): void {
    if (state !== undefined) {
      if (folder.status.state === state && folder.status.error === error) return;
      folder.status = {
        folderId: folder.config.id,
        path: folder.config.path,
        state,
        ...(error === undefined ? {} : { error }),
      };
    }
    if (this.options.onFolderStatus) this.options.onFolderStatus({ ...folder.status });
    else if (folder.status.error !== undefined) this.log(`watcher: ${folder.status.error}`);
  }

  private isCurrent(folder: Folder, generation: number): boolean {
    return !this.closed && !folder.removed && folder.generation === generation;
  }

  private async activate(folder: Folder): Promise<void> {
    await this.deactivate(folder);
    folder.rootIno = undefined;
    const generation = ++folder.generation;
    // Looking again for a missing folder every few seconds must not flap its status through 'starting'.
    if (folder.status.state !== 'missing' && folder.status.state !== 'error') this.reportStatus(folder, 'starting');
    if (!(await this.rootAvailable(folder, generation))) return;
    if (folder.config.use_polling) {
      folder.pollTimer = setInterval(() => this.track(this.scan(folder, true)), folder.config.poll_interval_ms);
      folder.pollTimer.unref();
    } else {
      const tree = new DirectoryTreeWatcher({
        root: folder.root,
        filter: folder.filter,
        recursive: folder.config.recursive,
        handlers: {
          onPath: (file) => this.onPath(folder, generation, file),
          onListed: (file) => this.onListed(folder, generation, file),
          onDirectoryAdded: (dir) => {
            if (this.isCurrent(folder, generation)) this.track(this.scanOnce(folder, generation, dir, true));
          },
          onDirectoryRemoved: (dir) => {
            if (this.isCurrent(folder, generation)) this.forgetBelow(folder, dir);
          },
          onRootError: (error) => {
            if (!this.isCurrent(folder, generation)) return;
            this.log(`watcher: ${folder.config.path}: ${errorMessage(error)}`);
            // The root's watch is gone either way: a folder still there is watched (and scanned) afresh.
            this.track(
              this.verifyRoot(folder, generation).then((there) => (there ? this.activate(folder) : undefined)),
            );
          },
          log: this.log,
        },
      });
      folder.tree = tree;
      try {
        await tree.start();
      } catch (error) {
        // The root is there but cannot be watched (ENOSPC: the inotify watch limit): say so; the folder check retries.
        if (this.isCurrent(folder, generation) && (await this.verifyRoot(folder, generation))) {
          this.reportStatus(
            folder,
            'error',
            `Cannot watch ${folder.config.path}: ${errorCode(error) ?? errorMessage(error)}`,
          );
          await this.deactivate(folder);
        }
        return;
      }
    }
    if (!this.isCurrent(folder, generation)) return;
    this.reportStatus(folder, 'watching');
    await this.scan(folder);
  }

  private async deactivate(folder: Folder): Promise<void> {
    folder.generation++;
    folder.pending.clear();
    folder.tree?.close();
    folder.tree = undefined;
    clearInterval(folder.pollTimer);
    folder.pollTimer = undefined;
    // Let callbacks already queued by the old watchers run and see the new generation.
    await Promise.resolve();
  }

  /** Reports why the folder cannot be watched, and keeps looking for it. */
  private async rootAvailable(folder: Folder, generation: number): Promise<boolean> {
    const probe = await probeRoot(folder.root, folder.config.path);
    if (!this.isCurrent(folder, generation)) return false;
    if ('ino' in probe) {
      if (folder.rootIno === undefined) folder.rootIno = probe.ino;
      else if (folder.rootIno !== probe.ino) {
        this.log(`watcher: ${folder.config.path} was replaced, watching it again`);
        folder.emitted.clear();
        this.track(this.activate(folder));
        return false;
      }
      return true;
    }
    this.reportStatus(folder, ...probe.problem);
    // The root is lost: what it handed over is forgotten, so that when it comes back (a share mounted again, a folder
    // moved back) its files are offered again; the journal's own version check keeps known ones from going twice.
    folder.emitted.clear();
    return false;
  }

  /** After an error, the root's own unlink event or a periodic check: if the folder is gone, stop and wait for it. */
  private async verifyRoot(folder: Folder, generation: number): Promise<boolean> {
    if (await this.rootAvailable(folder, generation)) return true;
    if (folder.generation === generation) await this.deactivate(folder);
    return false;
  }

  private async checkFolders(): Promise<void> {
    if (this.checkingFolders) return;
    this.checkingFolders = true;
    try {
      await Promise.all(
        [...this.folders.values()]
          .filter((f) => f.config.enabled)
          .map((folder) => {
            if (folder.status.state === 'missing' || folder.status.state === 'error') return this.activate(folder);
            if (folder.status.state === 'watching') return this.verifyRoot(folder, folder.generation);
            return undefined;
          }),
      );
    } finally {
      this.checkingFolders = false;
    }
  }

  /** One scan at a time per folder; a rescan asked for meanwhile runs once after it, however often it was asked. */
  private scan(folder: Folder, quiet = false): Promise<void> {
    if (folder.nextScan) return folder.nextScan;
    const run = (): Promise<void> => {
      const current = this.scanOnce(folder, folder.generation, folder.root, quiet).finally(() => {
        if (folder.scan === current) folder.scan = undefined;
      });
      folder.scan = current;
      return current;
    };
    if (!folder.scan) return run();
    const next = folder.scan.then(() => {
      folder.nextScan = undefined;
      return run();
    });
    folder.nextScan = next;
    return next;
  }

  /** Every wanted file below `top` becomes pending unless it was handed over as it is now. */
  private async scanOnce(folder: Folder, generation: number, top: string, quiet: boolean): Promise<void> {
    if (!this.isCurrent(folder, generation)) return;
    const started = this.now();
    let found = 0;
    try {
      for await (const file of walkFiles(top, folder.filter, (where, error) =>
        this.log(`watcher: cannot read ${where}: ${errorMessage(error)}`),
      )) {
        if (!this.isCurrent(folder, generation)) return;
        found++;
        this.consider(folder, file.path, file.stats, this.now() + folder.config.stability_window_ms);
      }
    } catch (error) {
      if (!this.isCurrent(folder, generation)) return;
      if (top !== folder.root && isGone(error)) return;
      this.log(`watcher: scan of ${top} failed: ${errorMessage(error)}`);
      await this.verifyRoot(folder, generation);
      return;
    }
    if (!quiet)
      this.log(`watcher: scanned ${top}: ${found} files in ${this.now() - started} ms, ${folder.pending.size} pending`);
  }

  /** An event named this path: look at it on the next tick (a changed size or mtime restarts its window then). */
  private onPath(folder: Folder, generation: number, file: string): void {
    if (!this.isCurrent(folder, generation) || folder.filter.ignores(file, 'file')) return;
    const entry = folder.pending.get(file);
    if (entry) {
      entry.checkAt = Math.min(entry.checkAt, Math.max(this.now(), entry.lastCheck + this.checkIntervalMs));
      this.schedule(entry.checkAt);
    } else {
      this.consider(folder, file, { size: -1, mtimeMs: -1 }, this.now());
    }
  }

  /** A name seen in a listing after a burst: only one never seen before is worth a look (its event may be lost). */
  private onListed(folder: Folder, generation: number, file: string): void {
    if (!this.isCurrent(folder, generation) || folder.pending.has(file) || folder.emitted.has(file)) return;
    this.consider(folder, file, { size: -1, mtimeMs: -1 }, this.now());
  }

  private consider(folder: Folder, file: string, stats: { size: number; mtimeMs: number }, checkAt: number): void {
    if (folder.pending.has(file) || folder.emitted.get(file) === fingerprint(stats.size, stats.mtimeMs)) return;
    folder.pending.set(file, {
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      stableSince: this.now(),
      checkAt,
      lastCheck: 0,
      failures: 0,
    });
    this.schedule(checkAt);
  }

  private forgetBelow(folder: Folder, dir: string): void {
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const map of [folder.pending, folder.emitted]) {
      for (const file of map.keys()) if (file.startsWith(prefix)) map.delete(file);
    }
  }

  /**
   * One timer for all pending files, set to the earliest look that is due (events batched by a short gap), so a file
   * is looked at when its window ends rather than on a fixed grid.
   */
  private schedule(at: number): void {
    if (this.closed || this.ticking) return; // a running tick reschedules from the map when it ends
    const when = Math.max(at, this.lastTickEnd + TICK_GAP_MS);
    if (this.tickTimer !== undefined && this.tickAt <= when) return;
    clearTimeout(this.tickTimer);
    this.tickAt = when;
    this.tickTimer = setTimeout(
      () => {
        this.tickTimer = undefined;
        this.tickAt = Number.POSITIVE_INFINITY;
        this.track(this.tick());
      },
      Math.max(0, when - this.now()),
    );
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    try {
      const now = this.now();
      const due: [Folder, string, Pending][] = [];
      for (const folder of this.folders.values()) {
        for (const [file, entry] of folder.pending) if (entry.checkAt <= now) due.push([folder, file, entry]);
      }
      await forEachLimited(due, CHECK_CONCURRENCY, async ([folder, file, entry]) => {
        try {
          await this.check(folder, file, entry);
        } catch (error) {
          this.log(`watcher: checking ${file} failed: ${errorMessage(error)}`);
          entry.checkAt = this.now() + MAX_OPEN_BACKOFF_MS;
        }
      });
    } finally {
      this.ticking = false;
      this.lastTickEnd = this.now();
      let next = Number.POSITIVE_INFINITY;
      for (const folder of this.folders.values())
        for (const entry of folder.pending.values()) next = Math.min(next, entry.checkAt);
      if (next !== Number.POSITIVE_INFINITY) this.schedule(next);
    }
  }

  private async check(folder: Folder, file: string, entry: Pending): Promise<void> {
    const generation = folder.generation;
    const window = folder.config.stability_window_ms;
    const stillPending = (): boolean => this.isCurrent(folder, generation) && folder.pending.get(file) === entry;
    const changed = (stats: Stats): boolean => {
      if (stats.size === entry.size && stats.mtimeMs === entry.mtimeMs) return false;
      entry.size = stats.size;
      entry.mtimeMs = stats.mtimeMs;
      entry.stableSince = this.now();
      entry.checkAt = entry.stableSince + window;
      entry.failures = 0;
      return true;
    };
    entry.lastCheck = this.now();
    let stats: Stats;
    try {
      stats = await stat(file);
    } catch (error) {
      if (stillPending()) this.giveUpOrRetry(folder, file, entry, error);
      return;
    }
    if (!stillPending()) return;
    if (!stats.isFile()) {
      folder.pending.delete(file);
      // A directory named like a wanted file (`scans.pdf/`): the tree watcher only stats names that cannot be files.
      if (stats.isDirectory()) void folder.tree?.addDirectory(file);
      return;
    }
    if (changed(stats)) return;
    if (this.now() - entry.stableSince < window) {
      entry.checkAt = entry.stableSince + window;
      return;
    }
    let opened: Stats;
    let complete: boolean;
    try {
      ({ stats: opened, complete } = await probeOpened(file));
    } catch (error) {
      if (stillPending()) this.giveUpOrRetry(folder, file, entry, error);
      return;
    }
    if (!stillPending() || changed(opened)) return;
    const grace = this.options.incompleteGraceMs ?? INCOMPLETE_GRACE_MS;
    if (!complete && this.now() - entry.stableSince < grace) {
      if (entry.incompleteSince === undefined) {
        entry.incompleteSince = this.now();
        this.log(`watcher: ${file} does not end as its format must yet (still being written?); waiting for it`);
      }
      entry.checkAt = this.now() + window;
      return;
    }
    if (!complete) this.log(`watcher: ${file} still looks incomplete after ${grace / 1000} s; taking it as it is`);
    folder.pending.delete(file);
    const key = fingerprint(opened.size, opened.mtimeMs);
    if (folder.emitted.get(file) === key) return;
    // Remembered only once the hand-over worked: a file the journal could not take (disk full) is offered again by the
    // next event or scan instead of being skipped for the rest of the run.
    if (this.emit(folder, file, opened)) folder.emitted.set(file, key);
  }

  /** A vanished file is dropped; one that cannot be read yet (locked, permissions) is retried with a growing delay. */
  private giveUpOrRetry(folder: Folder, file: string, entry: Pending, error: unknown): void {
    if (isGone(error)) {
      folder.pending.delete(file);
      // Gone: if it comes back as it was (moved back by the user), it is taken again; the journal dedupes by hash.
      folder.emitted.delete(file);
      return;
    }
    entry.failures++;
    if (entry.failures === 1)
      this.log(`watcher: cannot open ${file} yet (${errorCode(error) ?? errorMessage(error)}), will retry`);
    entry.checkAt = this.now() + Math.min(MAX_OPEN_BACKOFF_MS, 500 * 2 ** (entry.failures - 1));
  }

  /** Hands the file over; false when the receiver threw (it has not taken the file). */
  private emit(folder: Folder, file: string, stats: Stats): boolean {
    const ready = readyFile(folder, file, stats);
    try {
      this.options.onFileReady(ready);
      return true;
    } catch (error) {
      this.log(`watcher: onFileReady failed for ${file}: ${errorMessage(error)}`);
      return false;
    }
  }
}
