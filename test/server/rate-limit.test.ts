import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

// Small limits and a short window on purpose: this file is about running into them.
const LIMITS = { requestsPerWindow: 5, uploadsPerWindow: 2, windowMs: 2000, healthRequestsPerWindow: 12 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ limits: LIMITS });
});
afterAll(async () => {
  await h?.close();
});

interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

function rateHeaders(res: Response): RateHeaders {
  const read = (name: string): number => {
    const value = res.headers.get(name);
    expect(value, `${name} on a ${res.status}`).toMatch(/^\d+$/);
    return Number(value);
  };
  return { limit: read('RateLimit-Limit'), remaining: read('RateLimit-Remaining'), reset: read('RateLimit-Reset') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let pdfCounter = 0;
const uniquePdf = async () => ({
  bytes: await makePdf(`rate limited upload ${++pdfCounter}`),
  name: `rate-${pdfCounter}.pdf`,
});

describe('request limit', () => {
  it('headers count down, the 6th request is 429 with Retry-After, and the next window is fresh', async () => {
    const key = await h.createKey({ name: 'count down' });
    for (let i = 1; i <= LIMITS.requestsPerWindow; i++) {
      const res = await h.api('/v1/me', { key });
      expect(res.status).toBe(200);
      const headers = rateHeaders(res);
      expect(headers).toEqual({ limit: 5, remaining: 5 - i, reset: headers.reset });
      expect(headers.reset).toBeGreaterThanOrEqual(1);
      expect(headers.reset).toBeLessThanOrEqual(2);
    }

    const limited = await h.api('/v1/me', { key });
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get('Retry-After');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(2);
    expect(await limited.json()).toEqual({
      success: false,
      error: 'Rate limit exceeded',
      retryAfter: Number(retryAfter),
    });
    expect(rateHeaders(limited)).toMatchObject({ limit: 5, remaining: 0 });

    // Refused requests do not push the window out: waiting Retry-After is enough.
    const again = await h.api('/v1/documents', { key });
    expect(again.status).toBe(429);
    await sleep(Number(again.headers.get('Retry-After')) * 1000 + 50);
    const fresh = await h.api('/v1/me', { key });
    expect(fresh.status).toBe(200);
    expect(rateHeaders(fresh)).toMatchObject({ limit: 5, remaining: 4 });
  });

  it('headers are on every response: 401, 404, 405, 400, 403', async () => {
    const unauthenticated = await h.api('/v1/documents', { key: null });
    expect(unauthenticated.status).toBe(401);
    expect(rateHeaders(unauthenticated).limit).toBe(5);

    const key = await h.createKey({ name: 'errors', scopes: ['documents:read'] });
    const responses = [
      await h.api('/v1/no-such-thing', { key }),
      await h.api('/v1/documents', { key, method: 'DELETE' }),
      await h.api('/v1/documents?limit=0', { key }),
      await h.api('/v1/events', { key }),
    ];
    expect(responses.map((r) => r.status)).toEqual([404, 405, 400, 403]);
    // Errors count against the budget like anything else.
    expect(responses.map((r) => rateHeaders(r).remaining)).toEqual([4, 3, 2, 1]);
  });

  it('unauthenticated requests share one budget per client address; a wrong key still learns it is wrong once it is spent (401, never 429)', async () => {
    const seen: Array<[number, number]> = [];
    for (let i = 0; i < 12; i++) {
      const res = await h.api(i % 2 ? '/v1/me' : '/v1/documents', { key: i % 3 ? null : 'das_garbage' });
      seen.push([res.status, rateHeaders(res).remaining]);
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ success: false, error: 'Invalid or missing API key' });
    }
    // The budget may be partly used by the previous test (same address); either way it is counted down to 0.
    expect(seen.every(([status]) => status === 401)).toBe(true);
    expect(seen.at(-1)).toEqual([401, 0]);
    expect(seen.map(([, remaining]) => remaining)).toEqual([...seen.map(([, r]) => r)].sort((a, b) => b - a));
    // What needs no key is limited by that budget: the OpenAPI document waits for the next window.
    expect((await h.api('/v1/openapi.json', { key: null })).status).toBe(429);
    // A key has its own budget, untouched by that.
    expect((await h.api('/v1/me', { key: await h.createKey({ name: 'fresh' }) })).status).toBe(200);
  });

  it('health checks have a window of their own: a monitor never spends the key-less budget, nor the reverse', async () => {
    await sleep(LIMITS.windowMs); // fresh windows for this address
    // Probes are counted by each instance itself (docs/deploy.md), so they go straight to one.
    for (let i = 1; i <= LIMITS.healthRequestsPerWindow; i++) {
      const res = await h.api('/v1/health', { key: null, direct: true });
      expect(res.status).toBe(200);
      expect(rateHeaders(res)).toMatchObject({
        limit: LIMITS.healthRequestsPerWindow,
        remaining: LIMITS.healthRequestsPerWindow - i,
      });
    }
    // More health checks than the key-less budget holds, yet a wrong key still learns it is wrong (401, not 429).
    const guess = await h.api('/v1/me', { key: 'das_garbage' });
    expect(guess.status).toBe(401);
    expect(rateHeaders(guess)).toMatchObject({
      limit: LIMITS.requestsPerWindow,
      remaining: LIMITS.requestsPerWindow - 1,
    });
    // Past its own window a monitor is refused like anything else.
    const over = await h.api('/v1/health', { key: null, direct: true });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    // And a spent key-less budget leaves health checks alone.
    await sleep(LIMITS.windowMs);
    for (let i = 0; i <= LIMITS.requestsPerWindow; i++) await h.api('/v1/me', { key: null });
    expect((await h.api('/v1/openapi.json', { key: null })).status).toBe(429);
    expect((await h.api('/v1/health', { key: null, direct: true })).status).toBe(200);
  });

  it('separate keys have separate budgets', async () => {
    const a = await h.createKey({ name: 'a' });
    const b = await h.createKey({ name: 'b' });
    for (let i = 0; i < LIMITS.requestsPerWindow; i++) expect((await h.api('/v1/me', { key: a })).status).toBe(200);
    expect((await h.api('/v1/me', { key: a })).status).toBe(429);
    const other = await h.api('/v1/me', { key: b });
    expect(other.status).toBe(200);
    expect(rateHeaders(other)).toMatchObject({ limit: 5, remaining: 4 });
  });
});

