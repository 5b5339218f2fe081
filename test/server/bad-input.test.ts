import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';
import {
  expectError,
  expectNothingWritten,
  MULTIPART_BOUNDARY,
  multipartBody,
  postMultipart,
  requestHead,
  sendRaw,
  serverState,
  type RawExchange,
  type RawPart,
  type ServerState,
} from '../helpers/http-raw.ts';

let h: Harness;
let docId: string;
let titleBefore: string;
let pdf: Uint8Array;
const logLines: string[] = [];
let before: ServerState;

beforeAll(async () => {
  h = await startHarness({
    limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 },
    log: (line) => logLines.push(line),
  });
  docId = await uploadAndProcess(h, { bytes: await makePdf('Existing document'), name: 'existing.pdf' });
  pdf = await makePdf('Bad input probe');
  titleBefore = ((await (await h.api(`/v1/documents/${docId}`)).json()) as { document: { title: string } }).document
    .title;
  before = await serverState(h);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  // Every case: nothing written, nothing left in tmp/, the server still answers (serverState GETs the list),
  // and nothing counted as an internal error.
  await expectNothingWritten(h, before);
  expect((await h.api('/v1/health')).status).toBe(200);
  const internal = logLines.filter((l) => l.startsWith('internal error'));
  logLines.length = 0;
  expect(internal).toEqual([]);
});

const auth = (): Record<string, string> => ({ Authorization: `Bearer ${h.adminKey}` });

