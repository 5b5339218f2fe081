import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { LlmPermitBroker } from '../intelligence/llm/permits.ts';
import type { Analysis, AnalysisInput } from './analysis.ts';
import type { ChildMessage } from './analysis-worker.ts';
import { ProcessingLimitError } from './processing-limits.ts';
import { processingMessage } from '../../common/processing-messages.ts';

const WORKER_URL = new URL('./analysis-worker.ts', import.meta.url);

/** How often the memory of a busy analysis process is looked at. */
const MEMORY_CHECK_MS = 100;
/** The niceness of a long job: the OS gives the CPU to fresh jobs and to the service first. */
const LOW_PRIORITY = 10;
/** Bytes of an analysis process's stderr kept, to tell why it died. */
const STDERR_TAIL = 4096;
/** How long a fresh analysis process may take to start (load its code) before it is taken for lost. */
const DEFAULT_START_LIMIT_MS = 120_000;

/** The analysis process was lost (killed from outside, crashed): another try may succeed. */
export class AnalysisProcessLost extends Error {
  override name = 'AnalysisProcessLost';
}

export interface WorkerPoolOptions {
  /** Analysis processes kept running between jobs (more are started while more jobs run). */
  idleProcesses: number;
  /** Resident memory one analysis process may use, in MiB. */
  memoryMb: number;
  /** Wall time one job may take, from when its process is ready. */
  jobTimeoutMs: number;
  /** Wall time a fresh process may take to start; over it, the job fails as AnalysisProcessLost (retried). */
  startLimitMs?: number;
}

export interface RunningAnalysis {
  result: Promise<Analysis>;
  /** Lets fresh jobs and the service go first from now on (a long job). */
  lowerPriority(): void;
}

interface AnalysisProcess {
  child: ChildProcess;
  /** Last resident size the process reported itself (platforms without /proc). */
  reportedRss: number;
  stderr: string;
  niced: boolean;
  /** Its code is loaded (it said 'ready'): a job sent now starts at once. */
  ready: boolean;
  /** Called once when it becomes ready. */
  onReady?: () => void;
}

/**
 * Analysis runs in child processes, one job at a time each, so that the OS enforces what a worker thread could not:
 * a decompression bomb or a parser gone wrong costs its own process, never the service's heap. Each process gets a
 * V8 heap limit (--max-old-space-size) and is watched: over its resident-memory budget or its time, it is killed and
 * its job fails with the reason. The resident size is read from /proc on Linux (it also counts pdf.js buffers and
 * tesseract's WebAssembly memory, which the heap limit does not), elsewhere as the process reports it. An address-
 * space rlimit (prlimit) was not used: V8 and WebAssembly reserve far more address space than they ever touch.
 * A job's time limit starts when its process is ready: starting a fresh process (after one was killed, say) is the
 * pool's cost, not the document's, and on a slow machine it can take longer than a small document's whole analysis.
 */
export class WorkerPool {
  private readonly idle: AnalysisProcess[] = [];
  private readonly busy = new Set<AnalysisProcess>();
  private closed = false;
  private readonly options: WorkerPoolOptions;
  /** The language-model extractor's concurrency limit, held across this pool's processes. */
  private readonly llmPermits = new LlmPermitBroker<ChildProcess>();

  constructor(options: WorkerPoolOptions) {
    this.options = options;
  }

