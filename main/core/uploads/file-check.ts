import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ErrorMessage, errorMessage } from '../../../common/errors.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import { detectFormat } from '../../../shared/formats/detect-format.ts';

/** The service's limit; a bigger file fails here, before it spends a rate-limit token. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export type FileCheck =
  | { ok: true; sha256: string; size: number; mtimeMs: number; mimeType: string }
  | { ok: false; error: string; permanent: boolean };

/**
 * What the service would say about a file, decided locally: readable, at most 50 MB, a supported format by its bytes
 * (the same detection the service runs, so the message is the one it would give). Also its SHA-256, streamed.
 */
export async function checkFile(path: string): Promise<FileCheck> {
  let before;
  try {
    before = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      permanent: true,
      error:
        code === 'ENOENT'
          ? fileProblem('notFound', { path })
          : fileProblem('unreadable', { path, reason: errorMessage(error) }),
    };
  }
  if (!before.isFile()) return { ok: false, permanent: true, error: fileProblem('notAFile', { path }) };
  if (before.size > MAX_UPLOAD_BYTES) return { ok: false, permanent: true, error: ErrorMessage.fileTooLarge };
  let format;
  try {
    format = await detectFormat(path);
  } catch (error) {
    return { ok: false, permanent: false, error: fileProblem('unreadable', { path, reason: errorMessage(error) }) };
  }
  if (!format) return { ok: false, permanent: true, error: ErrorMessage.unsupportedFormat };
  try {
    const sha256 = await hashFile(path);
    const after = await stat(path);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      return { ok: false, permanent: false, error: fileProblem('changedWhileRead', { path }) };
    }
    return { ok: true, sha256, size: after.size, mtimeMs: after.mtimeMs, mimeType: format.mimeType };
  } catch (error) {
    return { ok: false, permanent: false, error: fileProblem('unreadable', { path, reason: errorMessage(error) }) };
  }
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
