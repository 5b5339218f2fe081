/**
 * The extractor's concurrency limit holds for the whole service: analysis runs in several child processes
 * (worker-pool.ts), so a per-process count would allow one request per process. The service's process keeps the
 * count (LlmPermitBroker) and each analysis process asks it for a permit over its IPC channel before a request.
 * Run without a parent (the evaluation, a test calling analyze()), the count is this process's own.
 */

/** Analysis process → service. */
export interface LlmPermitMessage {
  type: 'llm-permit';
  op: 'request' | 'return';
  id: number;
  limit: number;
}
/** Service → analysis process. */
export interface LlmPermitGrant {
  type: 'llm-permit-granted';
  id: number;
}

export function isLlmPermitGrant(message: unknown): message is LlmPermitGrant {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'llm-permit-granted'
  );
}

/**
 * Permits handed out first come, first served, at most `limit` at once (each request names the limit in force, so a
 * changed setting applies to the next request). `request` returns the function that gives the permit back, or
 * leaves the queue when it was not granted yet; calling it again does nothing.
 */
export class PermitCounter {
  private held = 0;
  private readonly queue: Array<{ limit: number; grant: () => void }> = [];

  request(limit: number, onGrant: () => void): () => void {
    let state: 'waiting' | 'held' | 'done' = 'waiting';
    const entry = {
      limit,
      grant: () => {
        state = 'held';
        this.held++;
        onGrant();
      },
    };
    this.queue.push(entry);
    this.pump();
    return () => {
      if (state === 'held') {
        this.held--;
        this.pump();
      } else if (state === 'waiting') {
        this.queue.splice(this.queue.indexOf(entry), 1);
      }
      state = 'done';
    };
  }

  private pump(): void {
    while (this.queue.length > 0 && this.held < this.queue[0]!.limit) this.queue.shift()!.grant();
  }
}

/** The service's side: one count for all analysis processes of a pool; a process that dies gives its permits back. */
export class LlmPermitBroker<Process extends { send(message: LlmPermitGrant): unknown }> {
  private readonly counter = new PermitCounter();
  private readonly byProcess = new Map<Process, Map<number, () => void>>();

  handle(process: Process, message: LlmPermitMessage): void {
    const own = this.byProcess.get(process) ?? new Map<number, () => void>();
    this.byProcess.set(process, own);
    if (message.op === 'return') {
      own.get(message.id)?.();
      own.delete(message.id);
      return;
    }
    own.set(
      message.id,
      this.counter.request(message.limit, () => {
        try {
          process.send({ type: 'llm-permit-granted', id: message.id });
        } catch {
          // the process is gone; its exit gives the permit back
        }
      }),
    );
  }

  forget(process: Process): void {
    for (const giveBack of this.byProcess.get(process)?.values() ?? []) giveBack();
    this.byProcess.delete(process);
  }
}

const local = new PermitCounter();
let nextId = 1;

/**
 * Waits for a permit (from the service when this is an analysis process, else from this process's own count) and
 * returns the function that gives it back. Waiting stops with `signal`.
 */
export function acquireLlmPermit(limit: number, signal: AbortSignal): Promise<() => void> {
  const send = process.send?.bind(process);
  if (!send || !process.connected) return waitFor((onGrant) => local.request(limit, onGrant), signal);
  const id = nextId++;
  return waitFor((onGrant) => {
    const onMessage = (message: unknown): void => {
      if (isLlmPermitGrant(message) && message.id === id) {
        process.off('message', onMessage);
        onGrant();
      }
    };
    process.on('message', onMessage);
    send({ type: 'llm-permit', op: 'request', id, limit } satisfies LlmPermitMessage);
    return () => {
      process.off('message', onMessage);
      if (process.connected) send({ type: 'llm-permit', op: 'return', id, limit } satisfies LlmPermitMessage);
    };
  }, signal);
}

function waitFor(request: (onGrant: () => void) => () => void, signal: AbortSignal): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let granted = false;
    let giveBack = (): void => undefined;
    const onAbort = (): void => {
      if (granted) return;
      giveBack();
      reject(signal.reason instanceof Error ? signal.reason : new Error('stopped waiting for a permit'));
    };
    // The grant may come at once, before request() returns giveBack: the permit's release looks it up when called.
    giveBack = request(() => {
      granted = true;
      signal.removeEventListener('abort', onAbort);
      resolve(once(() => giveBack()));
    });
    if (granted) return;
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
