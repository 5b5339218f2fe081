import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { crc32, gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { Harness } from './archive-harness.ts';

/** A response read off a raw socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What happened on a raw connection: the response, if the server sent one before the connection ended. */
export interface RawExchange {
  response: RawResponse | null;
  ended: 'response' | 'closed' | 'error' | 'timeout';
}

export type RawPart = string | Uint8Array;

const bytesOf = (part: RawPart): Uint8Array => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part);

/** Request line plus headers, ending with the blank line. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Sends exactly the given bytes over a fresh TCP connection to the service: anything fetch would refuse to
 * produce (wrong Content-Length, broken framing, invalid percent-encoding). With `end: true` the client half-closes
 * after writing; with `destroy: true` it resets the connection instead. Resolves with whatever came back.
 */
export function sendRaw(
  url: string,
  parts: readonly RawPart[],
  options: { end?: boolean; destroy?: boolean; timeoutMs?: number } = {},
): Promise<RawExchange> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (ended: RawExchange['ended']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response: parseResponse(Buffer.concat(chunks)), ended });
    };
    const timer = setTimeout(() => settle('timeout'), options.timeoutMs ?? 5000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (completeResponse(Buffer.concat(chunks))) settle('response');
    });
    socket.on('end', () => settle('closed'));
    socket.on('close', () => settle('closed'));
    socket.on('error', () => settle('error'));
    socket.on('connect', () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(bytesOf(part));
      }
      if (options.destroy) {
        // Let the written bytes leave before the reset.
        setTimeout(() => socket.resetAndDestroy(), 50);
      } else if (options.end) socket.end();
    });
  });
}

function splitHead(raw: Buffer): { head: string; body: Buffer } | null {
  const at = raw.indexOf('\r\n\r\n');
  if (at < 0) return null;
  return { head: raw.subarray(0, at).toString('latin1'), body: raw.subarray(at + 4) };
}

function completeResponse(raw: Buffer): boolean {
  const parts = splitHead(raw);
  if (!parts) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(parts.head);
  return length ? parts.body.length >= Number(length[1]) : false;
}

function parseResponse(raw: Buffer): RawResponse | null {
  const parts = splitHead(raw);
  if (!parts) return null;
  const [statusLine = '', ...lines] = parts.head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(status[1]), headers, body: parts.body.toString('utf8') };
}

/** One part of a hand-built multipart body. */
export interface MultipartPart {
  name: string;
  value: RawPart;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body written out byte for byte (so tests control every header of every part). */
export function multipartBody(boundary: string, parts: readonly MultipartPart[]): Uint8Array {
  const out: Uint8Array[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.name}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    out.push(bytesOf(`${head}\r\n`), bytesOf(part.value), bytesOf('\r\n'));
  }
  out.push(bytesOf(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

/** A zip archive with stored (uncompressed) entries: a valid container that is not an Office document. */
export function storedZip(entries: ReadonlyArray<{ name: string; data: RawPart }>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.from(bytesOf(entry.data));
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A 1×1 greyscale baseline TIFF (little-endian). */
export function tiff1x1(): Uint8Array {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 3, 1],
    [257, 3, 1],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, 8 + 2 + 8 * 12 + 4],
    [277, 3, 1],
    [279, 4, 1],
  ];
  const out = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + 1);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    if (type === 3) out.writeUInt16LE(value, at + 8);
    else out.writeUInt32LE(value, at + 8);
  });
  out[out.length - 1] = 0x80; // the one pixel
  return out;
}

/** The head of a JPEG (SOI, JFIF APP0, EOI): enough for a signature check, which is all the service does with it. */
export function minimalJpeg(seed = 0): Uint8Array {
  return Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xfe,
    0x00,
    0x03,
    seed & 0xff,
    0xff,
    0xd9,
  ]);
}

/** What a request may have left behind on the server: rows, staged temp files, stored blobs. */
export interface ServerState {
  rows: number;
  listTotal: number;
  tmpFiles: string[];
  blobs: number;
}

export async function serverState(h: Harness): Promise<ServerState> {
  const rows = (await h.db.get<{ n: number }>('SELECT count(*) AS n FROM documents'))!.n;
  const res = await h.api('/v1/documents?limit=1');
  if (res.status !== 200) throw new Error(`GET /v1/documents answered ${res.status}: the server stopped serving`);
  const { total } = (await res.json()) as { total: number };
  return {
    rows,
    listTotal: total,
    tmpFiles: await readdir(join(h.dataDir, 'tmp')),
    blobs: await h.storedFileCount(),
  };
}

/** Polls `check` until it stops throwing (a rejected upload's cleanup may finish just after the socket closed). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** Asserts the exact error envelope of the spec: status, `{ success: false, error }`, JSON content type. */
export async function expectError(res: Response, status: number, error: string): Promise<void> {
  const body: unknown = await res.json();
  expect({ status: res.status, body }).toEqual({ status, body: { success: false, error } });
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
}

export async function readJson<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

export const MULTIPART_BOUNDARY = '----archive-test-boundary-7d4a1c';

/** POST /v1/documents with a hand-built multipart body (every part header under the test's control). */
export function postMultipart(
  h: Harness,
  parts: readonly MultipartPart[],
  key: string | null = h.adminKey,
): Promise<Response> {
  return h.api('/v1/documents', {
    method: 'POST',
    key,
    body: multipartBody(MULTIPART_BOUNDARY, parts),
    headers: { 'Content-Type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
  });
}

/** After a rejected request: no row, no temp file, no stored file, and the server still answers. */
export async function expectNothingWritten(h: Harness, before: ServerState): Promise<void> {
  await eventually(async () => expect(await serverState(h)).toEqual({ ...before, tmpFiles: [] }));
}

const FORMAT_FIXTURES = resolve(import.meta.dirname, '../fixtures/formats');

/** A file of test/fixtures/formats (stored gzipped when large), or null when another helper has not made it. */
export function formatFixture(name: string): Uint8Array | null {
  const raw = join(FORMAT_FIXTURES, name);
  if (existsSync(raw)) return new Uint8Array(readFileSync(raw));
  if (existsSync(`${raw}.gz`)) return new Uint8Array(gunzipSync(readFileSync(`${raw}.gz`)));
  return null;
}