/** A complete request over a raw socket (Connection: close, exact Content-Length unless given). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body: RawPart = '',
): Promise<RawExchange> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return sendRaw(h.url, [
    requestHead(method, path, { Connection: 'close', 'Content-Length': bytes.length, ...headers }),
    bytes,
  ]);
}

function expectRawError(exchange: RawExchange, status: number, error: string): void {
  expect(exchange.response?.status).toBe(status);
  expect(JSON.parse(exchange.response!.body)).toEqual({ success: false, error });
}

const multipartHeaders = (boundary: string): Record<string, string> => ({
  ...auth(),
  'Content-Type': `multipart/form-data; boundary=${boundary}`,
});

describe('malformed multipart', () => {
  it('a body framed with another boundary than declared → 400 Malformed multipart body', async () => {
    const body = multipartBody('REAL', [
      { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
    ]);
    expectRawError(
      await raw('POST', '/v1/documents', multipartHeaders('DECLARED'), body),
      400,
      'Malformed multipart body',
    );
  });

  it('multipart/form-data without a boundary → 400', async () => {
    const body = multipartBody('B', [{ name: 'file', filename: 'a.pdf', value: pdf }]);
    expectRawError(
      await raw('POST', '/v1/documents', { ...auth(), 'Content-Type': 'multipart/form-data' }, body),
      400,
      'Malformed multipart body',
    );
  });

  it('garbage bytes → 400', async () => {
    expectRawError(
      await raw('POST', '/v1/documents', multipartHeaders('XYZ'), randomBytes(3000)),
      400,
      'Malformed multipart body',
    );
    expectRawError(
      await raw('POST', '/v1/documents', multipartHeaders('XYZ'), 'not multipart\r\n\r\n--\r\n'),
      400,
      'Malformed multipart body',
    );
  });

  it('a file part that never reaches its closing boundary → 400', async () => {
    const body = Buffer.concat([
      Buffer.from(
        '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n',
      ),
      pdf,
    ]);
    expectRawError(await raw('POST', '/v1/documents', multipartHeaders('XYZ'), body), 400, 'Malformed multipart body');
  });

  it('an empty body → 400', async () => {
    expectRawError(await raw('POST', '/v1/documents', multipartHeaders('XYZ')), 400, 'Malformed multipart body');
  });

  it('a body that is not multipart at all → 400', async () => {
    await expectError(
      await h.api('/v1/documents', { method: 'POST', body: pdf, headers: { 'Content-Type': 'application/pdf' } }),
      400,
      'Expected multipart/form-data with a file field',
    );
  });
});

describe('truncated uploads', () => {
  const uploadHead = (declared: number): string =>
    requestHead('POST', '/v1/documents', { ...multipartHeaders('TRUNC'), 'Content-Length': declared });
  const fullBody = (): Uint8Array =>
    multipartBody('TRUNC', [
      {
        name: 'file',
        filename: 'big.pdf',
        contentType: 'application/pdf',
        value: Buffer.concat([pdf, randomBytes(400_000)]),
      },
    ]);

  it('Content-Length larger than what is sent, then the client ends the connection: no answer can arrive, nothing kept', async () => {
    const body = fullBody();
    const exchange = await sendRaw(h.url, [uploadHead(body.length), body.subarray(0, 300_000)], { end: true });
    // Node itself may answer 400 to the half-closed request; it never accepts it.
    if (exchange.response) expect(exchange.response.status).toBe(400);
  });

  it('the same, ended by a reset mid-file', async () => {
    const body = fullBody();
    const exchange = await sendRaw(h.url, [uploadHead(body.length), body.subarray(0, 300_000)], { destroy: true });
    expect(exchange.response).toBeNull();
  });

  it('cut off inside the part headers', async () => {
    const body = fullBody();
    const exchange = await sendRaw(h.url, [uploadHead(body.length), body.subarray(0, 30)], { end: true });
    if (exchange.response) expect(exchange.response.status).toBe(400);
  });

  it('a chunked body that stops before its last chunk', async () => {
    const body = fullBody().subarray(0, 200_000);
    const exchange = await sendRaw(
      h.url,
      [
        requestHead('POST', '/v1/documents', { ...multipartHeaders('TRUNC'), 'Transfer-Encoding': 'chunked' }),
        `${body.length.toString(16)}\r\n`,
        body,
        '\r\n',
      ],
      { end: true },
    );
    if (exchange.response) expect(exchange.response.status).toBe(400);
  });
});

describe('multipart content', () => {
  it('no file → 400 Missing file field', async () => {
    await expectError(
      await postMultipart(h, [{ name: 'space_id', value: h.defaultSpaceId }]),
      400,
      'Missing file field',
    );
    await expectError(await postMultipart(h, []), 400, 'Missing file field');
  });

  it('two files → 400 Only one file per upload', async () => {
    await expectError(
      await postMultipart(h, [
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
        { name: 'file', filename: 'b.pdf', contentType: 'application/pdf', value: await makePdf('second file') },
      ]),
      400,
      'Only one file per upload',
    );
  });

  it('a file in another field → 400 naming it', async () => {
    await expectError(
      await postMultipart(h, [{ name: 'attachment', filename: 'a.pdf', contentType: 'application/pdf', value: pdf }]),
      400,
      'Unknown parameter attachment: the file goes in the field named file',
    );
  });

  it('an unknown form field → 400; a repeated one → 400', async () => {
    await expectError(
      await postMultipart(h, [
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
        { name: 'colour', value: 'red' },
      ]),
      400,
      'Unknown parameter colour',
    );
    await expectError(
      await postMultipart(h, [
        { name: 'space_id', value: h.defaultSpaceId },
        { name: 'space_id', value: h.defaultSpaceId },
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
      ]),
      400,
      'Invalid parameter space_id: given more than once',
    );
  });

  it('too many form fields → 400', async () => {
    const fields = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    await expectError(
      await postMultipart(h, [...fields, { name: 'file', filename: 'a.pdf', value: pdf }]),
      400,
      'Too many form fields',
    );
  });

  it('a file part without a filename → 400 saying how to send it (not "unknown parameter file")', async () => {
    for (const value of [pdf, new Uint8Array(100_000).fill(0x41)]) {
      await expectError(
        await postMultipart(h, [{ name: 'file', contentType: 'application/pdf', value }]),
        400,
        'Invalid parameter file: send it as a file part, with a filename in its Content-Disposition',
      );
    }
  });

  it('metadata holding a NUL or a lone surrogate → 400 (stored as sent, or refused by PostgreSQL, otherwise)', async () => {
    for (const title of ['a\\u0000b', 'a\\ud800b']) {
      await expectError(
        await postMultipart(h, [
          { name: 'metadata', value: `{"title":"${title}"}` },
          { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
        ]),
        400,
        'Invalid metadata: a string holds a NUL or a lone surrogate',
      );
    }
  });

  it('a query parameter on the upload route → 400 naming it (the file is not stored in another space)', async () => {
    const res = await h.api(`/v1/documents?space_id=${h.defaultSpaceId}`, {
      method: 'POST',
      body: multipartBody(MULTIPART_BOUNDARY, [
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
      ]),
      headers: { 'Content-Type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
    });
    await expectError(res, 400, 'Unknown parameter space_id');
  });

  it('a metadata field over 64 KiB → 400 naming it', async () => {
    await expectError(
      await postMultipart(h, [
        { name: 'metadata', value: JSON.stringify({ title: 'x'.repeat(70_000) }) },
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
      ]),
      400,
      'Invalid parameter metadata: value too long',
    );
  });
});

describe('JSON routes', () => {
  const routes: Array<[string, string, () => string]> = [
    ['POST', '/v1/search', () => '/v1/search'],
    ['POST', '/v1/categories', () => '/v1/categories'],
    ['POST', '/v1/documents/reprocess', () => '/v1/documents/reprocess'],
    ['PATCH', '/v1/documents/:id', () => `/v1/documents/${docId}`],
  ];

  describe.each(routes)('%s %s', (method, _name, path) => {
    it('malformed JSON → 400 Malformed JSON body', async () => {
      for (const body of ['{"query": ', '{bad}', "{'a': 1}", '', 'undefined', '\u0000']) {
        await expectError(
          await h.api(path(), { method, body, headers: { 'Content-Type': 'application/json' } }),
          400,
          'Malformed JSON body',
        );
      }
    });

    it('text that cannot be stored → 400: bytes that are not UTF-8, a NUL, a lone surrogate', async () => {
      const send = (body: string | Uint8Array) =>
        h.api(path(), { method, body, headers: { 'Content-Type': 'application/json' } });
      await expectError(
        await send(Buffer.concat([Buffer.from('{"title":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])),
        400,
        'Malformed JSON body: not valid UTF-8',
      );
      for (const body of ['{"title":"a\\u0000b"}', '{"title":"a\\ud800b"}', '{"a\\u0000":1}']) {
        await expectError(await send(body), 400, 'Malformed JSON body: a string holds a NUL or a lone surrogate');
      }
    });

    it('Content-Type text/plain (or none, or a charset other than UTF-8) → 400', async () => {
      for (const headers of [
        { 'Content-Type': 'text/plain' },
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        { 'Content-Type': 'application/json; charset=utf-16' },
        {},
      ]) {
        await expectError(
          await h.api(path(), { method, body: '{"title":"x"}', headers }),
          400,
          'Expected Content-Type application/json',
        );
      }
    });

    it('a JSON body over 1 MiB → 413, with Content-Length and chunked', async () => {
      const huge = JSON.stringify({ query: 'x'.repeat(1024 * 1024) });
      const res = await h.api(path(), { method, body: huge, headers: { 'Content-Type': 'application/json' } });
      await expectError(res, 413, 'JSON body exceeds 1 MiB');
      const chunk = Buffer.from(huge);
      const exchange = await sendRaw(h.url, [
        requestHead(method, path(), {
          ...auth(),
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
          Connection: 'close',
        }),
        `${(512 * 1024).toString(16)}\r\n`,
        chunk.subarray(0, 512 * 1024),
        '\r\n',
        `${(chunk.length - 512 * 1024).toString(16)}\r\n`,
        chunk.subarray(512 * 1024),
        '\r\n',
        '0\r\n\r\n',
      ]);
      expectRawError(exchange, 413, 'JSON body exceeds 1 MiB');
    });

    it('a body cut off mid-way → no internal error, nothing written', async () => {
      const exchange = await sendRaw(
        h.url,
        [
          requestHead(method, path(), { ...auth(), 'Content-Type': 'application/json', 'Content-Length': 500 }),
          '{"title": "half',
        ],
        { end: true },
      );
      if (exchange.response) expect(exchange.response.status).toBe(400);
      // The server notices the hang-up asynchronously; give it the moment it needs before afterEach looks at the log.
      await new Promise((r) => setTimeout(r, 100));
    });
  });

  it('the PATCHed document is unchanged after all of that', async () => {
    const res = await h.api(`/v1/documents/${docId}`);
    const { document } = (await res.json()) as { document: { title: string; tags: string[] } };
    expect(document).toMatchObject({ title: titleBefore, tags: [] });
    expect((await h.db.get<{ n: number }>('SELECT count(*) AS n FROM categories'))!.n).toBe(0);
  });
});

describe('URLs', () => {
  it('invalid percent-encoding in a path id → 400 naming the id, like any id that is not a uuid', async () => {
    for (const path of [
      '/v1/documents/%ZZ',
      '/v1/documents/%E0%A4%A',
      '/v1/documents/%',
      '/v1/document/%C3%28/download',
    ]) {
      const exchange = await raw('GET', path, auth());
      expectRawError(exchange, 400, 'Invalid parameter id: expected a uuid');
    }
  });

  it('a query parameter on a route that reads none → 400 naming it (a typo never silently widens an answer)', async () => {
    await expectError(await h.api(`/v1/documents/${docId}?fields=title`), 400, 'Unknown parameter fields');
    await expectError(
      await h.api(`/v1/search?space_id=${h.defaultSpaceId}`, { method: 'POST', json: { query: 'probe' } }),
      400,
      'Unknown parameter space_id',
    );
    await expectError(
      await h.api(`/v1/documents/${docId}?hard=true`, { method: 'DELETE' }),
      400,
      'Unknown parameter hard',
    );
    // A name every object inherits is no parameter either.
    await expectError(await h.api('/v1/documents?toString=1'), 400, 'Unknown parameter toString');
    // A client's 10 KB name is not echoed back whole.
    const long = 'x'.repeat(10_000);
    await expectError(await h.api(`/v1/documents?${long}=1`), 400, `Unknown parameter ${'x'.repeat(64)}…`);
    // Probes take any query (a monitor's cache-buster).
    expect((await h.api('/v1/health?_=123', { key: null })).status).toBe(200);
  });

  it('a body on a route that reads none → 400 naming the field; none, or {}, is fine', async () => {
    const restore = (init: RequestInit & { json?: unknown }) =>
      h.api(`/v1/documents/${docId}/restore`, { method: 'POST', ...init });
    expect((await restore({})).status).toBe(200);
    expect((await restore({ json: {} })).status).toBe(200);
    await expectError(await restore({ json: { confirm: true } }), 400, 'Unknown parameter confirm');
    await expectError(
      await h.api(`/v1/documents/${docId}`, { method: 'DELETE', json: { hard: true } }),
      400,
      'Unknown parameter hard',
    );
    await expectError(
      await restore({ body: 'yes', headers: { 'Content-Type': 'text/plain' } }),
      400,
      'Expected Content-Type application/json',
    );
  });

  it('an offset past the largest exact integer → 400 naming the range', async () => {
    await expectError(
      await h.api('/v1/documents?offset=99999999999999999999'),
      400,
      `Invalid parameter offset: expected an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
    );
  });

  it('a request-target that is not a URL → 400 with RateLimit headers, no internal error', async () => {
    const exchange = await raw('GET', 'http://[::1/v1/documents', auth());
    expectRawError(exchange, 400, 'Invalid request URL');
    expect(exchange.response!.headers['ratelimit-limit']).toMatch(/^\d+$/);
  });

  it("headers over 16 KiB → 431 in the service's error shape", async () => {
    // Straight to the instance: its own parser is what is tested, not the balancer's in front of it.
    const exchange = await sendRaw(h.service.url, [
      requestHead('GET', `/v1/documents?tag=${'x'.repeat(20_000)}`, { ...auth(), Connection: 'close' }),
    ]);
    expectRawError(exchange, 431, 'Request headers too large');
  });

  it('invalid percent-encoding in the query is taken literally and validated like any value', async () => {
    expectRawError(
      await raw('GET', '/v1/documents?limit=%ZZ', auth()),
      400,
      'Invalid parameter limit: expected an integer from 1 to 100',
    );
    expectRawError(await raw('GET', '/v1/documents?%ZZ=1', auth()), 400, 'Unknown parameter %ZZ');
    const tag = await raw('GET', '/v1/documents?tag=%E0%A4', auth());
    expect(tag.response?.status).toBe(200);
    expect(JSON.parse(tag.response!.body)).toMatchObject({ success: true, items: [], total: 0 });
  });

  it("a control character, a broken request line or no Host → 400 in the service's error shape, connection closed", async () => {
    for (const request of [
      'GET /v1/documents/\x7f HTTP/1.1\r\nHost: x\r\n\r\n',
      'HELLO THERE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /v1/documents HTTP/1.1\r\n\r\n',
    ]) {
      const exchange = await sendRaw(h.service.url, [request]);
      expectRawError(exchange, 400, 'Malformed HTTP request');
      expect(exchange.response!.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });

  it('a wrong method on a known path → 405 with Allow; an unknown path → 404', async () => {
    const res = await h.api(`/v1/documents/${docId}`, { method: 'PUT', json: {} });
    expect(res.headers.get('allow')).toBe('GET, PATCH, DELETE');
    await expectError(res, 405, 'Method PUT not allowed');
    await expectError(await h.api('/v1/nothing-here'), 404, 'Not found');
  });
});

describe('stalled bodies (bodyIdleTimeoutMs = 300)', () => {
  let idle: Harness;
  beforeAll(async () => {
    idle = await startHarness({
      limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000, bodyIdleTimeoutMs: 300 },
    });
  });
  afterAll(async () => {
    await idle.close();
  });

  const stalled = (path: string, headers: Record<string, string | number>, sent: RawPart): Promise<RawExchange> =>
    sendRaw(idle.url, [requestHead('POST', path, { Authorization: `Bearer ${idle.adminKey}`, ...headers }), sent], {
      timeoutMs: 3000,
    });

  it('an upload whose body stops arriving → 408 naming the timeout, connection closed, nothing kept', async () => {
    const before = await serverState(idle);
    const body = multipartBody('IDLE', [
      { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', value: pdf },
    ]);
    const exchange = await stalled(
      '/v1/documents',
      { 'Content-Type': 'multipart/form-data; boundary=IDLE', 'Content-Length': body.length },
      body.subarray(0, body.length >> 1),
    );
    expect(exchange.response?.status).toBe(408);
    expect(JSON.parse(exchange.response!.body)).toEqual({
      success: false,
      error: 'Request body timed out: no data for 0.3 seconds',
    });
    expect(exchange.response?.headers.connection).toBe('close');
    await expectNothingWritten(idle, before);
  });

  it('a JSON body that stops arriving → 408', async () => {
    const exchange = await stalled(
      '/v1/search',
      { 'Content-Type': 'application/json', 'Content-Length': 100 },
      '{"query":',
    );
    expect(exchange.response?.status).toBe(408);
    expect(JSON.parse(exchange.response!.body)).toEqual({
      success: false,
      error: 'Request body timed out: no data for 0.3 seconds',
    });
  });
});
