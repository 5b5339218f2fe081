import { watch, type FSWatcher } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './fs-errors.ts';
import type { PathFilter } from './path-filter.ts';

export type TreeWatcherHandlers = {
  /** A name in a watched directory changed (created, written, renamed, removed): look at it. */
  onPath: (absolutePath: string) => void;
  /** A listing after a burst of events: a file name the OS may have dropped the event of (inotify queue overflow). */
  onListed: (absolutePath: string) => void;
  /** A directory came in (created, moved in): its files produced no events, scan it. */
  onDirectoryAdded: (absolutePath: string) => void;
  /** A watched sub-directory went away: forget what was below it. */
  onDirectoryRemoved: (absolutePath: string) => void;
  /** The root's watch failed (deleted folder, unmounted share): check the root. */
  onRootError: (error: unknown) => void;
  log: (line: string) => void;
};

export type TreeWatcherOptions = {
  root: string;
  filter: PathFilter;
  recursive: boolean;
  handlers: TreeWatcherHandlers;
};

/** A burst of events in a directory is followed, this much later, by one listing of it. */
const SETTLE_MS = 1_000;

/**
 * Native change events for a folder tree: one fs.watch per directory, none per file, and no stat or re-listing per
 * event. (chokidar keeps a watcher per file and re-lists the directory with a stat of every entry on every burst,
 * so a large drop of files costs it many times the memory.) Events only say "look at this name"; the
 * folder watcher's stability checker does the looking. Symlinked directories are not entered (no loops to guard).
 */
export class DirectoryTreeWatcher {
  private readonly root: string;
  private readonly filter: PathFilter;
  private readonly recursive: boolean;
  private readonly handlers: TreeWatcherHandlers;
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly settleTimers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(options: TreeWatcherOptions) {
    this.root = options.root;
    this.filter = options.filter;
    this.recursive = options.recursive;
    this.handlers = options.handlers;
  }

  /** Resolves once the root and (if recursive) every sub-directory is watched. Throws if the root cannot be. */
  async start(): Promise<void> {
    this.watchDir(this.root, true);
    if (this.recursive) await this.watchBelow(this.root);
  }

  /** A path the folder watcher found to be a directory: watch it (and below) if it is a real, wanted one. */
  async addDirectory(dir: string): Promise<void> {
    if (this.closed || !this.recursive || this.watchers.has(dir) || this.filter.ignores(dir, 'dir')) return;
    try {
      if (!(await lstat(dir)).isDirectory()) return;
    } catch {
      return;
    }
    if (this.closed || this.watchers.has(dir) || !this.watchDir(dir, false)) return;
    await this.watchBelow(dir);
    if (!this.closed) this.handlers.onDirectoryAdded(dir);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.settleTimers.values()) clearTimeout(timer);
    this.settleTimers.clear();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private watchDir(dir: string, isRoot: boolean): boolean {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (_event, name) => this.onEvent(dir, name));
    } catch (error) {
      if (isRoot) throw error;
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        this.handlers.log(`watcher: cannot watch ${dir}: ${code ?? String(error)}`);
      return false;
    }
    // Windows reports a watched directory's deletion as an EPERM error on its watcher.
    watcher.on('error', (error) => {
      this.unwatchBelow(dir);
      if (dir === this.root) this.handlers.onRootError(error);
      else void this.checkStillThere(dir, true);
    });
    this.watchers.set(dir, watcher);
    return true;
  }

  private async watchBelow(top: string): Promise<void> {
    const stack = [top];
    while (stack.length > 0 && !this.closed) {
      const dir = stack.pop()!;
      try {
        for await (const entry of await opendir(dir)) {
          const full = path.join(dir, entry.name);
          if (
            entry.isDirectory() &&
            !this.watchers.has(full) &&
            !this.filter.ignores(full, 'dir') &&
            this.watchDir(full, false)
          ) {
            stack.push(full);
          }
        }
      } catch (error) {
        const code = errorCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR')
          this.handlers.log(`watcher: cannot list ${dir}: ${code ?? String(error)}`);
      }
    }
  }

  private onEvent(dir: string, name: string | null): void {
    if (this.closed) return;
    this.scheduleSettle(dir);
    if (name === null) return; // the settle listing covers it
    const full = path.join(dir, name);
    if (this.watchers.has(full)) {
      if (full !== this.root) void this.checkStillThere(full);
      return;
    }
    if (this.filter.ignores(full, 'unknown')) return;
    this.handlers.onPath(full);
    // A name that cannot be a wanted file may be a new directory; one that can is stat'ed by the checker anyway,
    // which hands it back through addDirectory if it is one.
    if (this.recursive && this.filter.ignores(full, 'file') && !this.filter.ignores(full, 'dir'))
      void this.addDirectory(full);
  }

  /**
   * A watched sub-directory's name had an event (renamed away or deleted?), or its watch failed (`rewatch`: if it is
   * still there, watch it again and rescan it, since events may have been lost meanwhile).
   */
  private async checkStillThere(dir: string, rewatch = false): Promise<void> {
    let there = false;
    try {
      there = (await lstat(dir)).isDirectory();
    } catch {
      // gone
    }
    if (this.closed) return;
    if (there) {
      if (rewatch) await this.addDirectory(dir);
      return;
    }
    if (!rewatch && !this.watchers.has(dir)) return;
    this.unwatchBelow(dir);
    this.handlers.onDirectoryRemoved(dir);
  }

  private unwatchBelow(dir: string): void {
    const prefix = dir + path.sep;
    for (const [watched, watcher] of this.watchers) {
      if (watched === dir || watched.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(watched);
        clearTimeout(this.settleTimers.get(watched));
        this.settleTimers.delete(watched);
      }
    }
  }

  /** One listing per directory and second at most, however many events it had. */
  private scheduleSettle(dir: string): void {
    if (this.settleTimers.has(dir)) return;
    const timer = setTimeout(() => {
      this.settleTimers.delete(dir);
      void this.list(dir);
    }, SETTLE_MS);
    timer.unref();
    this.settleTimers.set(dir, timer);
  }

  private async list(dir: string): Promise<void> {
    try {
      for await (const entry of await opendir(dir)) {
        if (this.closed || !this.watchers.has(dir)) return;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!this.watchers.has(full)) await this.addDirectory(full);
        } else if (!this.filter.ignores(full, 'file')) {
          this.handlers.onListed(full);
        }
      }
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        this.handlers.log(`watcher: cannot list ${dir}: ${code ?? String(error)}`);
    }
  }
}
