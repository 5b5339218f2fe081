import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileProblem } from '../../../common/file-problems.ts';

/**
 * A multipart/form-data body streamed from disk, with an exact Content-Length (so the service can refuse an oversized
 * file before reading it) and a byte counter for progress bars. Written by hand because undici's FormData cannot
 * report progress and a 50 MB file must never sit in memory.
 */
export interface MultipartFile {
  path: string;
  name: string;
  size: number;
  contentType?: string;
}

export interface MultipartBody {
  body: AsyncIterable<Uint8Array>;
  contentType: string;
  contentLength: number;
}

/** The file no longer had the size announced in Content-Length when it was read: a local problem, not the network's. */
export class FileChangedError extends Error {
  override readonly name = 'FileChangedError';
  readonly path: string;
  constructor(path: string, expected: number, read: number) {
    super(fileProblem('changedWhileUploading', { path, expected, read }));
    this.path = path;
  }
}

export function multipartBody(
  fields: Array<[string, string]>,
  file: MultipartFile,
  onProgress?: (sent: number, total: number) => void,
): MultipartBody {
  const boundary = `----archive-${randomBytes(12).toString('hex')}`;
  const encoder = new TextEncoder();
  const parts = fields.map(([name, value]) =>
    encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${escapeQuoted(name)}"\r\n\r\n${value}\r\n`),
  );
  const fileHead = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeQuoted(file.name)}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const contentLength = parts.reduce((n, p) => n + p.byteLength, 0) + fileHead.byteLength + file.size + tail.byteLength;

  async function* body(): AsyncGenerator<Uint8Array> {
    for (const part of parts) yield part;
    yield fileHead;
    let sent = 0;
    onProgress?.(0, file.size);
    // `end` keeps the body at the announced length even if the file grows while it is being sent.
    for await (const chunk of createReadStream(file.path, {
      highWaterMark: 256 * 1024,
      end: Math.max(0, file.size - 1),
    })) {
      const bytes = chunk as Buffer;
      if (file.size === 0) break;
      sent += bytes.byteLength;
      onProgress?.(sent, file.size);
      yield bytes;
    }
    if (sent !== file.size) throw new FileChangedError(file.path, file.size, sent);
    yield tail;
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}`, contentLength };
}

/** What browsers do in form-data headers: quotes and line breaks percent-encoded, UTF-8 kept as is. */
function escapeQuoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
