import { constants, createInflate, type Inflate } from 'node:zlib';
import { processingMessage } from '../../../common/processing-messages.ts';
import { megabytes, ProcessingLimitError, type DecodeLimits } from '../processing-limits.ts';

/**
 * Measures what the Flate streams of a PDF inflate to before pdf.js is given the file, because pdf.js has no limit
 * of its own: it inflates a content stream, a font or an image whole, into one growing buffer, whatever its size
 * (a 1 MB file can hold a stream of 1 GiB of zeros). Inflating here is streamed and counted, never kept, so it costs
 * CPU (stopped at the limit) but no memory. Images are not refused for their size: pdf.js leaves out those over
 * `maxImagePixels` without decoding them, and the ones listed here become a note.
 *
 * Streams are found by their `stream` keyword after a dictionary, not through the cross-reference table: a damaged
 * table (which pdf.js repairs by the same scan) cannot hide one, and /Length, which may lie, is not trusted either
 * (input is fed until the deflate data ends). Filter chains are measured while they are Flate (`[/FlateDecode
 * /FlateDecode]`); a chain that starts with another filter (ASCII85, LZW, RunLength) or an encrypted stream is not
 * measured here and is bounded by the memory limit of the analysis process instead.
 */

export interface StreamBudgetReport {
  /** Bytes all measured streams inflate to. */
  decodedBytes: number;
  /** Images over maxImagePixels (pdf.js leaves them out). */
  oversizeImages: Array<{ object: string | null; width: number; height: number }>;
}

const STREAM = Buffer.from('stream');
/** How far back from `stream` a dictionary is looked for (its `N G obj` header). */
const DICTIONARY_WINDOW = 64 * 1024;
const FEED_CHUNK = 64 * 1024;

export async function checkPdfStreams(bytes: Uint8Array, limits: DecodeLimits): Promise<StreamBudgetReport> {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const report: StreamBudgetReport = { decodedBytes: 0, oversizeImages: [] };
  for (let at = file.indexOf(STREAM); at >= 0; at = file.indexOf(STREAM, at + STREAM.length)) {
    const dataStart = streamDataStart(file, at);
    if (dataStart === null) continue;
    const { object, dictionary } = dictionaryBefore(file, at);
    const image = /\/Subtype\s*\/Image\b/.test(dictionary) ? imageSize(dictionary) : null;
    if (image && image.width * image.height > limits.maxImagePixels) report.oversizeImages.push({ object, ...image });
    const stages = leadingFlateStages(dictionary);
    if (stages === 0) continue;
    const perStream = Math.min(limits.maxStreamBytes, limits.maxDecodedBytes - report.decodedBytes);
    const size = await inflatedSize(file, dataStart, stages, perStream);
    report.decodedBytes += size;
    if (size > limits.maxStreamBytes) {
      const mb = megabytes(limits.maxStreamBytes);
      throw new ProcessingLimitError(
        object ? processingMessage('pdfStreamObject', { object, mb }) : processingMessage('pdfStream', { mb }),
      );
    }
    if (report.decodedBytes > limits.maxDecodedBytes) {
      throw new ProcessingLimitError(processingMessage('pdfStreams', { mb: megabytes(limits.maxDecodedBytes) }));
    }
  }
  return report;
}

/** Where a stream's data starts, when `stream` at `at` is the keyword after a dictionary; null otherwise. */
function streamDataStart(file: Buffer, at: number): number | null {
  let before = at - 1;
  while (before > 0 && isWhitespace(file[before]!)) before--;
  if (before < 1 || file[before] !== 0x3e || file[before - 1] !== 0x3e) return null; // not after '>>'
  let start = at + STREAM.length;
  if (file[start] === 0x0d) start++;
  if (file[start] === 0x0a) start++;
  return start === at + STREAM.length ? null : start;
}

const isWhitespace = (byte: number): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0;

function dictionaryBefore(file: Buffer, at: number): { object: string | null; dictionary: string } {
  const window = file.toString('latin1', Math.max(0, at - DICTIONARY_WINDOW), at);
  const headers = [...window.matchAll(/(\d+)\s+(\d+)\s+obj\b/g)];
  const last = headers.at(-1);
  if (!last) return { object: null, dictionary: window.slice(-4096) };
  return { object: last[1]!, dictionary: window.slice(last.index + last[0].length) };
}

function imageSize(dictionary: string): { width: number; height: number } | null {
  const width = /\/Width\s+(\d+)/.exec(dictionary);
  const height = /\/Height\s+(\d+)/.exec(dictionary);
  return width && height ? { width: Number(width[1]), height: Number(height[1]) } : null;
}

/** How many Flate filters the stream's filter chain starts with. */
function leadingFlateStages(dictionary: string): number {
  const match = /\/Filter\s*(\/[^\s/[\]<>()]+|\[([^\]]*)\])/.exec(dictionary);
  if (!match) return 0;
  const names = (match[2] ?? match[1]!).match(/\/[^\s/[\]<>()]+/g) ?? [];
  let stages = 0;
  while (stages < names.length && (names[stages] === '/FlateDecode' || names[stages] === '/Fl')) stages++;
  return stages;
}

/**
 * Bytes the deflate data at `start` inflates to through `stages` inflaters, counted up to just over `cap`. Input is
 * fed until the first inflater reaches the end of its data (or fails: damaged data counts for what came out).
 */
async function inflatedSize(file: Buffer, start: number, stages: number, cap: number): Promise<number> {
  // Z_SYNC_FLUSH: a stream cut short still yields what it holds, as pdf.js reads it.
  const inflaters: Inflate[] = Array.from({ length: stages }, () =>
    createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 256 * 1024 }),
  );
  for (let i = 0; i + 1 < stages; i++) inflaters[i]!.pipe(inflaters[i + 1]!);
  const first = inflaters[0]!;
  const last = inflaters.at(-1)!;
  let total = 0;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  first.once('end', stop);
  last.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total > cap) stop();
  });
  const settled = new Promise<void>((resolve) => {
    last.once('end', resolve);
    last.once('close', resolve);
    for (const inflater of inflaters)
      inflater.once('error', () => {
        stop();
        resolve();
      });
  });
  for (let at = start; at < file.length && !stopped; at += FEED_CHUNK) {
    if (!first.write(file.subarray(at, at + FEED_CHUNK))) {
      await new Promise<void>((resolve) => {
        first.once('drain', resolve);
        first.once('close', resolve);
      });
    }
  }
  if (total > cap || first.destroyed) {
    for (const inflater of inflaters) inflater.destroy();
  } else {
    first.end();
  }
  await settled;
  return total;
}
