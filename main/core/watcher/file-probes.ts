/** File-system looks the folder watcher takes: is a path gone, can a file be opened, what is a folder's root now. */
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { errorMessage } from '../../../common/errors.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import { errorCode } from './fs-errors.ts';
import type { FolderState } from './watched-folder.ts';

const GONE = new Set(['ENOENT', 'ENOTDIR']);

/** The error says the path (or a directory above it) no longer exists, as opposed to being unreadable. */
export function isGone(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && GONE.has(code);
}

export /** A writer that still holds the file exclusively (Windows share modes, some SMB servers) makes this fail. */
async function statOpened(file: string): Promise<Stats> {
  const handle = await open(file, 'r');
  try {
    return await handle.stat();
  } finally {
    await handle.close();
  }
}

/** A watched folder's root as found now: its inode, or why it cannot be watched (`shownPath` is the configured path). */
export type RootProbe = { ino: number } | { problem: [FolderState, string] };

export async function probeRoot(root: string, shownPath: string): Promise<RootProbe> {
  try {
    const stats = await stat(root);
    if (!stats.isDirectory()) return { problem: ['error', fileProblem('notAFolder', { path: shownPath })] };
    return { ino: stats.ino };
  } catch (error) {
    const code = errorCode(error);
    return {
      problem:
        code !== undefined && GONE.has(code)
          ? ['missing', fileProblem('folderNotFound', { path: shownPath })]
          : ['error', fileProblem('folderUnreadable', { path: shownPath, code: code ?? errorMessage(error) })],
    };
  }
}
