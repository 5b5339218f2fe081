import type { ArchiveError } from '../client/archive-error.ts';
import { backoffDelay, type BackoffOptions } from '../client/backoff.ts';
import type { UploadItem } from './journal-store.ts';

/**
 * An upload that found no service waits at least this long: the monitor may still say online (a newer request was
 * answered), and the item must not be sent again in a tight loop while uploads in particular keep failing.
 */
const OFFLINE_RETRY_MS = 1_000;

/** What the journal does after a failed upload: the row's new values, a log line, and whether the key was refused. */
export interface UploadFailurePlan {
  changes: Partial<Omit<UploadItem, 'id' | 'created_at'>>;
  log?: string;
  /** The service refused the API key: uploads pause until a new one is set. */
  authRequired?: boolean;
}

/** Decides an item's fate after its upload failed for a reason that is not the file's (see local-problems.ts). */
export function planUploadFailure(
  item: UploadItem,
  current: UploadItem,
  error: ArchiveError,
  now: number,
  backoff: BackoffOptions,
): UploadFailurePlan {
  if (error.kind === 'aborted' || error.kind === 'auth-paused' || error.unauthorized) {
    return {
      changes: { state: 'waiting', last_error: error.kind === 'aborted' ? current.last_error : error.message },
      ...(error.unauthorized
        ? { log: `paused: the service refused the API key (${error.message})`, authRequired: true }
        : {}),
    };
  }
  if (error.offline) {
    // Offline is nobody's fault: no attempt is counted, the item just waits for the service to answer again (the
    // client told the connection monitor, whose change stops the queue).
    return { changes: { state: 'waiting', next_attempt_at: now + OFFLINE_RETRY_MS, last_error: error.message } };
  }
  if (error.transient) {
    const delay = Math.max(error.retryAfterMs ?? 0, backoffDelay(current.attempts, backoff));
    return {
      log: `retrying in ${Math.round(delay / 1000)} s: ${item.path}: ${error.message}`,
      changes: {
        state: 'waiting',
        attempts: current.attempts + 1,
        next_attempt_at: now + delay,
        last_error: error.message,
      },
    };
  }
  return {
    log: `failed: ${item.path}: ${error.message}`,
    changes: { state: 'failed', attempts: current.attempts + 1, last_error: error.message },
  };
}
