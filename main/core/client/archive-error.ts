/**
 * One error type for everything the archive client can meet. `status` is the HTTP status (0 when no response came:
 * connection refused or reset, timeout, DNS); `message` is the service's `error` text when it sent one.
 *
 * `local`: the problem is on this computer, not on the way to the service: the file being uploaded vanished, cannot be
 * read (ENOENT, EACCES, EISDIR, EMFILE...) or changed while it was sent. Neither transient for the client (a retry
 * of the same request cannot help) nor offline (the service may be perfectly reachable).
 */
export type ArchiveErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'auth-paused' | 'local';

export class ArchiveError extends Error {
  readonly status: number;
  readonly kind: ArchiveErrorKind;
  /** From Retry-After / retryAfter on a 429 (or 503), in milliseconds. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { status?: number; kind?: ArchiveErrorKind; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ArchiveError';
    this.status = options.status ?? 0;
    this.kind = options.kind ?? 'http';
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Worth trying again later: the service was unreachable, slow, overloaded or asked us to wait. */
  get transient(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    return this.kind === 'http' && (this.status === 429 || this.status === 408 || this.status >= 500);
  }

  /** The service could not be reached at all (no HTTP answer): the app is offline for this service. */
  get offline(): boolean {
    return this.kind === 'network' || this.kind === 'timeout';
  }

  /** The key was refused (or work is paused until a new key is given). */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

export const isArchiveError = (error: unknown): error is ArchiveError => error instanceof ArchiveError;
