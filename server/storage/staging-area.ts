import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StagedFile } from './blob-storage.ts';

/**
 * The local temp directory where every blob store receives uploads, hashing them as they stream in, before it
 * commits them to wherever it keeps files.
 */
export class StagingArea {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Empties the directory: anything left there is an upload that never reached a 202, promised to no one. */
  async reset(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
  }

  newPath(suffix = '.part'): string {
    return join(this.dir, `${randomUUID()}${suffix}`);
  }

  /**
   * Streams `source` into a new file at `path` (which must not exist), hashing as it goes, and fsyncs it. On error
   * the partial file is removed and the error rethrown.
   */
  async stage(source: Readable, path = this.newPath()): Promise<StagedFile> {
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

  async discard(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  list(): Promise<string[]> {
    return readdir(this.dir);
  }
}
