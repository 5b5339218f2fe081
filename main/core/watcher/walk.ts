import type { Stats } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from './fs-errors.ts';
import type { PathFilter } from './path-filter.ts';

export type WalkedFile = { path: string; stats: Stats };

/**
 * Streams the files of a watched folder that pass the filter, one directory handle open at a time, so a folder of
 * 10,000 scans never sits in memory as a list. Symlinked files count like files; symlinked directories are not entered
 * (the tree watcher does not enter them either, and there are no loops to guard). An unreadable sub-folder is reported
 * through `onError` and skipped; an unreadable root throws.
 */
export async function* walkFiles(
  root: string,
  filter: PathFilter,
  onError: (dir: string, error: unknown) => void,
): AsyncGenerator<WalkedFile> {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let handle;
    try {
      handle = await opendir(dir);
    } catch (error) {
      if (dir === root) throw error;
      onError(dir, error);
      continue;
    }
    for await (const entry of handle) {
      const full = path.join(dir, entry.name);
      let kind: 'file' | 'dir' | 'other' = entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'other';
      if (entry.isSymbolicLink()) {
        try {
          if ((await stat(full)).isFile()) kind = 'file';
        } catch {
          continue; // a dangling link
        }
      }
      if (kind === 'dir') {
        if (!filter.ignores(full, 'dir')) stack.push(full);
      } else if (kind === 'file' && !filter.ignores(full, 'file')) {
        try {
          yield { path: full, stats: await stat(full) };
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') onError(full, error);
        }
      }
    }
  }
}
