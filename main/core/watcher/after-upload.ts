import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../../common/errors.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import type { WatchedFolder } from '../../../common/settings.ts';
import { errorCode } from './fs-errors.ts';

/**
 * done: the action happened (keep always is), and a moved file says where it now is. already-gone: the file was not
 * there any more (a repeated call after a crash, or the user moved it), nothing to do. changed: the file is no longer
 * the one uploaded, left untouched. Both say why nothing happened (a file problem), for the journal and the log.
 */
export type AfterUploadResult =
  | { action: 'keep' | 'delete'; outcome: 'done' }
  | { action: 'move'; outcome: 'done'; destination: string }
  | { action: 'keep' | 'move' | 'delete'; outcome: 'already-gone' | 'changed'; message: string };

export type UploadedFile = {
  path: string;
  /** Posix, relative to the watched folder: the structure kept below the move target. */
  relativePath: string;
  /** The size and mtime that were uploaded: when given, a file that changed since is left alone (it is a new scan). */
  size?: number;
  mtimeMs?: number;
};

/**
 * Hard links are impossible across devices (EXDEV), on some file systems (FAT, exFAT, many SMB/NFS mounts: EPERM,
 * ENOTSUP; on Windows FAT reports ERROR_INVALID_FUNCTION, which libuv maps to EISDIR), for files the user does not own
 * under Linux's protected_hardlinks (EPERM), or past the link limit (EMLINK). The copy path handles all of them.
 */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS', 'EISDIR']);
const MAX_SUFFIX = 10_000;

/** `name.pdf`, `name (2).pdf`, `name (3).pdf`... */
export function suffixedName(file: string, n: number): string {
  if (n < 2) return file;
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)} (${n})${ext}`;
}

/**
 * Runs the folder's after-upload action on a file the service accepted (or reported as a duplicate). Safe to call
 * again after a crash: a file already moved or deleted reports `already-gone` instead of throwing. Other failures
 * (permissions, disk full) throw with a message naming the file.
 */
export async function applyAfterUpload(folder: WatchedFolder, file: UploadedFile): Promise<AfterUploadResult> {
  const action = folder.after_upload;
  if (action.action === 'keep') return { action: 'keep', outcome: 'done' };
  let current: Stats;
  try {
    current = await lstat(file.path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      return { action: action.action, outcome: 'already-gone', message: fileProblem('notFound', { path: file.path }) };
    throw new Error(fileProblem('unreadable', { path: file.path, reason: errorMessage(error) }), { cause: error });
  }
  // A symbolic link was uploaded as what it points to: that is the version to compare (the link itself is moved).
  const version = current.isSymbolicLink() ? await stat(file.path).catch(() => current) : current;
  if (
    (file.size !== undefined && version.size !== file.size) ||
    (file.mtimeMs !== undefined && version.mtimeMs !== file.mtimeMs)
  ) {
    return {
      action: action.action,
      outcome: 'changed',
      message: fileProblem('changedSinceUpload', { path: file.path }),
    };
  }
  if (action.action === 'delete') {
    try {
      await unlink(file.path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT')
        return { action: 'delete', outcome: 'already-gone', message: fileProblem('notFound', { path: file.path }) };
      throw new Error(fileProblem('cannotDelete', { path: file.path, reason: errorMessage(error) }), { cause: error });
    }
    return { action: 'delete', outcome: 'done' };
  }
  let into = path.resolve(action.to);
  try {
    const destination = path.join(into, ...safeSegments(file.relativePath));
    into = path.dirname(destination);
    await mkdir(into, { recursive: true });
    return {
      action: 'move',
      outcome: 'done',
      destination: await moveWithoutOverwrite(file.path, destination, current),
    };
  } catch (error) {
    if (errorCode(error) === 'ENOENT' && !(await exists(file.path))) {
      return { action: 'move', outcome: 'already-gone', message: fileProblem('notFound', { path: file.path }) };
    }
    throw new Error(fileProblem('cannotMove', { path: file.path, folder: into, reason: errorMessage(error) }), {
      cause: error,
    });
  }
}

/** The relative path must stay below the move target: no absolute path, no `..`. */
function safeSegments(relativePath: string): string[] {
  const segments = relativePath.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.includes('..') || path.isAbsolute(relativePath)) {
    throw new Error(`Invalid relative path for a move: ${relativePath}`);
  }
  return segments;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino && a.ino !== 0;

/**
 * Moves `source` to `destination` or the first free `destination (n)`, never replacing a file: a hard link fails on an
 * existing name atomically, so two movers cannot take the same name. Where links are impossible (another device, a
 * file system without them) the file is copied to a hidden temporary name beside the destination, flushed, then
 * given its final name the same way, and only then is the source removed.
 */
async function moveWithoutOverwrite(source: string, destination: string, sourceStats: Stats): Promise<string> {
  const placed = await placeByLink(source, destination, sourceStats);
  if (placed !== undefined) {
    await unlinkIfPresent(source);
    return placed;
  }
  // A crash after the copy got its final name but before the source was removed: that copy is the finished move.
  const earlier = await earlierCopy(source, destination, sourceStats);
  if (earlier !== undefined) {
    await unlinkIfPresent(source);
    return earlier;
  }
  const temporary = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.${randomBytes(6).toString('hex')}.moving`,
  );
  try {
    await copyFile(source, temporary, constants.COPYFILE_EXCL);
    // The moved scan keeps its date, as a rename would; a file system that refuses it does not stop the move.
    await utimes(temporary, sourceStats.atime, sourceStats.mtime).catch(() => {});
    await flush(temporary);
    const final =
      (await placeByLink(temporary, destination, undefined)) ?? (await placeByReservation(temporary, destination));
    await unlinkIfPresent(temporary);
    await unlinkIfPresent(source);
    return final;
  } catch (error) {
    await unlinkIfPresent(temporary);
    throw error;
  }
}

