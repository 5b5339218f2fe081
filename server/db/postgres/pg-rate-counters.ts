import type { RateCounters, RateLimitState } from '../../http/rate-limiter.ts';
import type { Sql } from '../sql.ts';

/**
 * Fixed windows counted in PostgreSQL, so every instance of the service spends one budget per key. One statement
 * per request: the upsert starts a new window when the old one has passed, else counts on, atomically under the row
 * lock. A refused request sets the count to limit + 1 and no higher, so `count <= limit` tells allowed from refused
 * and the window is not extended. The windows start at the instance's clock (instances are expected to run NTP, as
 * the signed-download expiry already assumes).
 */
export class PgRateCounters implements RateCounters {
  private readonly sql: Sql;
  private readonly now: () => number;

  constructor(sql: Sql, now: () => number = Date.now) {
    this.sql = sql;
    this.now = now;
  }

  async take(key: string, limit: number, windowMs: number): Promise<RateLimitState> {
    const now = this.now();
    const row = await this.sql.get<{ window_start: number; count: number }>(
      `INSERT INTO rate_windows AS w (key, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN w.window_start + ? <= excluded.window_start THEN excluded.window_start
                             ELSE w.window_start END,
         count = CASE WHEN w.window_start + ? <= excluded.window_start THEN 1
                      WHEN w.count < ? THEN w.count + 1
                      ELSE ? END
       RETURNING window_start, count`,
      key,
      now,
      windowMs,
      windowMs,
      limit,
      limit + 1,
    );
    if (!row) throw new Error('rate window upsert returned no row');
    return {
      limit,
      remaining: Math.max(0, limit - row.count),
      resetSeconds: Math.max(1, Math.ceil((row.window_start + windowMs - now) / 1000)),
      allowed: row.count <= limit,
    };
  }

  /** Drops windows that ended long ago (keys of clients gone); called now and then by the service. */
  async prune(olderThanMs: number): Promise<number> {
    const { changes } = await this.sql.run('DELETE FROM rate_windows WHERE window_start < ?', this.now() - olderThanMs);
    return changes;
  }
}
