import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { syncDirectory } from '../../shared/fs/sync-directory.ts';
import {
  BlobNotFoundError,
  BlobRangeError,
  checkRange,
  contentKey,
  type BlobStorage,
  type ByteRange,
  type LocalCopy,
  type StagedFile,
} from './blob-storage.ts';
import { StagingArea } from './staging-area.ts';

export type { StagedFile } from './blob-storage.ts';

/**
 * Content-addressed file store: `files/ab/cd/<sha256>`. Files arrive in `tmp/`, are fsynced, then renamed
 * into place (and the directory fsynced), so a crash leaves either no file or a whole one, never a torn one.
 */
export class BlobStore implements BlobStorage {
  readonly root: string;
  private readonly staging: StagingArea;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
    this.staging = new StagingArea(join(dataDir, 'tmp'));
  }

  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await this.staging.reset();
  }

  pathOf(sha256: string): string {
    return join(this.root, ...contentKey(sha256).split('/'));
  }

  newTempPath(): string {
    return this.staging.newPath();
  }

  /** Streams `source` into a temp file, hashing as it goes. Rejects (and removes the temp file) on error. */
  stage(source: Readable, path?: string): Promise<StagedFile> {
    return this.staging.stage(source, path);
  }

  /** Moves a staged file into the store. If the content is already stored, the staged copy is dropped. */
  async commit(staged: StagedFile): Promise<string> {
    const target = this.pathOf(staged.sha256);
    if (await exists(target)) {
      await rm(staged.path, { force: true });
      return target;
    }
    await mkdir(dirname(target), { recursive: true });
    await rename(staged.path, target);
    await syncDirectory(dirname(target));
    return target;
  }

  discard(path: string): Promise<void> {
    return this.staging.discard(path);
  }

  /** Temp files currently present (for tests: a rejected upload must leave nothing behind). */
  tempFiles(): Promise<string[]> {
    return this.staging.list();
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    try {
      return { size: (await stat(this.pathOf(sha256))).size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async openRead(sha256: string, range?: ByteRange): Promise<Readable> {
    if (range) checkRange(range);
    const handle = await open(this.pathOf(sha256), 'r').catch((error: unknown) => {
      throw isMissing(error) ? new BlobNotFoundError(sha256) : error;
    });
    try {
      if (!range) return handle.createReadStream();
      const { size } = await handle.stat();
      if (range.start >= size) throw new BlobRangeError(range, size);
      return handle.createReadStream({ start: range.start, end: Math.min(range.end ?? size - 1, size - 1) });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The stored file itself: it is local already, and content-addressed files are never rewritten. */
  async localCopy(sha256: string): Promise<LocalCopy> {
    const path = this.pathOf(sha256);
    if (!(await exists(path))) throw new BlobNotFoundError(sha256);
    return { path, release: () => Promise.resolve() };
  }

  /** Null: local files have no URL of their own; the service serves them. */
  presignedDownloadUrl(): Promise<string | null> {
    return Promise.resolve(null);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