  run(input: AnalysisInput): RunningAnalysis {
    if (this.closed) return { result: Promise.reject(new Error('worker pool closed')), lowerPriority: () => undefined };
    const worker = this.idle.pop() ?? this.spawn();
    this.busy.add(worker);
    worker.child.channel?.ref();
    const result = new Promise<Analysis>((resolve, reject) => {
      let failure: Error | null = null;
      const kill = (error: Error): void => {
        failure ??= error;
        worker.child.kill('SIGKILL');
      };
      let timeout: NodeJS.Timeout | undefined;
      const begin = (): void => {
        timeout = setTimeout(
          () =>
            kill(
              new ProcessingLimitError(
                processingMessage('timeout', { duration: formatDuration(this.options.jobTimeoutMs) }),
              ),
            ),
          this.options.jobTimeoutMs,
        );
        worker.child.send(input);
      };
      if (worker.ready) begin();
      else {
        const startLimitMs = this.options.startLimitMs ?? DEFAULT_START_LIMIT_MS;
        timeout = setTimeout(
          () =>
            kill(
              new AnalysisProcessLost(
                processingMessage('processNotStarted', { duration: formatDuration(startLimitMs) }),
              ),
            ),
          startLimitMs,
        );
        worker.onReady = () => {
          clearTimeout(timeout);
          if (failure === null) begin();
        };
      }
      const memory = setInterval(() => {
        if (residentBytes(worker) > this.options.memoryMb * 1024 * 1024) kill(this.memoryError());
      }, MEMORY_CHECK_MS);
      const settle = (): void => {
        clearTimeout(timeout);
        clearInterval(memory);
        worker.onReady = undefined;
        worker.child.off('message', onMessage);
        worker.child.off('exit', onExit);
        this.busy.delete(worker);
      };
      const onMessage = (message: ChildMessage): void => {
        if (message.type === 'rss') {
          worker.reportedRss = message.bytes;
          return;
        }
        if (message.type === 'llm-permit' || message.type === 'ready') return;
        settle();
        this.release(worker);
        if (message.ok) resolve(message.analysis);
        else reject(message.limit ? new ProcessingLimitError(message.error) : new Error(message.error));
      };
      const onExit = (code: number | null, signal: string | null): void => {
        settle();
        if (failure) return reject(failure);
        // V8 at its heap limit aborts the process; say so rather than report a bare exit code.
        if (/heap limit|out of memory/i.test(worker.stderr)) return reject(this.memoryError());
        reject(new AnalysisProcessLost(processingMessage('processEnded', { how: signal ?? `exit code ${code}` })));
      };
      worker.child.on('message', onMessage);
      worker.child.on('exit', onExit);
    });
    return {
      result,
      lowerPriority: () => {
        worker.niced = true;
        lowerPriorityOf(worker.child.pid);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.splice(0), ...this.busy];
    await Promise.all(all.map((worker) => stopProcess(worker.child)));
  }

  private memoryError(): ProcessingLimitError {
    return new ProcessingLimitError(processingMessage('memory', { mb: this.options.memoryMb }));
  }

  /** Back to the idle set, unless enough are idle or it runs at low priority (a fresh one is cheaper than undoing that). */
  private release(worker: AnalysisProcess): void {
    if (this.closed || worker.niced || this.idle.length >= this.options.idleProcesses) {
      void stopProcess(worker.child);
      return;
    }
    worker.child.channel?.unref();
    this.idle.push(worker);
  }

  private spawn(): AnalysisProcess {
    const heapMb = Math.max(128, Math.floor(this.options.memoryMb * 0.75));
    const child = fork(fileURLToPath(WORKER_URL), [], {
      // Node 24 (the service's own runtime) runs the .ts sources as the service does; inside Electron, its binary as Node.
      execPath: process.execPath,
      execArgv: [`--max-old-space-size=${heapMb}`],
      env: process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const worker: AnalysisProcess = { child, reportedRss: 0, stderr: '', niced: false, ready: false };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      worker.stderr = (worker.stderr + text).slice(-STDERR_TAIL);
    });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'llm-permit') this.llmPermits.handle(child, message);
      if (message.type === 'ready') {
        worker.ready = true;
        worker.onReady?.();
        worker.onReady = undefined;
      }
    });
    child.on('exit', () => {
      this.llmPermits.forget(child);
      const index = this.idle.indexOf(worker);
      if (index >= 0) this.idle.splice(index, 1);
    });
    // A broken channel shows as 'exit' too; without a listener it would be thrown.
    child.on('error', () => undefined);
    child.unref();
    return worker;
  }
}

function residentBytes(worker: AnalysisProcess): number {
  const pid = worker.child.pid;
  if (process.platform !== 'linux' || pid === undefined) return worker.reportedRss;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : worker.reportedRss;
  } catch {
    return worker.reportedRss; // the process has just exited
  }
}

/** On Linux niceness is per thread: every thread of the process (tesseract's among them) is lowered. */
function lowerPriorityOf(pid: number | undefined): void {
  if (pid === undefined) return;
  let threads = [pid];
  if (process.platform === 'linux') {
    try {
      threads = readdirSync(`/proc/${pid}/task`).map(Number);
    } catch {
      // exited meanwhile
    }
  }
  for (const thread of threads) {
    try {
      setPriority(thread, LOW_PRIORITY);
    } catch {
      // exited meanwhile
    }
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
