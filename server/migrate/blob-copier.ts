import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { BlobStore } from '../storage/blob-store.ts';

export interface BlobProblem {
  sha256: string;
  reason: string;
}

export interface BlobResult {
  copied: number;
  /** At the target already with the recorded size (an earlier run, or a shared store). */
  skipped: number;
  /** Not copied: bytes that do not hash to their name, or a target copy of the wrong size. */
  failed: BlobProblem[];
  /** Named by documents but absent from the source directory. */
  missing: string[];
  bytes: number;
}

/** Files copied at once: a few uploads in flight keep a remote store busy without flooding it. */
const DEFAULT_CONCURRENCY = 4;

/**
 * Copies the source archive's stored files into the target store, each hashed while it streams (the store stages
 * every file through a SHA-256); a file whose bytes do not match its name is reported and not copied. Files that do
 * not fit go on the report; the copy of the others goes on. A store error (unreachable, refused) stops it.
 */
export async function copyBlobs(
  sourceDir: string,
  blobs: ReadonlyArray<{ sha256: string; size: number }>,
  target: BlobStorage,
  concurrency = DEFAULT_CONCURRENCY,
): Promise<BlobResult> {
  const source = new BlobStore(sourceDir); // for its paths only: never initialised, never written
  const result: BlobResult = { copied: 0, skipped: 0, failed: [], missing: [], bytes: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < blobs.length) {
      const blob = blobs[next++]!;
      await copyBlob(source.pathOf(blob.sha256), blob, target, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, blobs.length) }, worker));
  result.failed.sort((a, b) => a.sha256.localeCompare(b.sha256));
  result.missing.sort();
  return result;
}

async function copyBlob(
  path: string,
  blob: { sha256: string; size: number },
  target: BlobStorage,
  result: BlobResult,
): Promise<void> {
  const there = await target.stat(blob.sha256);
  if (there) {
    if (there.size === blob.size) result.skipped++;
    else
      result.failed.push({
        sha256: blob.sha256,
        reason: `the target holds ${there.size} bytes under this name, the archive records ${blob.size}: remove that copy and run again`,
      });
    return;
  }
  if (!(await isFile(path))) {
    result.missing.push(blob.sha256);
    return;
  }
  const staged = await target.stage(createReadStream(path));
  if (staged.sha256 !== blob.sha256) {
    await target.discard(staged.path);
    result.failed.push({ sha256: blob.sha256, reason: `its bytes hash to ${staged.sha256} (damaged at the source)` });
    return;
  }
  await target.commit(staged);
  result.copied++;
  result.bytes += staged.size;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
