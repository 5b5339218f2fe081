import { stat } from 'node:fs/promises';
import { errorMessage } from '../../../common/errors.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import type { ArchiveError } from '../client/archive-error.ts';
import { backoffDelay, type BackoffOptions } from '../client/backoff.ts';
import { FileChangedError } from '../client/multipart-body.ts';
import { errorCode } from '../watcher/fs-errors.ts';
import type { UploadItem } from './journal-store.ts';

export type FileState = { state: 'same' | 'changed' | 'gone' | 'not-a-file' } | { state: 'unreadable'; error: string };

type ItemChanges = Partial<Omit<UploadItem, 'id' | 'created_at'>>;

/** The item's file on disk compared with the version the journal hashed. */
export async function fileState(item: UploadItem): Promise<FileState> {
  try {
    const info = await stat(item.path);
    if (!info.isFile()) return { state: 'not-a-file' };
    return { state: info.size === item.size && info.mtimeMs === item.mtime_ms ? 'same' : 'changed' };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'gone' };
    return { state: 'unreadable', error: errorMessage(error) };
  }
}

/** What the journal does about a local problem: update the row, or drop it for the newer version already queued. */
export type LocalProblemPlan = { log: string; changes: ItemChanges } | { log: string; superseded: true };

/**
 * A problem with the file on this computer, found before the upload or by it (ENOENT, EACCES, changed while sent):
 * never the network's, so the journal stays online and counts the attempt. A vanished file fails for good with a
 * clear reason (the watcher queues it again if it comes back); a changed one is hashed again, after a backoff so a
 * file that keeps changing cannot spin; an unreadable one waits with backoff. `latest` is the newest row of its path.
 */
export function planLocalProblem(
  item: UploadItem,
  current: UploadItem,
  file: FileState,
  error: ArchiveError | null,
  latest: UploadItem | undefined,
  now: number,
  backoff: BackoffOptions,
): LocalProblemPlan {
  if (file.state === 'gone' || file.state === 'not-a-file') {
    const reason =
      file.state === 'gone' ? fileProblem('gone', { path: item.path }) : fileProblem('notAFile', { path: item.path });
    return { log: `failed: ${item.path}: ${reason}`, changes: { state: 'failed', last_error: reason } };
  }
  // Changed (or the upload said so): hashed again, as what would be sent is not what was hashed.
  const rehash = file.state === 'changed' || error?.cause instanceof FileChangedError;
  if (rehash && latest && latest.id !== item.id) {
    // The watcher already queued the new version (it came while this one was uploading): that row carries on.
    return { log: `superseded by its newer version: ${item.path}`, superseded: true };
  }
  const delay = backoffDelay(current.attempts, backoff);
  const reason =
    file.state === 'unreadable'
      ? fileProblem('unreadable', { path: item.path, reason: file.error })
      : (error?.message ?? fileProblem('changedBeforeUpload', { path: item.path }));
  return {
    log: `${rehash ? 'changed, hashing again' : 'retrying'} in ${Math.round(delay / 1000)} s: ${item.path}: ${reason}`,
    changes: {
      state: rehash ? 'queued' : 'waiting',
      attempts: current.attempts + 1,
      next_attempt_at: now + delay,
      last_error: reason,
    },
  };
}

/**
 * A file that failed its check before hashing: a permanent problem (too large, an unsupported format) fails the row,
 * anything else queues it again after a backoff. `now` is read only for the retry.
 */
export function planCheckFailure(
  item: UploadItem,
  current: UploadItem,
  result: { error: string; permanent: boolean },
  now: () => number,
  backoff: BackoffOptions,
): { log?: string; changes: ItemChanges } {
  if (result.permanent) {
    return { log: `failed: ${item.path}: ${result.error}`, changes: { state: 'failed', last_error: result.error } };
  }
  return {
    changes: {
      state: 'queued',
      attempts: current.attempts + 1,
      last_error: result.error,
      next_attempt_at: now() + backoffDelay(current.attempts, backoff),
    },
  };
}
