/**
 * Server benchmark: upload-accept latency under sustained load, list and search latency at 100,000 documents,
 * and the server's memory while a 50 MB upload streams in. The service runs in a child process
 * (server-entry.ts) so every figure is of the server, not of this load generator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { errorMessage } from '../../common/errors.ts';
import { openDatabase } from '../../server/db/database.ts';
import { SERVER_NODE_FLAGS } from '../../server/gc-tuning.ts';
import type { GcCounts } from './server-entry.ts';
import { configureEmbeddings, syncEmbeddings } from '../../server/search/embedding-index.ts';
import {
  cpuAccount,
  latencyRow,
  median,
  mib,
  ms,
  percentile,
  procAvailable,
  readPeakRss,
  readRss,
  resetPeakRss,
  RssSampler,
  runConcurrent,
  sampleSequential,
  serverNodeArgs,
  waitForIdleProcess,
  waitForQuietDisk,
  waitForQuietMachine,
  type BenchReport,
  type BenchRow,
  type SuiteOptions,
} from './bench-utils.ts';
import { runPostgres } from './pg-server.ts';

const ENTRY = join(import.meta.dirname, 'server-entry.ts');

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
export const MB = 1024 * 1024;

/**
 * Upload accept. The target is judged at a sustained rate (open loop): 100 uploads/s of 1 MB is 100 MB/s, about what
 * a gigabit link carries, or 600 keys each at the spec's 10 uploads per minute. The saturation rows (closed loop)
 * report capacity. BENCH_UPLOAD_RATE changes the rate.
 */
export const UPLOAD = {
  bytes: 1 * MB,
  warmup: 20,
  rate: positiveInteger('BENCH_UPLOAD_RATE', 100),
  sustainedCount: 1000,
  count: 300,
  concurrency: 4,
  p99MaxMs: 30,
  single: 50,
};
/** BENCH_DOCUMENTS overrides the archive size for a quick trial run; the targets are for 100,000. */
export const LIST_SEARCH = {
  documents: positiveInteger('BENCH_DOCUMENTS', 100_000),
  p95MaxMs: 25,
  warmup: 5,
  minSamples: 30,
  maxSamples: 200,
  budgetMs: 15_000,
};
const BIG_UPLOAD = { bytes: 50 * MB - 1024, sampleEveryMs: 10, maxGrowthBytes: 64 * MB };

export async function run(options: SuiteOptions = { backend: 'sqlite' }): Promise<BenchReport> {
  if (options.backend === 'postgres') return runPostgres();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const dirs: string[] = [];
  const newDir = async (name: string): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), `archive-bench-${name}-`));
    dirs.push(dir);
    return dir;
  };
  try {
    const stages = [
      ['upload-accept latency', benchUploadAccept, 'upload'],
      ['memory during a 50 MB upload', benchBigUploadMemory, 'rss'],
      ['list and search latency', benchListAndSearch, 'list'],
    ] as const;
    // BENCH_ONLY=upload,rss,list runs a subset (for investigating one figure); `search` is the list stage's search
    // scenarios alone.
    const only = process.env.BENCH_ONLY?.split(',');
    for (const [label, stage, dirName] of stages) {
      if (only && !only.includes(dirName) && !(dirName === 'list' && only.includes('search'))) continue;
      console.log(`server: ${label} …`);
      const stageRows = await stage(await newDir(dirName), notes);
      for (const row of stageRows) console.log(`  ${row.name}: ${row.measured}`);
      rows.push(...stageRows);
    }
  } finally {
    if (process.env.BENCH_KEEP_DATA) notes.push(`data kept in: ${dirs.join(', ')}`);
    else await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
  return { suite: 'server', title: 'Archive Service (server process)', rows, notes };
}

// ---------------------------------------------------------------------------------------------------------------
// The server child process.

/** A client of the service at `url`; with several API keys, each request takes the next (rate limits are per key). */
export class BenchClient {
  readonly url: string;
  private readonly keys: readonly string[];
  private nextKey = 0;
  // Idle sockets are dropped well before the server's 5 s keep-alive timeout, so a request never races its close.
  protected readonly agent = new Agent({ keepAlive: true, timeout: 2000 });

  constructor(url: string, keys: string | readonly string[]) {
    this.url = url;
    this.keys = typeof keys === 'string' ? [keys] : keys;
  }

  get key(): string {
    return this.keys[this.nextKey++ % this.keys.length]!;
  }

  destroy(): void {
    this.agent.destroy();
  }

  fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('Authorization', `Bearer ${this.key}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return fetch(this.url + path, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  }

  /**
   * POST /v1/documents with a hand-built multipart body over a keep-alive node:http agent: the cheapest client
   * there is, so the load generator takes as little CPU from the server as possible. A path streams from disk.
   */
  async upload(file: Buffer | string, filename: string): Promise<UploadResult> {
    try {
      return await this.uploadOnce(file, filename);
    } catch (error) {
      // The one failure a keep-alive client must expect: the server closed the reused socket as the request went out.
      if ((error as Error & { reusedSocket?: boolean }).reusedSocket) return this.uploadOnce(file, filename);
      throw error;
    }
  }

  private uploadOnce(file: Buffer | string, filename: string): Promise<UploadResult> {
    const boundary = `----bench${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = typeof file === 'string' ? statSync(file).size : file.length;
    return new Promise<UploadResult>((resolve, reject) => {
      const started = performance.now();
      const req = request(
        `${this.url}/v1/documents`,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            Authorization: `Bearer ${this.key}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': head.length + size + tail.length,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(Object.assign(error, { reusedSocket: req.reusedSocket && error.code === 'ECONNRESET' })),
      );
      req.write(head);
      if (typeof file !== 'string') {
        req.write(file);
        req.end(tail);
      } else {
        pipeline(createReadStream(file), req, { end: false }).then(() => req.end(tail), reject);
      }
    });
  }
}

class BenchServer extends BenchClient {
  readonly pid: number;
  private readonly child: ChildProcess;
  private readonly replies: AsyncIterator<string>;

  private constructor(
    child: ChildProcess,
    replies: AsyncIterator<string>,
    hello: { url: string; pid: number; key: string },
  ) {
    super(hello.url, hello.key);
    this.child = child;
    this.replies = replies;
    this.pid = hello.pid;
  }

  static async start(dataDir: string, extraArgs: readonly string[] = []): Promise<BenchServer> {
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, ...serverNodeArgs(), ENTRY, '--data-dir', dataDir, ...extraArgs],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`))),
    );
    exited.catch(() => undefined);
    // Replies are JSON lines. Anything before a reply's opening brace is the server's own diagnostics (a flag such as
    // --trace-gc prints to the same stdout, at times on the reply's line): it goes to stderr.
    const replies = (async function* () {
      for await (const line of createInterface({ input: child.stdout! })) {
        const reply = line.indexOf('{"');
        if (reply !== 0) process.stderr.write(`${reply < 0 ? line : line.slice(0, reply)}\n`);
        if (reply >= 0) yield line.slice(reply);
      }
    })();
    const first = await Promise.race([replies.next(), exited]);
    if (first.done) throw new Error('bench server ended before it was ready');
    return new BenchServer(child, replies, JSON.parse(first.value) as { url: string; pid: number; key: string });
  }

  async command(name: 'rss' | 'idle' | 'gc' | 'close'): Promise<Record<string, unknown>> {
    this.child.stdin!.write(`${name}\n`);
    const reply = await this.replies.next();
    if (reply.done) throw new Error(`bench server gone while waiting for "${name}"`);
    return JSON.parse(reply.value) as Record<string, unknown>;
  }

  /** RSS of the server process: /proc where there is one, else the server's own report. */
  async rss(): Promise<number> {
    return procAvailable(this.pid) ? readRss(this.pid) : ((await this.command('rss')).rss as number);
  }

