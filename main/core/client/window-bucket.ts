/**
 * A client-side mirror of one of the service's fixed-window rate limits (requests or uploads per key).
 * It starts from the spec's numbers and is corrected by the RateLimit-* headers of every response, so the client waits
 * instead of spending a request that would come back 429.
 *
 * Why the reset time is taken from the first response of a window: RateLimit-Reset is whole seconds rounded up, so
 * "now + Reset" overshoots by up to a second on every window. The first request of a window (Remaining = Limit - 1)
 * started that window on the server between our send and its answer, so `answer time + window length` is a safe and
 * tight bound; later responses can only lower it.
 */
export interface WindowBucketOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Margin added to the reset time so clock granularity never lands a request in the old window. */
  safetyMs?: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class WindowBucket {
  private limit: number;
  private windowMs: number;
  private remaining: number;
  /** When the current window ends; undefined until the service told us (or we started one ourselves). */
  private resetAt: number | undefined;
  private inFlight = 0;
  /**
   * Until the first answer, only one request goes out: the service may allow fewer than the spec's numbers, and a
   * burst sent on assumptions would come back 429.
   */
  private learned = false;
  /** The lowest RateLimit-Remaining of the current window (undefined until its first answer). */
  private reportedLowest: number | undefined;
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly safetyMs: number;

  constructor(options: WindowBucketOptions) {
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.remaining = options.limit;
    this.now = options.now ?? Date.now;
    this.safetyMs = options.safetyMs ?? 25;
  }

  get state(): { limit: number; remaining: number; resetAt: number | undefined; waiting: number } {
    this.refill();
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt, waiting: this.waiters.length };
  }

  /** Resolves when a request may be sent; the caller must then call `settle()` once it has an answer (or none). */
  acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    if (this.waiters.length === 0 && this.canTake()) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.schedule();
    });
  }

  /**
   * Records the answer to a request this bucket admitted. `headers` are the RateLimit-* values when the response
   * carried them for this bucket; `sentAt` is when the request left.
   */
  settle(
    headers: { limit: number; remaining: number; resetSeconds: number } | undefined,
    answeredAt = this.now(),
  ): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.learned = true;
    if (headers) {
      this.limit = headers.limit;
      // Answers arrive out of order, so the lowest Remaining the service reported in this window is the truth it had
      // counted by then; at most the requests still in flight can have been counted since. Recomputing from it (not
      // taking the minimum with our running estimate) gives back a token an out-of-order answer made us hold back.
      this.reportedLowest = Math.min(this.reportedLowest ?? Infinity, headers.remaining);
      this.remaining = Math.max(0, this.reportedLowest - this.inFlight);
      const bound = answeredAt + headers.resetSeconds * 1000;
      if (headers.remaining === headers.limit - 1) {
        this.windowMs = headers.resetSeconds * 1000;
        this.resetAt = answeredAt + this.windowMs;
      } else if (this.resetAt === undefined || bound < this.resetAt || this.resetAt <= answeredAt) {
        this.resetAt = bound;
      }
    }
    this.release();
  }

  /** A request this bucket admitted was never sent (e.g. its file vanished): its token is given back. */
  refund(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.refill();
    this.remaining = Math.min(this.limit, this.remaining + 1);
    this.release();
  }

  /** A 429 (or an explicit wait): nothing more goes out before `until`. */
  block(until: number): void {
    // The service knows its window; its Retry-After replaces our estimate (which may be a whole spec window away).
    this.remaining = 0;
    this.reportedLowest = 0;
    this.resetAt = until;
    this.schedule();
  }

  /** Rejects everyone waiting (e.g. the client is being closed). */
  rejectAll(error: unknown): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(error);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private canTake(): boolean {
    return this.remaining > 0 && (this.learned || this.inFlight === 0);
  }

  private take(): void {
    if (this.resetAt === undefined) this.resetAt = this.now() + this.windowMs;
    this.remaining--;
    this.inFlight++;
  }

  private refill(): void {
    if (this.resetAt !== undefined && this.now() >= this.resetAt + this.safetyMs) {
      this.remaining = this.limit;
      this.reportedLowest = undefined;
      this.resetAt = undefined;
    }
  }

  private release(): void {
    this.refill();
    while (this.waiters.length > 0 && this.canTake()) {
      const waiter = this.waiters.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.take();
      waiter.resolve();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiters.length === 0) return;
    // Without a known reset the bucket refills when an answer arrives (settle); a 25 ms poll covers lost answers.
    const wait = this.resetAt === undefined ? 25 : Math.max(0, this.resetAt + this.safetyMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.release();
    }, wait);
  }
}
