import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { cleanFileName } from '../../../common/download-name.ts';
import { asError, ErrorMessage } from '../../../common/errors.ts';
import { ArchiveError } from '../client/archive-error.ts';
import { resolveInside } from '../safe-path.ts';
import { MAX_UPLOAD_BYTES } from './file-check.ts';

/** The name a chosen file is kept under: its own name, cleaned as a download's is (no path, nothing invisible). */
export function keptFileName(name: string): string {
  const clean = cleanFileName(name);
  return clean === '' ? 'file' : clean.slice(0, 200);
}

/**
 * Copies of files chosen in a page (the browser shell's file input, or a drop on it). A page is never told where a
 * file lives, so its bytes come over the shell's upload route and wait here, in the app's data directory, until the
 * upload journal has sent them; then the copy is deleted. Each file has a folder of its own, so its name stays as
 * chosen (the service takes the upload's file name) and two files of one name never meet.
 */
export class ChosenFiles {
  readonly dir: string;
  private readonly maxBytes: number;

  constructor(dir: string, maxBytes = MAX_UPLOAD_BYTES) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  /**
   * Writes one file; a file above the service's size limit is refused (413) and nothing of it is kept. The body is
   * always read to its end, even after a refusal: a multipart parser feeding it waits for that before its next part.
   */
  async receive(name: string, body: Readable): Promise<string> {
    const folder = resolveInside(this.dir, randomUUID());
    const path = resolveInside(folder, keptFileName(name));
    await mkdir(folder, { recursive: true });
    const out = createWriteStream(path, { flags: 'wx' });
    let failure: Error | null = null;
    out.on('error', (error) => {
      failure ??= error;
    });
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > this.maxBytes && !failure) failure = new ArchiveError(ErrorMessage.fileTooLarge, { status: 413 });
      if (failure) continue;
      await new Promise<void>((done) =>
        out.write(chunk, (error) => {
          if (error) failure ??= error;
          done();
        }),
      );
    }
    out.end();
    await finished(out).catch((error: unknown) => {
      failure ??= asError(error);
    });
    if (failure) {
      await rm(folder, { recursive: true, force: true });
      throw failure;
    }
    return path;
  }

  /** Whether `path` is one of the copies kept here. */
  owns(path: string): boolean {
    const below = relative(this.dir, path);
    return below !== '' && !below.startsWith(`..${sep}`) && below !== '..' && below.split(sep).length === 2;
  }

  /** Deletes a copy (with its folder) once nothing needs it; paths that are not copies kept here are left alone. */
  async discard(path: string): Promise<void> {
    if (this.owns(path)) await rm(dirname(path), { recursive: true, force: true });
  }

  /**
   * Deletes every copy the journal no longer needs (its upload is done, or the item was removed), e.g. at start: a copy
   * whose item was removed from the queue is only found this way.
   */
  async sweep(needed: ReadonlySet<string>): Promise<number> {
    const folders = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    let removed = 0;
    for (const folder of folders) {
      if (!folder.isDirectory()) continue;
      const files = await readdir(join(this.dir, folder.name)).catch(() => []);
      if (files.some((file) => needed.has(join(this.dir, folder.name, file)))) continue;
      await rm(join(this.dir, folder.name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}
