import { HttpError } from './http-error.ts';

/** What the service answers when its own storage is full: its fault, so a 5xx a client retries, and it says why. */
export const STORAGE_FULL_MESSAGE = "Insufficient storage: the archive's disk is full";

/** 507 with a Retry-After: space may be freed, and the upload is worth sending again then. */
export const storageFull = (): HttpError => new HttpError(507, STORAGE_FULL_MESSAGE, { 'Retry-After': '60' });

/**
 * The error (or one it was caused by) says the storage is full: the file system (ENOSPC, EDQUOT), SQLite
 * (SQLITE_FULL, errcode 13) or PostgreSQL (SQLSTATE 53100 disk_full).
 */
export function isStorageFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const { code, errcode } = cause as { code?: unknown; errcode?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === '53100' || errcode === 13) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
