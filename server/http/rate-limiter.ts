/** Fixed-window counters per key, as the spec describes them (limit, remaining, seconds until reset). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

/**
 * Fixed-window request counters shared by the limiters of a service. One instance per process (in memory) is enough
 * for one instance of the service; several instances behind one address need counters they share.
 */
export interface RateCounters {
  /**
   * Counts one request against `key` in its window of `windowMs` when fewer than `limit` were counted there; a refused
   * request does not use up the next window.
   */
  take(key: string, limit: number, windowMs: number): Promise<RateLimitState>;
}

/** Counters in this process's memory. */
export class InMemoryRateCounters implements RateCounters {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  take(key: string, limit: number, windowMs: number): Promise<RateLimitState> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.evictExpired(now, windowMs);
    }
    const allowed = window.count < limit;
    if (allowed) window.count++;
    return Promise.resolve({
      limit,
      remaining: Math.max(0, limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
      allowed,
    });
  }

  private evictExpired(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= windowMs) this.windows.delete(key);
  }
}

/** One limit (requests, uploads, health checks) over the counters, its keys kept apart from the other limits' by name. */
export class FixedWindowLimiter {
  private readonly name: string;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly counters: RateCounters;

  constructor(name: string, limit: number, windowMs: number, counters: RateCounters) {
    this.name = name;
    this.limit = limit;
    this.windowMs = windowMs;
    this.counters = counters;
  }

  /** Counts one request against `key` when allowed; a refused request does not use up the next window. */
  take(key: string): Promise<RateLimitState> {
    return this.counters.take(`${this.name}:${key}`, this.limit, this.windowMs);
  }
}

/** `RateLimit-Limit` etc.; with a window name, `RateLimit-Uploads-Limit` etc. (our upload responses send both). */
export function rateLimitHeaders(state: RateLimitState, window?: 'Requests' | 'Uploads'): Record<string, string> {
  const prefix = window ? `RateLimit-${window}` : 'RateLimit';
  return {
    [`${prefix}-Limit`]: String(state.limit),
    [`${prefix}-Remaining`]: String(state.remaining),
    [`${prefix}-Reset`]: String(state.resetSeconds),
  };
}
