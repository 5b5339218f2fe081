import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { syncDirectory } from '../../shared/fs/sync-directory.ts';

/** A file received into the temp area, hashed while it streamed in. */
export interface StagedFile {
  path: string;
  sha256: string;
  size: number;
}

/**
 * Content-addressed file store: `files/ab/cd/<sha256>`. Files arrive in `tmp/`, are fsynced, then renamed
 * into place (and the directory fsynced), so a crash leaves either no file or a whole one, never a torn one.
 */
export class BlobStore {
  readonly root: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
    this.tmpDir = join(dataDir, 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // Anything left in tmp/ is an upload that never reached a 202: it was never promised to anyone.
    await rm(this.tmpDir, { recursive: true, force: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  newTempPath(): string {
    return join(this.tmpDir, `${randomUUID()}.part`);
  }

  /** Streams `source` into a temp file, hashing as it goes. Rejects (and removes the temp file) on error. */
  async stage(source: Readable, path = this.newTempPath()): Promise<StagedFile> {
    const hash = createHash('sha256');
    let size = 0;
    source.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      size += chunk.length;
    });
    try {
      // flush: the stream fsyncs its descriptor before closing it, and the pipeline settles after the close.
      await pipeline(source, createWriteStream(path, { flags: 'wx', flush: true }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { path, sha256: hash.digest('hex'), size };
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

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /** Temp files currently present (for tests: a rejected upload must leave nothing behind). */
  async tempFiles(): Promise<string[]> {
    return readdir(this.tmpDir);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
