import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { UploadMetadata } from '../../../common/archive-types.ts';
import { fileProblem } from '../../../common/file-problems.ts';
import { validateUploadMetadata } from '../../../common/upload-metadata.ts';
import { ArchiveError } from '../client/archive-error.ts';

/* Files the user dropped on the app are checked up front, like the service would: a bad one refuses the whole drop. */

/** The metadata form's values, validated; a 400 ArchiveError when they are not what the service accepts. */
export function droppedMetadata(raw: unknown): UploadMetadata {
  if (raw === undefined) return {};
  const parsed = validateUploadMetadata(raw);
  if (!parsed.ok) throw new ArchiveError(parsed.error, { status: 400 });
  return parsed.value;
}

/** What is at a dropped path; a 400 ArchiveError when nothing is, or it cannot be read. */
export function statDropped(path: string): Promise<Stats> {
  return stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new ArchiveError(
      error.code === 'ENOENT'
        ? fileProblem('notFound', { path })
        : fileProblem('unreadable', { path, reason: error.message }),
      { status: 400 },
    );
  });
}

/** Absolute paths with size and mtime; a 400 ArchiveError for a path that is missing, unreadable or not a file. */
export function statDroppedFiles(
  paths: readonly string[],
): Promise<Array<{ path: string; size: number; mtimeMs: number }>> {
  return Promise.all(
    paths.map(async (raw) => {
      const path = resolve(raw);
      const info = await statDropped(path);
      if (!info.isFile()) throw new ArchiveError(fileProblem('notAFile', { path }), { status: 400 });
      return { path, size: info.size, mtimeMs: info.mtimeMs };
    }),
  );
}
