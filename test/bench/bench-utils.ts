import { spawnSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** One line of a benchmark table. */
export interface BenchRow {
  name: string;
  /** The figures as shown, e.g. "p50 2.1 ms · p95 3.4 ms (n=200)". */
  measured: string;
  /** The figure a target applies to; information-only rows have none. */
  target?: { label: string; value: number; max: number; unit: string };
}

/** What every suite (`test/bench/<name>.bench.ts`) returns from run(). */
/** What `npm run bench` passes every suite: `--backend` (only the server suite has another than SQLite). */
export interface SuiteOptions {
  backend: 'sqlite' | 'postgres';
}

export interface BenchReport {
  suite: string;
  title: string;
  rows: BenchRow[];
  /** Context a reader needs to judge the figures: data set, sample sizes, anything unusual. */
  notes: string[];
}

export type Verdict = 'pass' | 'MISS' | 'info';

export function verdictOf(row: BenchRow): Verdict {
  if (!row.target) return 'info';
  return row.target.value < row.target.max ? 'pass' : 'MISS';
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export const ms = (value: number): string => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
/** "median … (min …, max …, n=…)" of timings in ms. */
export function spread(samples: readonly number[]): string {
  return `median ${ms(median(samples))} (min ${ms(Math.min(...samples))}, max ${ms(Math.max(...samples))}, n=${samples.length})`;
}
export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A latency row: shows p50 and the checked percentile, with the target on the latter. */
export function latencyRow(name: string, samples: readonly number[], checked: 95 | 99, maxMs: number): BenchRow {
  const p50 = percentile(samples, 50);
  const pX = percentile(samples, checked);
  return {
    name,
    measured: `p50 ${ms(p50)} · p${checked} ${ms(pX)} (n=${samples.length})`,
    target: { label: `p${checked} < ${maxMs} ms`, value: pX, max: maxMs, unit: 'ms' },
  };
}

/** Runs `task` for indexes 0..count-1 with at most `concurrency` calls in flight. */
export async function runConcurrent(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/**
 * Calls `task` one at a time after `warmup` unmeasured calls, until `maxSamples` or `budgetMs` is reached
 * (but at least `minSamples`), so a slow scenario cannot stall the whole run. Returns the durations in ms.
 */
export async function sampleSequential(
  task: (index: number) => Promise<void>,
  options: { warmup: number; minSamples: number; maxSamples: number; budgetMs: number },
): Promise<number[]> {
  for (let i = 0; i < options.warmup; i++) await task(i);
  const durations: number[] = [];
  const deadline = performance.now() + options.budgetMs;
  while (
    durations.length < options.maxSamples &&
    (durations.length < options.minSamples || performance.now() < deadline)
  ) {
    const started = performance.now();
    await task(options.warmup + durations.length);
    durations.push(performance.now() - started);
  }
  return durations;
}

// ---------------------------------------------------------------------------------------------------------------
// Resident memory of another process (Linux /proc).

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) * 1024;
}

export const procAvailable = (pid: number): boolean => {
  try {
    statusField(pid, 'VmRSS');
    return true;
  } catch {
    return false;
  }
};

/** Current resident set size of a process, in bytes. */
export const readRss = (pid: number): number => statusField(pid, 'VmRSS');

/** Peak resident set size since start or since the last resetPeakRss(), in bytes. */
export const readPeakRss = (pid: number): number => statusField(pid, 'VmHWM');

/** Resets the kernel's peak-RSS mark of a process we own (clear_refs 5); false where that is not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS of a process on a timer, remembering every sample and the peak. */
export class RssSampler {
  readonly samples: Array<{ at: number; rss: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(intervalMs: number): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  sample(): number {
    const rss = readRss(this.pid);
    this.samples.push({ at: performance.now(), rss });
    return rss;
  }

  /** Samples taken between two performance.now() instants (inclusive). */
  between(from: number, to: number): number[] {
    return this.samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.rss);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): who used the machine during a measurement. On a small machine a busy neighbour
// (another test run, the load generator itself) shows up in every latency figure, so it is reported next to them.

const TICK_MS = 10; // USER_HZ is 100 on every Linux we run on

/**
 * A process's parent, the CPU time (user + system) it has used so far and what its ended children used (the ones it
 * has reaped), in ms.
 */
export function processStat(pid: number): { parent: number; ownMs: number; endedChildrenMs: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After "pid (comm) ": state, ppid, … utime (12th), stime, cutime, cstime, in clock ticks.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return {
    parent: fields[1]!,
    ownMs: (fields[11]! + fields[12]!) * TICK_MS,
    endedChildrenMs: (fields[13]! + fields[14]!) * TICK_MS,
  };
}

/** CPU time (user + system) a process has used so far, in ms. */
export function processCpuMs(pid: number): number {
  return processStat(pid).ownMs;
}

/** Machine-wide CPU time so far, in ms summed over all cores: busy and total. */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}

/** Starts a CPU account of the server process(es), this process and the whole machine; end() summarises it. */
export function cpuAccount(serverPids: number | readonly number[]): {
  end(): { serverMs: number; clientMs: number; othersMs: number; busyShare: number };
} {
  const pids = typeof serverPids === 'number' ? [serverPids] : serverPids;
  const serversCpuMs = (): number => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
  const server0 = serversCpuMs();
  const client0 = process.cpuUsage();
  const machine0 = machineCpuMs();
  return {
    end() {
      const serverMs = serversCpuMs() - server0;
      const client = process.cpuUsage(client0);
      const clientMs = (client.user + client.system) / 1000;
      const machine = machineCpuMs();
      const busy = machine.busy - machine0.busy;
      return {
        serverMs,
        clientMs,
        othersMs: Math.max(0, busy - serverMs - clientMs),
        busyShare: busy / Math.max(1, machine.total - machine0.total),
      };
    },
  };
}

/**
 * Waits (at most maxWaitMs) until the machine has been nearly idle for a second, so a stage does not start in the
 * middle of someone else's test run. Returns the busy share of the last second (0..1) for the notes.
 */
export async function waitForQuietMachine(options: {
  maxWaitMs: number;
  busyBelow: number;
}): Promise<{ busyShare: number; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const before = machineCpuMs();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = machineCpuMs();
    const busyShare = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    const waitedMs = performance.now() - started;
    if (busyShare < options.busyBelow || waitedMs >= options.maxWaitMs) return { busyShare, waitedMs };
  }
}