describe('upload limit', () => {
  it('uploads report the upload limit; the 3rd upload in the window is 429', async () => {
    const key = await h.createKey({ name: 'uploader' });
    // Made up front so the three uploads surely fall into one 2 s window.
    const files = await Promise.all([uniquePdf(), uniquePdf(), uniquePdf()]);
    const first = await h.upload(files[0]!, { key });
    expect(first.status).toBe(202);
    expect(rateHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
    const second = await h.upload(files[1]!, { key });
    expect(second.status).toBe(202);
    expect(rateHeaders(second)).toMatchObject({ limit: 2, remaining: 0 });
    // Both windows by name too, so a client need not guess which one the plain headers meant.
    expect(
      ['Requests-Limit', 'Requests-Remaining', 'Uploads-Limit', 'Uploads-Remaining'].map((name) =>
        second.headers.get(`RateLimit-${name}`),
      ),
    ).toEqual(['5', '3', '2', '0']);

    const third = await h.upload(files[2]!, { key });
    expect(third.status).toBe(429);
    const retryAfter = Number(third.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await third.json()).toEqual({ success: false, error: 'Rate limit exceeded', retryAfter });
    expect(rateHeaders(third)).toMatchObject({ limit: 2, remaining: 0 });

    // The general budget is separate: 3 requests used, so other calls still pass and report the request limit.
    const read = await h.api('/v1/me', { key });
    expect(read.status).toBe(200);
    expect(rateHeaders(read)).toMatchObject({ limit: 5, remaining: 1 });
    await h.service.processor.idle();
  });
});

describe('defaults', () => {
  it('are the spec values: 60 requests and 10 uploads per 60 s', async () => {
    const d = await startHarness();
    try {
      const res = await d.api('/v1/me');
      expect(res.status).toBe(200);
      const headers = rateHeaders(res);
      expect(headers).toMatchObject({ limit: 60, remaining: 59 });
      expect(headers.reset).toBeGreaterThanOrEqual(59);
      expect(headers.reset).toBeLessThanOrEqual(60);
      const upload = await d.upload(await uniquePdf());
      expect(upload.status).toBe(202);
      expect(rateHeaders(upload)).toMatchObject({ limit: 10, remaining: 9 });
      await d.service.processor.idle();
    } finally {
      await d.close();
    }
  });
});

describe('signed downloads', () => {
  it('count against the key that signed them: a spent key-less budget of the address blocks no file', async () => {
    const key = await h.createKey({ name: 'previews' });
    const upload = await h.upload(await uniquePdf(), { key });
    expect(upload.status).toBe(202);
    const { id } = (await upload.json()) as { id: string };
    const redirect = await h.api(`/v1/document/${id}/download`, { key });
    expect(redirect.status).toBe(302);
    expect(rateHeaders(redirect)).toMatchObject({ limit: 5, remaining: 3 });

    // Guessed keys spend the address's key-less budget …
    let guessed: Response;
    do guessed = await h.api('/v1/me', { key: 'das_guessed' });
    while (guessed.headers.get('RateLimit-Remaining') !== '0');
    // … and the file still comes, counted as the key's 3rd request of the window.
    const file = await fetch(new URL(redirect.headers.get('location')!, h.url));
    expect(file.status).toBe(200);
    expect(rateHeaders(file)).toMatchObject({ limit: 5, remaining: 2 });
    await file.arrayBuffer();

    // A tampered link is no key's request: it counts against the address, which is spent.
    const tampered = new URL(redirect.headers.get('location')!, h.url);
    tampered.searchParams.set('signature', 'A'.repeat(43));
    expect((await fetch(tampered)).status).toBe(429);
    await h.service.processor.idle();
  });
});
