import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StagedFile } from './blob-storage.ts';

/**
 * Streams `source` into a new file at `path` (which must not exist), hashing as it goes, and fsyncs it. On error the
 * partial file is removed and the error rethrown. Every blob store stages this way, whatever it commits to.
 */
export async function stageToFile(source: Readable, path: string): Promise<StagedFile> {
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