  async idle(): Promise<void> {
    await this.command('idle');
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.exitCode !== null) return;
    this.agent.destroy();
    await this.command('close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

export interface UploadResult {
  status: number;
  body: string;
  ms: number;
}

export function expectAccepted(result: UploadResult, what: string): { duplicate_of: string | null } {
  if (result.status !== 202)
    throw new Error(`${what}: expected 202, got ${result.status} ${result.body.slice(0, 300)}`);
  return JSON.parse(result.body) as { duplicate_of: string | null };
}

async function withServer<T>(
  dataDir: string,
  body: (server: BenchServer) => Promise<T>,
  extraArgs: readonly string[] = [],
): Promise<T> {
  const server = await BenchServer.start(dataDir, extraArgs);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/**
 * Before a measurement: the server must have finished its own background work (hard requirement, up to 10 min), and
 * the machine should be quiet (best effort, up to 1 min; the notes say when it was not).
 */
export async function settle(servers: ReadonlyArray<{ pid: number }>, label: string, notes: string[]): Promise<void> {
  if (!servers.every((server) => procAvailable(server.pid))) return;
  for (const server of servers) {
    const ownWork = await waitForIdleProcess(server.pid, { maxWaitMs: 600_000, busyBelow: 0.05 });
    if (!ownWork.idle)
      notes.push(`${label}: server ${server.pid} was still busy after ${(ownWork.waitedMs / 1000).toFixed(0)} s`);
  }
  const { busyShare, waitedMs } = await waitForQuietMachine({ maxWaitMs: 60_000, busyBelow: 0.2 });
  if (busyShare >= 0.2)
    notes.push(
      `${label}: the machine was still ${(busyShare * 100).toFixed(0)}% busy after ${(waitedMs / 1000).toFixed(0)} s of waiting`,
    );
  const disk = await waitForQuietDisk({ maxWaitMs: 60_000 });
  if (!disk.quiet)
    notes.push(`${label}: the disk was still writing back after ${(disk.waitedMs / 1000).toFixed(0)} s of waiting`);
}

/** One line on who used the CPU during a measurement. */
export function cpuNote(used: ReturnType<ReturnType<typeof cpuAccount>['end']>, per: number, unit: string): string {
  return (
    `CPU per ${unit}: server ${ms(used.serverMs / per)}, load generator ${ms(used.clientMs / per)}, ` +
    `other processes ${ms(used.othersMs / per)} (machine ${(used.busyShare * 100).toFixed(0)}% busy)`
  );
}

export async function expectStatus(res: Response, status: number, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

// ---------------------------------------------------------------------------------------------------------------
// PDFs of an exact size: one text page plus an uncompressed stream of filler bytes, so any random filler keeps
// the file a valid PDF (and a distinct one, so uploads are not duplicates).

interface PdfLayout {
  head: Buffer;
  fillerLength: number;
  tail: Buffer;
}

function pdfLayout(lines: readonly string[], totalBytes: number): PdfLayout {
  const text = lines.map((l) => `(${l.replace(/[\\()]/g, (c) => `\\${c}`)}) Tj T*`).join(' ');
  const content = `BT /F1 12 Tf 14 TL 50 780 Td ${text} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  const build = (fillerLength: number): PdfLayout => {
    let head = '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n';
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(head.length);
      head += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    offsets.push(head.length);
    head += `6 0 obj\n<< /Length ${fillerLength} >>\nstream\n`;
    const afterFiller = '\nendstream\nendobj\n';
    const xref = head.length + fillerLength + afterFiller.length;
    const tail =
      `${afterFiller}xref\n0 7\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}` +
      `trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return { head: Buffer.from(head, 'latin1'), fillerLength, tail: Buffer.from(tail, 'latin1') };
  };
  let layout = build(totalBytes);
  // The digits of the lengths and offsets depend on the filler length: settle in a few rounds.
  for (let round = 0; round < 5; round++) {
    const size = layout.head.length + layout.fillerLength + layout.tail.length;
    if (size === totalBytes) return layout;
    layout = build(layout.fillerLength + totalBytes - size);
  }
  throw new Error(`cannot lay out a PDF of exactly ${totalBytes} bytes`);
}

/**
 * Distinct PDFs of one size, cheaply: the random filler is made once, and each copy gets a fresh 16-byte random
 * nonce at its start, so every file has its own SHA-256 (no duplicates) while the load generator, which shares the
 * machine with the server, spends a copy instead of a megabyte of random numbers per upload.
 */
export function pdfTemplate(lines: readonly string[], totalBytes: number): () => Buffer {
  const { head, fillerLength, tail } = pdfLayout(lines, totalBytes);
  const template = Buffer.concat([head, randomBytes(fillerLength), tail]);
  return () => {
    const copy = Buffer.from(template);
    randomFillSync(copy, head.length, Math.min(16, fillerLength));
    return copy;
  };
}

/** Writes a PDF of exactly `totalBytes` to disk in 1 MB pieces (never whole in memory). */
async function writeBigPdf(path: string, totalBytes: number): Promise<void> {
  const { head, fillerLength, tail } = pdfLayout(['Benchmark: large upload', 'Filler follows.'], totalBytes);
  const file = await open(path, 'wx');
  try {
    await file.write(head);
    for (let left = fillerLength; left > 0; left -= MB) await file.write(randomBytes(Math.min(MB, left)));
    await file.write(tail);
  } finally {
    await file.close();
  }
  if (statSync(path).size !== totalBytes) throw new Error('big PDF has the wrong size');
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Upload-accept latency.

async function benchUploadAccept(dataDir: string, notes: string[]): Promise<BenchRow[]> {
  const makePdf = pdfTemplate(['Rechnung 2024-117', 'Stadtwerke Musterstadt', 'Betrag: 84,20 EUR'], UPLOAD.bytes);
  /** One upload; timed from the request's start to the 202 read (the file is made before). */
  const uploadOne = async (server: BenchServer, label: string, index: number, file = makePdf()): Promise<number> => {
    const result = await server.upload(file, `${label}-${index}.pdf`);
    if (expectAccepted(result, 'upload').duplicate_of) throw new Error('a benchmark upload was taken as a duplicate');
    return result.ms;
  };
  const warmUp = (server: BenchServer): Promise<void> =>
    runConcurrent(UPLOAD.warmup, UPLOAD.concurrency, async (i) => void (await uploadOne(server, 'warmup', i)));
  /** Closed loop: UPLOAD.concurrency uploads in flight at all times, a new one as soon as one is answered. */
  const saturated = async (server: BenchServer, label: string): Promise<{ latencies: number[]; wall: number }> => {
    const latencies: number[] = [];
    const started = performance.now();
    await runConcurrent(
      UPLOAD.count,
      UPLOAD.concurrency,
      async (i) => void latencies.push(await uploadOne(server, label, i)),
    );
    return { latencies, wall: performance.now() - started };
  };
  const rows = await withServer(join(dataDir, 'live'), async (server) => {
    await warmUp(server);
    await server.idle();
    await settle([server], 'uploads', notes);
    let cpu = procAvailable(server.pid) ? cpuAccount(server.pid) : null;
    await server.command('gc');
    const open = await sustainedUploads((i, file) => uploadOne(server, 'sustained', i, file), makePdf);
    let used = cpu?.end();
    const gc = (await server.command('gc')) as GcCounts;
    const wallSustained = UPLOAD.sustainedCount / UPLOAD.rate;
    await server.idle();
    notes.push(
      `sustained uploads: ${UPLOAD.sustainedCount} distinct ${mib(UPLOAD.bytes)} PDFs started at a fixed rate of ` +
        `${UPLOAD.rate}/s (${wallSustained.toFixed(0)} s, ${((UPLOAD.rate * UPLOAD.bytes) / MB).toFixed(0)} MB/s), latency from ` +
        `each upload's scheduled start; at most ${open.maxInFlight} in flight, ${open.lateStarts} started > 2 ms late` +
        (used ? `; ${cpuNote(used, UPLOAD.sustainedCount, 'upload')}` : '') +
        `; server main-thread GC meanwhile: ${gc.major} major (${gc.majorMs.toFixed(0)} ms with incremental steps), ` +
        `${gc.minor} minor (${gc.minorMs.toFixed(0)} ms), longest pause ${gc.maxMs.toFixed(1)} ms`,
    );

    await settle([server], 'uploads (saturation)', notes);
    cpu = procAvailable(server.pid) ? cpuAccount(server.pid) : null;
    const { latencies, wall } = await saturated(server, 'bench');
    used = cpu?.end();
    const drainStart = performance.now();
    await server.idle();
    const drain = performance.now() - drainStart;
    // Information: the same uploads one at a time, i.e. without queueing behind each other.
    const single: number[] = [];
    for (let i = 0; i < UPLOAD.single; i++) single.push(await uploadOne(server, 'single', i));
    notes.push(
      `saturation: ${UPLOAD.count} uploads, ${UPLOAD.concurrency} in flight at all times (closed loop); its latency is ` +
        `queueing: ${UPLOAD.concurrency} ÷ throughput. Text extraction of earlier uploads runs in the server's worker meanwhile ` +
        `(queue drained ${(drain / 1000).toFixed(1)} s after the last 202)` +
        (used ? `; ${cpuNote(used, UPLOAD.count, 'upload')}` : ''),
    );
    return [
      latencyRow(
        `Upload accept, ${mib(UPLOAD.bytes)} PDF, sustained ${UPLOAD.rate}/s`,
        open.latencies,
        99,
        UPLOAD.p99MaxMs,
      ),
      {
        name: `Upload accept, saturation: ${UPLOAD.concurrency} in flight, closed loop`,
        measured:
          `p50 ${ms(percentile(latencies, 50))} · p99 ${ms(percentile(latencies, 99))} (n=${latencies.length}) · ` +
          `${(UPLOAD.count / (wall / 1000)).toFixed(1)} uploads/s · max ${ms(Math.max(...latencies))}`,
      },
      {
        name: `Upload accept, ${mib(UPLOAD.bytes)} PDF, one at a time`,
        measured: `p50 ${ms(percentile(single, 50))} · p99 ${ms(percentile(single, 99))} (n=${single.length})`,
      },
    ];
  });
  // Diagnostic: the accept path alone at saturation, with the processor stopped (uploads are queued, nothing is
  // extracted). The difference to the saturation row is what processing running alongside costs the uploads.
  rows.push(
    await withServer(
      join(dataDir, 'paused'),
      async (server) => {
        await warmUp(server);
        await settle([server], 'uploads (processing paused)', notes);
        const cpu = procAvailable(server.pid) ? cpuAccount(server.pid) : null;
        const { latencies, wall } = await saturated(server, 'paused');
        const used = cpu?.end();
        if (used) notes.push(`saturation with processing paused: ${cpuNote(used, UPLOAD.count, 'upload')}`);
        return {
          name: 'Upload accept, saturation, processing paused (diagnostic)',
          measured:
            `p50 ${ms(percentile(latencies, 50))} · p99 ${ms(percentile(latencies, 99))} (n=${latencies.length}) · ` +
            `${(UPLOAD.count / (wall / 1000)).toFixed(1)} uploads/s`,
        };
      },
      ['--pause-processing'],
    ),
  );
  return rows;
}

/**
 * Open loop: upload i starts at start + i / rate whether or not earlier ones are answered, and its latency runs from
 * that scheduled moment (a late start counts against the server, so a stall cannot hide the requests it delayed).
 */
export async function sustainedUploads(
  uploadOne: (index: number, file: Buffer) => Promise<number>,
  makePdf: () => Buffer,
): Promise<{ latencies: number[]; lateStarts: number; maxInFlight: number }> {
  const latencies: number[] = [];
  const pending: Array<Promise<void>> = [];
  const interval = 1000 / UPLOAD.rate;
  const start = performance.now() + 50;
  let lateStarts = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  for (let i = 0; i < UPLOAD.sustainedCount; i++) {
    const file = makePdf(); // made ahead of its slot, not inside the measured time
    const scheduled = start + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (performance.now() - scheduled > 2) lateStarts++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    pending.push(
      uploadOne(i, file).then(() => {
        inFlight--;
        latencies.push(performance.now() - scheduled);
      }),
    );
  }
  await Promise.all(pending);
  return { latencies, lateStarts, maxInFlight };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Server memory while a 50 MB upload streams in.

async function benchBigUploadMemory(dataDir: string, notes: string[]): Promise<BenchRow[]> {
  const bigPath = join(dataDir, 'big.pdf');
  await writeBigPdf(bigPath, BIG_UPLOAD.bytes);
  try {
    return await withServer(join(dataDir, 'archive'), async (server) => {
      if (!procAvailable(server.pid)) {
        notes.push('RSS: /proc not available on this platform, memory figures skipped');
        return [];
      }
      // Steady state first: one ordinary upload processed, so the worker and its parser are loaded as in service.
      const warm = pdfTemplate(['warm-up'], MB);
      expectAccepted(await server.upload(warm(), 'warm.pdf'), 'warm-up upload');
      await server.idle();
      await settle([server], 'rss', notes);

      const sampler = new RssSampler(server.pid);
      sampler.start(BIG_UPLOAD.sampleEveryMs);
      await new Promise((r) => setTimeout(r, 500));
      const baselineEnd = performance.now();
      const baseline = median(sampler.between(0, baselineEnd));
      const hwmReset = resetPeakRss(server.pid);
      const started = performance.now();
      expectAccepted(await server.upload(bigPath, 'big.pdf'), '50 MB upload');
      const accepted = performance.now();
      const hwm = hwmReset ? readPeakRss(server.pid) : Number.NaN;
      const during = sampler.between(started, accepted);
      const peak = Math.max(...during);
      // Information only: after the 202 the worker reads the stored file to extract its text.
      const processStart = performance.now();
      await server.idle();
      const processed = performance.now();
      sampler.stop();
      const processingPeak = Math.max(...sampler.between(processStart, processed));

      notes.push(
        `RSS: baseline ${mib(baseline)} (median of ${sampler.between(0, baselineEnd).length} samples), ` +
          `${during.length} samples every ${BIG_UPLOAD.sampleEveryMs} ms during the upload (${ms(accepted - started)} to the 202)` +
          (hwmReset ? `; kernel peak (VmHWM, reset before the upload) ${mib(hwm)}` : ''),
      );
      return [
        {
          name: `Server RSS growth during a ${mib(BIG_UPLOAD.bytes)} upload`,
          measured: `+${mib(peak - baseline)} (peak ${mib(peak)}${hwmReset ? `, VmHWM +${mib(hwm - baseline)}` : ''})`,
          target: {
            label: `< ${mib(BIG_UPLOAD.maxGrowthBytes)}`,
            value: Math.max(peak, hwmReset ? hwm : 0) - baseline,
            max: BIG_UPLOAD.maxGrowthBytes,
            unit: 'B',
          },
        },
        {
          name: 'Server RSS growth while that file is processed',
          measured: `+${mib(processingPeak - baseline)} (text extraction in the worker, ${ms(processed - processStart)})`,
        },
      ];
    });
  } finally {
    await rm(bigPath, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 2. List and search at 100,000 documents, seeded straight into the database before the server starts.

export const SEED = 20_240_601;

/** Deterministic PRNG (mulberry32): the same data set on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The most frequent words of an archive of German household and office paperwork; ranks 1.. of the vocabulary.
const COMMON_WORDS = `der die und für mit rechnung betrag zahlung vom auf den das ist bitte kunde datum nummer ihre wir
  vertrag versicherung konto steuer monat jahr euro summe beitrag leistung gebühr frist kündigung mahnung angebot
  gutschrift lieferung auftrag bestellung versand adresse straße telefon email bank iban überweisung lastschrift
  mandat referenz zeitraum abrechnung verbrauch strom gas wasser miete nebenkosten versicherungsnummer police
  schaden arzt praxis behandlung krankenkasse rezept apotheke finanzamt bescheid einkommen lohn gehalt arbeitgeber
  urlaub termin änderung hinweis anlage seite gesamt netto brutto mwst umsatzsteuer rabatt skonto fällig
  zahlbar innerhalb tagen erhalten freundlichen grüßen sehr geehrte damen herren kundennummer rechnungsnummer
  vertragsnummer zählerstand tarif grundgebühr abschlag guthaben nachzahlung erstattung antrag bestätigung
  invoice payment amount due date customer account total please thank order delivery insurance contract`
  .split(/\s+/)
  .filter(Boolean);
const SYLLABLES = [
  'ka',
  'lo',
  'mer',
  'stein',
  'berg',
  'ri',
  'na',
  'tu',
  'vel',
  'dor',
  'sch',
  'ei',
  'an',
  'ort',
  'ung',
  'heim',
  'feld',
  'ba',
  'ke',
  'li',
  'mo',
  'ser',
  'ti',
  'gra',
  'pul',
  'wen',
  'zu',
  'ä',
  'ö',
  'ü',
  'ker',
  'sel',
  'hof',
];
const VOCABULARY_SIZE = 20_000;

export function vocabulary(random: () => number): string[] {
  const words = new Set(COMMON_WORDS);
  while (words.size < VOCABULARY_SIZE) {
    let word = '';
    const parts = 2 + Math.floor(random() * 3);
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/** Draws ranks 0..n-1 with Zipf's law (s = 1): word frequencies as in real text. */
export function zipfSampler(n: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let rank = 0; rank < n; rank++) cumulative[rank] = sum += 1 / (rank + 1);
  return () => {
    const x = random() * sum;
    let lo = 0,
      hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export const CATEGORY_NAMES = [
  'Rechnungen',
  'Verträge',
  'Versicherungen',
  'Steuern',
  'Bank',
  'Gesundheit',
  'Wohnen',
  'Arbeit',
];

export const TAG_NAMES = [
  'wichtig',
  'steuer-2023',
  'steuer-2024',
  'privat',
  'büro',
  'auto',
  'haus',
  'kinder',
  'reise',
  'garantie',
  'erledigt',
  'offen',
  'archiv',
  'gesundheit',
  'bank',
  'versicherung',
  'strom',
  'internet',
  'handy',
  'miete',
];

export const DOC_TYPES = [
  'Rechnung',
  'Vertrag',
  'Police',
  'Bescheid',
  'Kontoauszug',
  'Mahnung',
  'Angebot',
  'Gutschrift',
  'Lohnabrechnung',
  'Brief',
];

/** What a sender's name ends in. */
export const SENDER_FORMS = ['GmbH', 'AG', 'KG', 'e.V.', 'Versicherung', 'Stadtwerke', 'Praxis', 'Bank'];

interface SeedResult {
  words: string[];
  spaces: string[];
  seconds: number;
  bytes: number;
  embedder: string;
}

/**
 * Fills a fresh data directory with `count` realistic documents (rows, full-text index, embeddings) before a server
 * opens it. Exported for other suites that need a large archive.
 */
export async function seedArchive(dataDir: string, count: number): Promise<SeedResult> {
  const started = performance.now();
  const db = await openDatabase(join(dataDir, 'archive.sqlite'));
  // Seeding only: durability is irrelevant for a throw-away data set, and the server reopens with its own settings.
  db.raw.exec('PRAGMA synchronous = OFF');
  db.raw.exec('PRAGMA cache_size = -262144');
  const random = prng(SEED);
  const words = vocabulary(random);
  const nextWord = zipfSampler(words.length, random);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const now = new Date().toISOString();

  const defaultSpace = (db.raw.prepare('SELECT id FROM spaces WHERE is_default = 1').get() as { id: string }).id;
  const spaces = [defaultSpace, randomUUID(), randomUUID()];
  db.raw.exec('BEGIN');
  const insertSpace = db.raw.prepare('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)');
  insertSpace.run(spaces[1]!, 'Privat', now);
  insertSpace.run(spaces[2]!, 'Firma', now);
  const categories = new Map<string, string[]>();
  const insertCategory = db.raw.prepare('INSERT INTO categories (id, space_id, name, created_at) VALUES (?, ?, ?, ?)');
  for (const space of spaces) {
    categories.set(
      space,
      CATEGORY_NAMES.map((name) => {
        const id = randomUUID();
        insertCategory.run(id, space, name, now);
        return id;
      }),
    );
  }
  const senderNames = Array.from(
    { length: 300 },
    (_, i) => `${words[200 + i * 7]!.replace(/^./, (c) => c.toUpperCase())} ${pick(SENDER_FORMS)}`,
  );
  // Senders and tags are kept per space: each space has its own row for every name.
  const sendersBySpace = new Map(
    spaces.map((space) => [
      space,
      senderNames.map((name) => {
        const id = randomUUID();
        db.raw
          .prepare('INSERT INTO senders (id, space_id, name, created_at) VALUES (?, ?, ?, ?)')
          .run(id, space, `${name} ${id.slice(0, 4)}`, now);
        return id;
      }),
    ]),
  );
  const tagIdsBySpace = new Map(
    spaces.map((space) => [
      space,
      TAG_NAMES.map((name) =>
        Number(
          (
            db.raw.prepare('INSERT INTO tags (space_id, name) VALUES (?, ?) RETURNING id').get(space, name) as {
              id: number;
            }
          ).id,
        ),
      ),
    ]),
  );
  db.raw.exec('COMMIT');

  const insertDocument = db.raw
    .prepare(`INSERT INTO documents (id, space_id, category_id, sender_id, status, title, original_filename,
    mime_type, file_format, size_bytes, sha256, page_count, language, document_date, content, extracted_data, error,
    created_at, updated_at, processed_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'application/pdf', 'pdf', ?, ?, ?, 'de', ?, ?, '{}', ?, ?, ?, ?, ?)`);
  const insertTag = db.raw.prepare('INSERT INTO document_tags (document_id, tag_id) VALUES (?, ?)');
  const fiveYears = 5 * 365 * 24 * 3600 * 1000;
  const firstCreated = Date.now() - fiveYears;
  const batch = 5000;
  for (let start = 0; start < count; start += batch) {
    db.raw.exec('BEGIN');
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const space = random() < 0.7 ? spaces[0]! : random() < 0.67 ? spaces[1]! : spaces[2]!;
      const created = new Date(firstCreated + (fiveYears * i) / count + Math.floor(random() * 60_000));
      const documentDate =
        random() < 0.9
          ? new Date(created.getTime() - Math.floor(random() * 30) * 86_400_000).toISOString().slice(0, 10)
          : null;
      const senderIndex = random() < 0.9 ? Math.floor(random() * senderNames.length) : null;
      const sender = senderIndex === null ? null : sendersBySpace.get(space)![senderIndex]!;
      const senderLabel = senderIndex === null ? 'Unbekannt' : senderNames[senderIndex]!;
      const title = `${pick(DOC_TYPES)} ${senderLabel} ${(documentDate ?? created.toISOString()).slice(0, 7)}`;
      const length = 150 + Math.floor(random() * 300);
      let content = '';
      for (let w = 0; w < length; w++) content += (w % 12 === 11 ? '\n' : w === 0 ? '' : ' ') + words[nextWord()]!;
      const roll = random();
      const status = roll < 0.95 ? 'completed' : roll < 0.97 ? 'failed' : roll < 0.99 ? 'skipped' : 'pending';
      const updated = new Date(created.getTime() + Math.floor(random() * 3_600_000)).toISOString();
      const id = randomUUID();
      insertDocument.run(
        id,
        space,
        random() < 0.8 ? pick(categories.get(space)!) : null,
        sender,
        status,
        title,
        `${title.replaceAll(' ', '_')}.pdf`,
        20_000 + Math.floor(random() * 2_000_000),
        randomBytes(32).toString('hex'),
        1 + Math.floor(random() * 5),
        documentDate,
        status === 'completed' ? content : '',
        status === 'failed' ? 'Processing failed: bench' : null,
        created.toISOString(),
        updated,
        status === 'pending' ? null : updated,
        random() < 0.01 ? updated : null,
      );
      const tagCount = Math.floor(random() * random() * 4);
      const tagIds = tagIdsBySpace.get(space)!;
      for (const tag of new Set(Array.from({ length: tagCount }, () => pick(tagIds)))) insertTag.run(id, tag);
    }
    db.raw.exec('COMMIT');
  }
  // The full-text rows, as await reindexDocument() writes them, in one statement.
  db.raw.exec(`INSERT INTO documents_fts (rowid, title, content, sender, tags)
    SELECT d.rowid, d.title, d.content, coalesce(s.name, ''),
      coalesce((SELECT group_concat(t.name, ' ') FROM document_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.document_id = d.id), '')
    FROM documents d LEFT JOIN senders s ON s.id = d.sender_id`);
  // The vectors of semantic search, with the embedder the bench server uses (server-entry.ts: the built-in one): a
  // running archive has them all, and a server that found them missing would spend the benchmark computing them.
  const index = await configureEmbeddings(db, { kind: 'hashed' });
  const { embedded } = await syncEmbeddings(db, index.embedder, { batchSize: 256 });
  db.raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  await db.close();
  return {
    words,
    spaces,
    seconds: (performance.now() - started) / 1000,
    bytes: statSync(join(dataDir, 'archive.sqlite')).size,
    embedder: `${index.embedder.id} (${embedded.toLocaleString('en')} documents)`,
  };
}

export interface Scenario {
  name: string;
  request: (client: BenchClient, index: number) => Promise<Response>;
}

/** The seeded archive's vocabulary without seeding: vocabulary() is the first use of seedArchive's generator. */
export const seededWords = (): string[] => vocabulary(prng(SEED));

/**
 * BENCH_ARCHIVE=<dir> keeps the seeded archive in that directory and reuses it on later runs (seeding 100,000
 * documents takes over a minute). The server writes to it (an API key per run, pending migrations), never documents.
 */
async function archiveFor(dataDir: string, notes: string[]): Promise<{ dir: string; words: string[] }> {
  const reuse = process.env.BENCH_ARCHIVE;
  if (reuse && existsSync(join(reuse, 'archive.sqlite'))) {
    notes.push(
      `list/search: reused the archive seeded before in ${reuse} (BENCH_ARCHIVE; BENCH_DOCUMENTS is not checked)`,
    );
    return { dir: reuse, words: seededWords() };
  }
  const dir = reuse ?? dataDir;
  if (reuse) await mkdir(reuse, { recursive: true });
  const seed = await seedArchive(dir, LIST_SEARCH.documents);
  notes.push(
    `list/search: ${LIST_SEARCH.documents.toLocaleString('en')} documents seeded in ${seed.seconds.toFixed(1)} s ` +
      `(database ${mib(seed.bytes)}; 3 spaces, 150-449 words of Zipf-distributed text each, 95% completed, 1% soft-deleted; ` +
      `embeddings ${seed.embedder})`,
  );
  return { dir, words: seed.words };
}

async function benchListAndSearch(dataDir: string, notes: string[]): Promise<BenchRow[]> {
  const { dir: archiveDir, words } = await archiveFor(dataDir, notes);
  const scenarios = listSearchScenarios(words, LIST_SEARCH.documents);
  return withServer(archiveDir, async (server) => {
    await settle([server], 'list/search', notes);
    return measureScenarios(server, scenarios, [server.pid], LIST_SEARCH.p95MaxMs, notes);
  });
}

/** The list and search requests of the bench: five list rows, four search rows (query words by Zipf rank). */
export function listSearchScenarios(words: readonly string[], documents: number): Scenario[] {
  const deep = Math.floor(documents / 2);
  const list =
    (query: string): Scenario['request'] =>
    (client) =>
      client.fetch(`/v1/documents${query}`);
  const search =
    (queries: readonly string[]): Scenario['request'] =>
    (client, i) =>
      client.fetch('/v1/search', { method: 'POST', json: { query: queries[i % queries.length], limit: 20 } });
  // Query words by rank in the Zipf vocabulary: 'rechnung' is among the top ten, the rare ones come from the tail.
  const rare = words.slice(15_000, 15_010);
  const pairs = Array.from({ length: 10 }, (_, i) => `${words[40 + i]} ${words[120 + i * 3]}`);
  return [
    { name: 'GET /v1/documents (default: created_at desc, 50)', request: list('') },
    { name: 'GET /v1/documents?sort_by=title&sort_order=asc', request: list('?sort_by=title&sort_order=asc') },
    { name: 'GET /v1/documents?status=completed', request: list('?status=completed') },
    { name: 'GET /v1/documents?status=failed', request: list('?status=failed') },
    { name: `GET /v1/documents?offset=${deep}`, request: list(`?offset=${deep}`) },
    { name: 'POST /v1/search common word ("rechnung")', request: search(['rechnung']) },
    { name: 'POST /v1/search rare word', request: search(rare) },
    { name: 'POST /v1/search two words', request: search(pairs) },
    { name: 'POST /v1/search prefix ("vers")', request: search(['vers']) },
  ];
}

/** Each scenario in turn, sequential requests (sampleSequential), a p95 row each; BENCH_ONLY=search: search alone. */
export async function measureScenarios(
  client: BenchClient,
  scenarios: readonly Scenario[],
  serverPids: readonly number[],
  p95MaxMs: number,
  notes: string[],
): Promise<BenchRow[]> {
  notes.push(
    `list/search: each scenario: ${LIST_SEARCH.warmup} warm-up requests, then ${LIST_SEARCH.minSamples}-${LIST_SEARCH.maxSamples} sequential requests`,
  );
  const only = process.env.BENCH_ONLY?.split(',') ?? [];
  const searchOnly = only.includes('search') && !only.includes('list');
  const rows: BenchRow[] = [];
  const cpu = serverPids.every(procAvailable) ? cpuAccount(serverPids) : null;
  let requests = 0;
  for (const scenario of scenarios) {
    if (searchOnly && !scenario.name.startsWith('POST /v1/search')) continue;
    let total = 0;
    let estimated = false;
    let samples: number[];
    try {
      samples = await sampleSequential(async (i) => {
        const body = (await expectStatus(await scenario.request(client, i), 200, scenario.name)) as {
          total: number;
          total_is_estimate?: boolean;
          items: unknown[];
        };
        if (body.items.length === 0 && body.total > 0) throw new Error(`${scenario.name}: empty page of ${body.total}`);
        total = Math.max(total, body.total);
        estimated ||= body.total_is_estimate === true;
        requests++;
      }, LIST_SEARCH);
    } catch (error) {
      // A scenario the service fails is a missed target with its reason, and the other scenarios still run.
      rows.push({
        name: scenario.name,
        measured: `failed: ${errorMessage(error)}`,
        target: { label: `p95 < ${p95MaxMs} ms`, value: Infinity, max: p95MaxMs, unit: 'ms' },
      });
      continue;
    }
    const hits = `${estimated ? '~' : ''}${total.toLocaleString('en')} hits${estimated ? ', estimated' : ''}`;
    rows.push(latencyRow(`${scenario.name} [${hits}]`, samples, 95, p95MaxMs));
  }
  const used = cpu?.end();
  if (used) notes.push(`list/search: ${cpuNote(used, requests, 'request')}`);
  return rows;
}
