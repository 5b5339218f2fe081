/**
 * Format detection by content (never by file name or declared type) for stored uploads.
 * The head checks and MIME tables live in sniff.ts (runtime-neutral); this module adds the
 * on-disk detection, which opens zip and OLE containers to tell the Office formats apart.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { probeOleAsync } from './ole-compound.ts';
import { classifyHead, detected, HEAD_BYTES, type DetectedFormat } from './sniff.ts';
import { probeZipContainer } from './zip-container.ts';

export { contentTypeMatches, detectFormatFromHead, HEAD_BYTES, MIME_TYPES, type DetectedFormat } from './sniff.ts';

/** Reads up to `length` bytes at `offset`; fewer only at end of file. */
async function readAt(file: FileHandle, offset: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await file.read(buffer, filled, length - filled, offset + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/**
 * Reads only what it needs (header bytes, zip central directory, OLE directory sectors) from a
 * file on disk; never the whole file into memory. Returns null when the bytes match no supported
 * format. Content problems (truncated, corrupt, hostile) give null; failing to open or read the
 * file at all (ENOENT, EISDIR, EIO) rejects, since that is not a question of format.
 */
export async function detectFormat(path: string): Promise<DetectedFormat | null> {
  const file = await open(path, 'r');
  let kind: ReturnType<typeof classifyHead>;
  try {
    const { size } = await file.stat();
    kind = classifyHead(await readAt(file, 0, Math.min(size, HEAD_BYTES)));
    if (kind === 'ole') {
      const format = await probeOleAsync((offset, length) => readAt(file, offset, length));
      return format === null ? null : detected(format);
    }
  } finally {
    await file.close();
  }
  if (kind === 'zip') {
    const format = await probeZipContainer(path);
    return format === null ? null : detected(format);
  }
  return kind;
}
