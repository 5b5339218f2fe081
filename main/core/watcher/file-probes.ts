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

/** How much of a file's end is read to find the closing marker of its format. */
const TAIL_BYTES = 1024;

/**
 * Opens the file (a writer that still holds it exclusively, as Windows share modes and some SMB servers do, makes
 * this fail) and looks at it: its stats, and whether it ends the way its format must. A scanner that pauses between
 * pages longer than the stability window leaves a PDF without its closing `%%EOF`, a JPEG without its end marker, a
 * PNG without its IEND chunk; such a file is still being written.
 */
export async function probeOpened(file: string): Promise<{ stats: Stats; complete: boolean }> {
  const handle = await open(file, 'r');
  try {
    const stats = await handle.stat();
    const head = Buffer.alloc(8);
    await handle.read(head, 0, head.length, 0);
    const tailLength = Math.min(TAIL_BYTES, stats.size);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, stats.size - tailLength);
    return { stats, complete: endsAsItsFormatMust(head, tail) };
  } finally {
    await handle.close();
  }
}

/** By the file's first bytes (never its name): the end marker its format requires; true for formats without one. */
export function endsAsItsFormatMust(head: Buffer, tail: Buffer): boolean {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return tail.includes('%%EOF', 0, 'latin1');
  if (head.subarray(0, 4).equals(PNG_SIGNATURE)) return tail.includes('IEND', 0, 'latin1');
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return tail.includes(JPEG_END);
  return true;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG_END = Buffer.from([0xff, 0xd9]);

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
