/** Fixed-window counters per key, as the spec describes them (limit, remaining, seconds until reset). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  allowed: boolean;
}

export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Counts one request against `key` when allowed; a refused request does not use up the next window. */
  take(key: string): RateLimitState {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.evictExpired(now);
    }
    const allowed = window.count < this.limit;
    if (allowed) window.count++;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
      allowed,
    };
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
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
