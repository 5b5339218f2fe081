import { createWriteStream } from 'node:fs';
import { access, link, mkdir, rename, rm } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { downloadFileName } from '../../../common/download-name.ts';
import { detectFormat } from '../../../shared/formats/detect-format.ts';
import { filenameFromContentDisposition } from './content-disposition.ts';
import { header } from './response-headers.ts';
import { toArchiveError } from './to-archive-error.ts';
import { resolveInside } from '../safe-path.ts';

export interface DownloadedFile {
  path: string;
  fileName: string;
  size: number;
  contentType: string;
}

/**
 * Streams a fetched file (a 200 from its signed URL) into `directory` through a temp file, so no half file remains,
 * and names it after its Content-Disposition unless `fileName` is given.
 */
export async function saveDownload(
  response: Dispatcher.ResponseData,
  id: string,
  directory: string,
  options: { fileName?: string; overwrite?: boolean },
): Promise<DownloadedFile> {
  await mkdir(directory, { recursive: true });
  const temp = resolveInside(directory, `.download.${process.pid}.${Date.now()}.part`);
  let target: string;
  try {
    await pipeline(response.body, createWriteStream(temp, { flags: 'wx' }));
    // The service's name keeps the user's words, but the extension is that of the bytes received: a hostile or
    // mistaken service cannot make the desktop save an executable or script under a name the OS would run.
    const fileName =
      options.fileName ??
      downloadFileName(
        filenameFromContentDisposition(header(response.headers, 'content-disposition'), id),
        (await detectFormat(temp))?.mimeType ?? 'application/octet-stream',
      );
    target = options.overwrite ? resolveInside(directory, fileName) : await freeName(directory, fileName);
    if (options.overwrite) await rename(temp, target);
    else {
      // link() never replaces an existing file: a name taken meanwhile moves on to the next suffix.
      for (let n = 2; ; n++) {
        try {
          await link(temp, target);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 10_000) throw error;
          target = await freeName(directory, fileName, n);
        }
      }
      await rm(temp, { force: true });
    }
  } catch (error) {
    await rm(temp, { force: true });
    throw toArchiveError(error);
  }
  return {
    path: target,
    fileName: basename(target),
    size: Number(header(response.headers, 'content-length') ?? 0),
    contentType: header(response.headers, 'content-type') ?? 'application/octet-stream',
  };
}

/** `name.pdf`, else `name (2).pdf`, `name (3).pdf`...: the first that does not exist in `directory`. */
async function freeName(directory: string, fileName: string, from = 1): Promise<string> {
  const ext = extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  for (let n = from; ; n++) {
    const candidate = resolveInside(directory, n < 2 ? fileName : `${stem} (${n})${ext}`);
    try {
      await access(candidate);
    } catch {
      return candidate;
    }
  }
}
