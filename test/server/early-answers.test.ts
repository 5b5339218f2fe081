import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISCARD_MARGIN_BYTES } from '../../server/http/request-body.ts';
import { startHarness, type Harness } from '../helpers/archive-harness.ts';
import { expectNothingWritten, serverState } from '../helpers/http-raw.ts';
import type { Outcome, PostSpec } from '../helpers/post-client.ts';

// Tests here send up to 51 MiB several times over:
// 14-18 s each on a busy CI machine, close to the default 30 s.
vi.setConfig({ testTimeout: 60_000 });

/**
 * Answers given before the body is read (401, 403, 413, 429) must reach clients that are still sending: Node's fetch
 * and undici report EPIPE instead of the status when the service resets the connection under them. The spec's limits
 * (50 MB uploads) on purpose, so the bodies run from a few bytes to past the limit and past what is discarded.
 */
const MIB = 1024 * 1024;
const MAX_UPLOAD = 50 * MIB;
const CLIENT = resolve(import.meta.dirname, '../helpers/post-client.ts');
/** Each case several times: the reset that loses an answer is a race, won by the client now and then. */
const REPEAT = 3;

let h: Harness;
// One upload per window and key: a fresh key for each upload that must get past the limit.
beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 10_000, uploadsPerWindow: 1 } });
});
afterAll(async () => {
  await h?.close();
});

const BOUNDARY = 'early-answer-boundary';
const UPLOAD_HEAD =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
  'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n';
const UPLOAD_TAIL = `\r\n--${BOUNDARY}--\r\n`;

const uploadHeaders = (key: string | null): Record<string, string> => ({
  'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
  ...(key ? { Authorization: `Bearer ${key}` } : {}),
});

/** Posts from a client process of its own (post-client.ts), REPEAT times; the outcomes. */
async function post(
  client: PostSpec['client'],
  path: string,
  headers: Record<string, string>,
  body: { head: string; size: number; tail: string },
  chunked = false,
  repeat = REPEAT,
): Promise<Outcome[]> {
  // An instance's own socket handling, so straight to it (on PostgreSQL the harness also runs a balancer in front).
  const spec: PostSpec = { client, url: h.service.url + path, headers, ...body, chunked, repeat };
  const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, JSON.stringify(spec)], { maxBuffer: MIB });
  return JSON.parse(stdout) as Outcome[];
}

const upload = (size: number) => ({ head: UPLOAD_HEAD, size, tail: UPLOAD_TAIL });
const times = (outcome: Outcome): Outcome[] => Array.from({ length: REPEAT }, () => outcome);

/** A key whose upload budget (1 per window) is already spent: its next upload is 429 before the body is read. */
async function spentKey(): Promise<string> {
  const key = await h.createKey({ name: 'spent' });
  expect((await h.api('/v1/documents', { method: 'POST', key, json: {} })).status).toBe(400);
  return key;
}

const SIZES = { '300 B': 300, '2 MiB': 2 * MIB, '51 MiB (over the limit)': 51 * MIB };
const TOO_LARGE = { status: 413, body: { success: false, error: 'File exceeds the 50 MB limit' } };

describe.each(['fetch', 'undici'] as const)('%s reads answers given before the body was read', (client) => {
  it.each(Object.entries(SIZES))(
    '401 without a key, 403 without documents:write, 429 over the upload limit: %s',
    async (_, size) => {
      const before = await serverState(h);
      expect(await post(client, '/v1/documents', uploadHeaders(null), upload(size))).toEqual(
        times({ status: 401, body: { success: false, error: 'Invalid or missing API key' } }),
      );
      // A key per request: each upload, refused or not, uses the key's one upload of the window.
      for (let i = 0; i < REPEAT; i++) {
        expect(
          await post(
            client,
            '/v1/documents',
            uploadHeaders(await h.createKey({ scopes: ['documents:read'] })),
            upload(size),
            false,
            1,
          ),
        ).toEqual([{ status: 403, body: { success: false, error: 'Insufficient scope' } }]);
        expect(await post(client, '/v1/documents', uploadHeaders(await spentKey()), upload(size), false, 1)).toEqual([
          { status: 429, body: { success: false, error: 'Rate limit exceeded', retryAfter: expect.any(Number) } },
        ]);
      }
      await expectNothingWritten(h, before);
    },
  );

  it('413 for a file over the limit: with a Content-Length (refused unread) and chunked (refused while streaming)', async () => {
    const before = await serverState(h);
    // Each request its own key: a refused upload has still used the key's one upload of the window.
    for (const chunked of [false, true]) {
      const outcomes: Outcome[] = [];
      for (let i = 0; i < REPEAT; i++) {
        outcomes.push(
          ...(await post(client, '/v1/documents', uploadHeaders(await h.createKey()), upload(51 * MIB), chunked, 1)),
        );
      }
      expect(outcomes).toEqual(times(TOO_LARGE));
    }
    await expectNothingWritten(h, before);
  });

  it('413 for a body larger than what the service discards: the answer arrives before the connection closes', async () => {
    const before = await serverState(h);
    const body = upload(MAX_UPLOAD + DISCARD_MARGIN_BYTES + 4 * MIB);
    for (const chunked of [false, true]) {
      expect(await post(client, '/v1/documents', uploadHeaders(await h.createKey()), body, chunked, 1)).toEqual([
        TOO_LARGE,
      ]);
    }
    await expectNothingWritten(h, before);
  });

  it('413 for a 2 MiB JSON body', async () => {
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${h.adminKey}` };
    const json = { head: '{"limit":5,"query":"', size: 2 * MIB, tail: '"}' };
    const tooLarge = times({ status: 413, body: { success: false, error: 'JSON body exceeds 1 MiB' } });
    expect(await post(client, '/v1/search', headers, json)).toEqual(tooLarge);
    expect(await post(client, '/v1/search', headers, json, true)).toEqual(tooLarge);
  });
});