/**
 * Among `destination`, `destination (2)`... (up to the first free name), one with the source's size, date and bytes:
 * the copy an interrupted earlier move already placed. Copies keep the source's mtime, so a mere name clash rarely
 * gets as far as the byte comparison.
 */
async function earlierCopy(source: string, destination: string, sourceStats: Stats): Promise<string | undefined> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = suffixedName(destination, n);
    const stats = await lstatOrUndefined(candidate);
    if (!stats) return undefined;
    if (
      stats.isFile() &&
      stats.size === sourceStats.size &&
      Math.abs(stats.mtimeMs - sourceStats.mtimeMs) < 1 &&
      (await sameBytes(source, candidate))
    )
      return candidate;
  }
  return undefined;
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([open(a, 'r'), open(b, 'r')]);
  try {
    const size = 64 * 1024;
    const bufA = Buffer.alloc(size),
      bufB = Buffer.alloc(size);
    for (;;) {
      const [ra, rb] = await Promise.all([left.read(bufA, 0, size, null), right.read(bufB, 0, size, null)]);
      if (ra.bytesRead !== rb.bytesRead) return false;
      if (ra.bytesRead === 0) return true;
      if (!bufA.subarray(0, ra.bytesRead).equals(bufB.subarray(0, rb.bytesRead))) return false;
    }
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

/** The placed name, or undefined when hard links cannot be used here. */
async function placeByLink(
  source: string,
  destination: string,
  sourceStats: Stats | undefined,
): Promise<string | undefined> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = suffixedName(destination, n);
    try {
      await link(source, candidate);
      return candidate;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') {
        // A crash between link and unlink left both names: the move was already made.
        if (sourceStats && (await lstatOrUndefined(candidate).then((s) => s !== undefined && sameFile(s, sourceStats))))
          return candidate;
        continue;
      }
      if (code !== undefined && NO_LINK.has(code)) return undefined;
      throw error;
    }
  }
  throw new Error(`No free name for ${destination} after ${MAX_SUFFIX} attempts`);
}

/**
 * Without hard links: an exclusive create claims the name (it fails if the name exists), then the rename replaces only
 * that empty placeholder of ours.
 */
async function placeByReservation(source: string, destination: string): Promise<string> {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const candidate = suffixedName(destination, n);
    try {
      await (await open(candidate, 'wx')).close();
    } catch (error) {
      if (errorCode(error) === 'EEXIST') continue;
      throw error;
    }
    await rename(source, candidate);
    return candidate;
  }
  throw new Error(`No free name for ${destination} after ${MAX_SUFFIX} attempts`);
}

async function flush(file: string): Promise<void> {
  // r+ because Windows refuses to flush a handle opened read-only.
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function lstatOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch {
    return undefined;
  }
}

async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
