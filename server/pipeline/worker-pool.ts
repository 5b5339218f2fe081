import { Worker } from 'node:worker_threads';
import type { Analysis, AnalysisInput } from './analysis.ts';

type Reply = { ok: true; analysis: Analysis } | { ok: false; error: string };
interface Slot { worker: Worker; busy: boolean }

const WORKER_URL = new URL('./analysis-worker.ts', import.meta.url);

/**
 * A fixed set of analysis workers. A worker that dies (out of memory, a crashing parser) fails its task and is
 * replaced, so one bad file cannot stop the queue.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private closed = false;
  readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  get idle(): number {
    return this.size - this.slots.filter((s) => s.busy).length;
  }

  run(input: AnalysisInput): Promise<Analysis> {
    if (this.closed) return Promise.reject(new Error('worker pool closed'));
    const slot = this.slots.find((s) => !s.busy) ?? this.spawn();
    slot.busy = true;
    return new Promise<Analysis>((resolve, reject) => {
      const done = (): void => {
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        slot.busy = false;
      };
      const onMessage = (reply: Reply): void => {
        done();
        if (reply.ok) resolve(reply.analysis);
        else reject(new Error(reply.error));
      };
      const onError = (error: Error): void => {
        done();
        this.remove(slot);
        reject(error);
      };
      const onExit = (code: number): void => {
        done();
        this.remove(slot);
        reject(new Error(`analysis worker exited with code ${code}`));
      };
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.on('exit', onExit);
      slot.worker.postMessage(input);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    if (this.slots.length >= this.size) throw new Error('worker pool exhausted');
    const slot: Slot = { worker: new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: 1024 } }), busy: false };
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }
}
