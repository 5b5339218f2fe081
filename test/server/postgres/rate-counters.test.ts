import { describe, expect, it } from 'vitest';
import { PgRateCounters } from '../../../server/db/postgres/pg-rate-counters.ts';
import { InMemoryRateCounters, type RateLimitState } from '../../../server/http/rate-limiter.ts';
import { useArchiveDatabase } from '../../helpers/archive-database.ts';
import { postgresForTests } from '../../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

describe.skipIf(!postgres.url)('rate limits shared through PostgreSQL', () => {
  /** Three connection pools: three instances of the service. */
  const archive = useArchiveDatabase(3);
  let clock = 1_000_000;
  const now = (): number => clock;

  it('lets exactly the limit through when instances take at once, and counts down remaining without gaps', async () => {
    const counters = archive.pools.map((sql) => new PgRateCounters(sql, now));
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => counters[i % 3]!.take('key:concurrent', 60, 60_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(60);
    const remaining = results
      .filter((r) => r.allowed)
      .map((r) => r.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
  });

  it('answers exactly as the in-memory counters do, window by window', async () => {
    const shared = [new PgRateCounters(archive.pools[0]!, now), new PgRateCounters(archive.pools[1]!, now)];
    const local = new InMemoryRateCounters(now);
    clock = 5_000_000;
    const steps = [0, 1000, 1000, 20_000, 38_999, 1, 0, 59_999, 1, 61_000];
    const seen: Array<[RateLimitState, RateLimitState]> = [];
    for (const [i, step] of steps.entries()) {
      clock += step;
      for (let j = 0; j < 2; j++) {
        seen.push([
          await shared[(i + j) % 2]!.take('key:parity', 3, 60_000),
          await local.take('key:parity', 3, 60_000),
        ]);
      }
    }
    for (const [pg, memory] of seen) expect(pg).toEqual(memory);
    expect(seen.some(([pg]) => !pg.allowed)).toBe(true);
  });

  it('keeps keys and limits apart, and a refused request does not extend the window', async () => {
    const counters = new PgRateCounters(archive.pools[2]!, now);
    clock = 9_000_000;
    expect((await counters.take('uploads:key:a', 1, 60_000)).allowed).toBe(true);
    expect((await counters.take('uploads:key:b', 1, 60_000)).allowed).toBe(true);
    clock += 59_000;
    const refused = await counters.take('uploads:key:a', 1, 60_000);
    expect(refused).toEqual({ limit: 1, remaining: 0, resetSeconds: 1, allowed: false });
    clock += 1000;
    expect((await counters.take('uploads:key:a', 1, 60_000)).allowed).toBe(true);
    // Key b's window (and the earlier tests') began 60 s ago or more; key a's has just begun and stays.
    expect(await counters.prune(30_000)).toBe(3);
    expect(await archive.pools[2]!.all('SELECT key FROM rate_windows')).toEqual([{ key: 'uploads:key:a' }]);
  });
});
