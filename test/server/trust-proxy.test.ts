import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/archive-harness.ts';

/**
 * Key-less requests (wrong keys) from three clients behind one balancer, each client sending two: the answer's status
 * and what its budget has left.
 */
async function statusesBehindBalancer(h: Harness): Promise<string[]> {
  const statuses: string[] = [];
  for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
    for (let i = 0; i < 2; i++) {
      // Straight to an instance: this test plays the balancer itself.
      const res = await h.api('/v1/me', {
        direct: true,
        key: 'wrong-key',
        // The first entry is what a client claims; the balancer appends the address it saw.
        headers: { 'X-Forwarded-For': `198.51.100.7, ${client}` },
      });
      statuses.push(`${res.status} ${res.headers.get('RateLimit-Remaining')}`);
    }
  }
  return statuses;
}

describe('key-less requests behind a load balancer', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('with trustProxy, counts each client by the address the balancer appended', async () => {
    h = await startHarness({ limits: { requestsPerWindow: 2 }, trustProxy: true });
    expect(await statusesBehindBalancer(h)).toEqual(['401 1', '401 0', '401 1', '401 0', '401 1', '401 0']);
  });

  it('without it, ignores the header (a client cannot pick its own budget) and counts the connection address', async () => {
    h = await startHarness({ limits: { requestsPerWindow: 2 } });
    expect(await statusesBehindBalancer(h)).toEqual(['401 1', '401 0', '401 0', '401 0', '401 0', '401 0']);
  });
});