/** Bytes the kernel still has to write back (Dirty + Writeback) and block I/Os in flight on all devices (Linux). */
function diskBacklog(): { pendingBytes: number; ioInFlight: number } {
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0);
  // /proc/diskstats: the 12th column is "I/Os currently in progress" (discards of deleted files included).
  const ioInFlight = readFileSync('/proc/diskstats', 'utf8')
    .split('\n')
    .map((line) => Number(line.trim().split(/\s+/)[11] ?? 0))
    .reduce((a, b) => a + b, 0);
  return { pendingBytes: (kb('Dirty') + kb('Writeback')) * 1024, ioInFlight };
}

/**
 * Waits (at most maxWaitMs) until the disk has caught up: writes of an earlier stage (or of the previous run's data
 * being deleted) flushed, and no I/O in flight for a second. Disk latency measurements otherwise pay for them: an
 * fsync queues behind the writeback, and an upload's 202 waits on its fsyncs. Linux only; elsewhere it returns at once.
 */
export async function waitForQuietDisk(options: { maxWaitMs: number }): Promise<{ quiet: boolean; waitedMs: number }> {
  const started = performance.now();
  if (process.platform !== 'linux') return { quiet: true, waitedMs: 0 };
  spawnSync('sync'); // starts writeback of everything dirty now rather than after the kernel's 30 s expiry
  let quietSince: number | null = null;
  for (;;) {
    const now = performance.now();
    const { pendingBytes, ioInFlight } = diskBacklog();
    if (pendingBytes < 8 * 1024 * 1024 && ioInFlight === 0) quietSince ??= now;
    else quietSince = null;
    if (quietSince !== null && now - quietSince >= 1000) return { quiet: true, waitedMs: now - started };
    if (now - started >= options.maxWaitMs) return { quiet: false, waitedMs: now - started };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits (at most maxWaitMs) until a process has used less than `busyBelow` of one core for a second: background
 * work the server starts by itself (loading caches, embedding documents) must be over before its latency is measured.
 */
export async function waitForIdleProcess(
  pid: number,
  options: { maxWaitMs: number; busyBelow: number },
): Promise<{ idle: boolean; waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const before = processCpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const waitedMs = performance.now() - started;
    if ((processCpuMs(pid) - before) / 1000 < options.busyBelow) return { idle: true, waitedMs };
    if (waitedMs >= options.maxWaitMs) return { idle: false, waitedMs };
  }
}

/** The machine a run happened on, for the report. */
/** Keeps the reference workload's result alive, so the loop is not optimised away. */
export let referenceSink = 0;

/**
 * Milliseconds a fixed single-threaded JavaScript workload takes (median of 5): a yardstick printed next to figures
 * measured on different machines or on a busy one, so they can be put side by side.
 */
export function cpuReference(): number {
  const durations: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    let x = 0x9e3779b9;
    let sum = 0;
    for (let i = 0; i < 50_000_000; i++) {
      // xorshift32: integer work the JIT cannot fold away.
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      sum = (sum + (x & 0xff)) | 0;
    }
    referenceSink = sum;
    durations.push(performance.now() - started);
  }
  return median(durations);
}

/**
 * SHA-256 throughput of node:crypto over 64 MB in memory (median of 3 runs), in MB/s: a CPU figure anyone can
 * reproduce on another machine, printed next to timings so they can be compared across machines.
 */
export function sha256Reference(): number {
  const MB = 1024 * 1024;
  const buffer = randomFillSync(Buffer.alloc(64 * MB));
  const rates: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    createHash('sha256').update(buffer).digest();
    rates.push(64 / ((performance.now() - started) / 1000));
  }
  return median(rates);
}

export function machineInfo(): string {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {
    // not Linux: os.cpus() is what there is
  }
  return (
    `${model}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ` +
    `SQLite ${process.versions.sqlite ?? 'n/a'}, ${process.platform}`
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Tables.

const HEADER = ['Metric', 'Measured', 'Target', 'Result'] as const;

function cells(row: BenchRow): string[] {
  const verdict = verdictOf(row);
  return [row.name, row.measured, row.target?.label ?? '—', verdict === 'info' ? '—' : verdict];
}

/** A fixed-width text table for the terminal. */
export function formatTable(rows: readonly BenchRow[]): string {
  const body = rows.map(cells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The same table in Markdown (for docs/benchmarks.md). */
export function formatMarkdownTable(rows: readonly BenchRow[]): string {
  const escape = (c: string): string => c.replaceAll('|', '\\|');
  const line = (r: readonly string[]): string => `| ${r.map(escape).join(' | ')} |`;
  return [line(HEADER), `|${HEADER.map(() => '---').join('|')}|`, ...rows.map((r) => line(cells(r)))].join('\n');
}

/**
 * BENCH_SERVER_NODE_ARGS: extra Node flags for the service processes a bench starts (after the service's own,
 * SERVER_NODE_FLAGS), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them (written when they stop).
 */
export const serverNodeArgs = (): string[] =>
  (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
