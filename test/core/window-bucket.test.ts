import { describe, expect, it } from 'vitest';
import { WindowBucket } from '../../main/core/client/window-bucket.ts';

describe('WindowBucket', () => {
  it('sends one request until the first answer, then follows the headers', async () => {
    let now = 1_000;
    const bucket = new WindowBucket({ limit: 10, windowMs: 60_000, now: () => now });
    await bucket.acquire();
    let second = false;
    void bucket.acquire().then(() => {
      second = true;
    });
    await Promise.resolve();
    expect(second).toBe(false); // the service may allow less than the spec: learn first
    now += 5;
    bucket.settle({ limit: 3, remaining: 2, resetSeconds: 2 });
    await Promise.resolve();
    expect(second).toBe(true);
    expect(bucket.state).toMatchObject({ limit: 3, remaining: 1 });
    // First answer of the window: the reset is its answer time + the window, not rounded up to whole seconds.
    expect(bucket.state.resetAt).toBe(now + 2_000);
  });

  it('out-of-order answers do not cost a token', async () => {
    let now = 0;
    const bucket = new WindowBucket({ limit: 10, windowMs: 60_000, now: () => now });
    await bucket.acquire();
    bucket.settle({ limit: 10, remaining: 9, resetSeconds: 60 });
    await Promise.all([bucket.acquire(), bucket.acquire(), bucket.acquire()]);
    now += 10;
    // The service counted them as 8, 7, 6 left; the answers arrive as 7, 8, 6.
    bucket.settle({ limit: 10, remaining: 7, resetSeconds: 60 });
    bucket.settle({ limit: 10, remaining: 8, resetSeconds: 60 });
    bucket.settle({ limit: 10, remaining: 6, resetSeconds: 60 });
    expect(bucket.state.remaining).toBe(6);
  });

  it('waits for the reset when the window is spent, and a 429 blocks until Retry-After', async () => {
    let now = 0;
    const bucket = new WindowBucket({ limit: 1, windowMs: 200, now: () => now, safetyMs: 0 });
    await bucket.acquire();
    bucket.settle({ limit: 1, remaining: 0, resetSeconds: 1 });
    let granted = false;
    const waiting = bucket.acquire().then(() => {
      granted = true;
    });
    now = 150;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(granted).toBe(false);
    now = 1_000; // past the reset the first answer implied (0 + 1 s)
    await waiting;
    expect(granted).toBe(true);
    bucket.settle(undefined);
    bucket.block(now + 5_000);
    expect(bucket.state).toMatchObject({ remaining: 0, resetAt: 6_000 });
  });
});
