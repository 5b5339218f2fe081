/** One watched folder's state inside the folder watcher, and what the watcher reports about folders and files. */
import path from 'node:path';
import type { WatchedFolder } from '../../../common/settings.ts';
import { createPathFilter, type PathFilter } from './path-filter.ts';
import { subfolderTagsOf } from './tags.ts';
import type { DirectoryTreeWatcher } from './tree-watcher.ts';

/** A complete file, ready for the upload journal. */
export type ReadyFile = {
  folderId: string;
  /** Absolute. */
  path: string;
  /** Posix, relative to the watched folder. */
  relativePath: string;
  size: number;
  mtimeMs: number;
  /** Directory names between the folder and the file (empty unless the folder has `subfolder_tags`); see mergeTags. */
  subfolderTags: string[];
};

export type FolderState = 'starting' | 'watching' | 'missing' | 'error' | 'disabled';
export type FolderStatus = { folderId: string; path: string; state: FolderState; error?: string };

/** A file seen but not yet taken: the last observed size and mtime, and since when they have not changed. */
export type Pending = {
  size: number;
  mtimeMs: number;
  stableSince: number;
  checkAt: number;
  lastCheck: number;
  failures: number;
  /** Stable, but it does not end as its format must (a scan still being written): said once in the log. */
  incompleteSince?: number;
};

export type Folder = {
  config: WatchedFolder;
  /** Identity of everything the folder's watching depends on; a change restarts it. */
  key: string;
  root: string;
  filter: PathFilter;
  status: FolderStatus;
  /** Bumped on every (de)activation: async work of an older generation drops its result. */
  generation: number;
  removed: boolean;
  /** Native events (one fs.watch per directory); undefined in polling mode. */
  tree: DirectoryTreeWatcher | undefined;
  /** Polling mode: a scan every poll interval. */
  pollTimer: NodeJS.Timeout | undefined;
  /** The root directory's inode when watching began: a folder deleted and created again needs a new watcher. */
  rootIno: number | undefined;
  pending: Map<string, Pending>;
  /** path → size:mtime of what was handed over in this run, so duplicate events and rescans re-emit nothing. */
  emitted: Map<string, string>;
  scan: Promise<void> | undefined;
  nextScan: Promise<void> | undefined;
};

/** What a handed-over file is remembered by: the same size and mtime again is the same file. */
export const fingerprint = (size: number, mtimeMs: number): string => `${size}:${mtimeMs}`;

/**
 * A folder's watching state before it starts. `previous` is the same folder under its old settings: what it handed
 * over stays handed over while the root is the same.
 */
export function createFolder(
  config: WatchedFolder,
  key: string,
  moveTargets: string[],
  previous: Folder | undefined,
): Folder {
  const root = path.resolve(config.path);
  return {
    config,
    key,
    root,
    filter: createPathFilter({
      root,
      ignore: config.ignore,
      fileTypes: config.file_types,
      recursive: config.recursive,
      excludedDirs: moveTargets,
    }),
    status: { folderId: config.id, path: config.path, state: config.enabled ? 'starting' : 'disabled' },
    generation: 0,
    removed: false,
    tree: undefined,
    pollTimer: undefined,
    rootIno: undefined,
    pending: new Map(),
    // Same folder, other settings (tags, action...): what was handed over stays handed over.
    emitted: previous && previous.root === root ? previous.emitted : new Map(),
    scan: undefined,
    nextScan: undefined,
  };
}

/** What the upload journal is handed for a file found complete. */
export function readyFile(folder: Folder, file: string, stats: { size: number; mtimeMs: number }): ReadyFile {
  const relativePath = path.relative(folder.root, file).split(path.sep).join('/');
  return {
    folderId: folder.config.id,
    path: file,
    relativePath,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    subfolderTags: folder.config.subfolder_tags ? subfolderTagsOf(relativePath) : [],
  };
}
