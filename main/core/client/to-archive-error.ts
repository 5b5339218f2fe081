import { errors as undiciErrors } from 'undici';
import { connectionProblem } from '../../../common/connection-problems.ts';
import { errorMessage } from '../../../common/errors.ts';
import { ArchiveError } from './archive-error.ts';
import { FileChangedError } from './multipart-body.ts';

/** Sorts any failure of a call into the one error type, so callers decide on `kind` (retry, go offline, give up). */
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * Codes of this computer's file system (the upload's file, or its file descriptors), never of the network. They start
 * with E like ECONNREFUSED, so they must be told apart before "any E-code is a network error": an ENOENT taken for a
 * network error sent the journal offline, the health check answered, and the vanished file was retried forever.
 */
const LOCAL_FS_CODES = new Set([
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
  'ELOOP',
  'ENAMETOOLONG',
  'EBUSY',
  'EIO',
  'EROFS',
]);

export function toArchiveError(error: unknown, signal?: AbortSignal): ArchiveError {
  if (error instanceof ArchiveError) return error;
  if (signal?.aborted) {
    return signal.reason instanceof ArchiveError
      ? signal.reason
      : new ArchiveError('The request was cancelled', { kind: 'aborted', cause: error });
  }
  if (error instanceof FileChangedError) return new ArchiveError(error.message, { kind: 'local', cause: error });
  const code = (error as { code?: string } | null)?.code ?? '';
  if (LOCAL_FS_CODES.has(code) && !(error instanceof undiciErrors.UndiciError)) {
    return new ArchiveError(error instanceof Error ? error.message : code, { kind: 'local', cause: error });
  }
  if (TIMEOUT_CODES.has(code)) return new ArchiveError(connectionProblem('timeout'), { kind: 'timeout', cause: error });
  if (error instanceof undiciErrors.UndiciError || /^(E[A-Z]+|UND_ERR)/.test(code)) {
    return new ArchiveError(connectionProblem('unreachable', { code: code || errorMessage(error) }), {
      kind: 'network',
      cause: error,
    });
  }
  return new ArchiveError(errorMessage(error), { kind: 'network', cause: error });
}
