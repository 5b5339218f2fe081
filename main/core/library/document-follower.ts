import { errorMessage } from '../../../common/errors.ts';

/**
 * Follows documents the app just uploaded or reprocessed until they reach a final state, so the library shows
 * "Processing" and "Completed" within moments instead of at the next interval sync. Against a hosted service it polls
 * with backoff (the first poll soon, then doubling up to a cap), which keeps it well inside the rate limit; the
 * embedded service tells the app itself when a status changes (`changed`), and then no polling is needed.
 */
export interface DocumentFollowerOptions {
  /** Fetches these documents into the cache (with the events of those now final); answers the ids still unfinished. */
  refresh: (ids: string[]) => Promise<string[]>;
  /** The polls after an upload or a reprocess; null when the service pushes its changes (`changed`). */
  poll: { firstMs: number; maxMs: number } | null;
  log?: (line: string) => void;
}

export class DocumentFollower {
  private readonly options: DocumentFollowerOptions;
  /** Polled until final. */
  private readonly followed = new Set<string>();
  /** Refreshed once, at the next tick (the service said they changed). */
  private readonly due = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | undefined;
  private delayMs = 0;
  private stopped = false;

  constructor(options: DocumentFollowerOptions) {
    this.options = options;
  }

  /** Documents the app just sent for processing: polled until final (no-op when the service pushes). */
  follow(ids: readonly string[]): void {
    const poll = this.options.poll;
    if (!poll || ids.length === 0) return;
    for (const id of ids) this.followed.add(id);
    this.delayMs = poll.firstMs;
    this.schedule(poll.firstMs);
  }

  /** The service said these documents changed: refreshed at once. */
  changed(ids: readonly string[]): void {
    for (const id of ids) this.due.add(id);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = Date.now() + delayMs;
    // A tick in progress schedules the next one when it ends; a sooner request replaces a later timer.
    if (this.running || (this.timer && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const ids = [...new Set([...this.followed, ...this.due])];
    this.due.clear();
    if (ids.length === 0) return;
    this.running = this.refresh(ids);
    await this.running;
    this.running = undefined;
    if (this.due.size > 0) this.schedule(0);
    else if (this.followed.size > 0 && this.options.poll) {
      this.delayMs = Math.min(this.delayMs * 2, this.options.poll.maxMs);
      this.schedule(this.delayMs);
    }
  }

  private async refresh(ids: string[]): Promise<void> {
    try {
      const unfinished = new Set(await this.options.refresh(ids));
      for (const id of ids) if (!unfinished.has(id)) this.followed.delete(id);
    } catch (error) {
      // The interval sync catches up; the next poll tries again.
      this.options.log?.(`following documents: ${errorMessage(error)}`);
    }
  }
}
