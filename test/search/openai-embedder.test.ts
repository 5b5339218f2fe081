import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmbedder, dot } from '../../server/search/embedders/embedder.ts';
import { OpenAiEmbedder } from '../../server/search/embedders/openai-embedder.ts';

interface Received {
  auth: string | undefined;
  body: { model: string; input: string[]; dimensions?: number };
}

/** A fake embeddings server on 127.0.0.1: 4-dimensional vectors derived from each text, not normalised. */
let server: Server;
let baseUrl = '';
let received: Received[] = [];
let behaviour: (req: IncomingMessage, res: ServerResponse, body: Received['body']) => boolean = () => false;

const fakeVector = (text: string): number[] => [text.length, 1, text.charCodeAt(0) % 7, 2];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Received['body'];
      received.push({ auth: req.headers.authorization, body });
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      if (behaviour(req, res, body)) return;
      // Answer in reverse order: the index field, not the position, says which input a vector is for.
      const data = body.input
        .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }))
        .reverse();
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: body.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  behaviour = () => false;
});

describe('OpenAI-compatible embedder', () => {
  it('probes the dimensions, sends the model and the key, returns normalised vectors in input order', async () => {
    const embedder = await createEmbedder({
      kind: 'openai',
      baseUrl: `${baseUrl}/`,
      model: 'test-embed',
      apiKey: 'sk-test',
    });
    expect(embedder.dimensions).toBe(4);
    expect(embedder.id).toBe('openai:test-embed:4');
    const vectors = await embedder.embed(['a', 'bbbbbb', 'cc']);
    expect(received.at(-1)).toEqual({
      auth: 'Bearer sk-test',
      body: { model: 'test-embed', input: ['a', 'bbbbbb', 'cc'] },
    });
    vectors.forEach((vector, i) => {
      const expected = fakeVector(['a', 'bbbbbb', 'cc'][i]!);
      const norm = Math.hypot(...expected);
      expect([...vector].map((x) => x.toFixed(5))).toEqual(expected.map((x) => (x / norm).toFixed(5)));
      expect(dot(vector, vector)).toBeCloseTo(1, 5);
    });
  });

  it('batches, skips empty texts, and sends no key when none is configured', async () => {
    const embedder = await OpenAiEmbedder.create({ baseUrl, model: 'm', dimensions: 4, batchSize: 2 });
    expect(received).toEqual([]); // dimensions given: no probe
    const vectors = await embedder.embed(['one', '', 'three', 'four', '  ', 'six']);
    expect(received.map((r) => r.body.input)).toEqual([
      ['one', 'three'],
      ['four', 'six'],
    ]);
    expect(received.every((r) => r.auth === undefined && r.body.dimensions === 4)).toBe(true);
    expect(vectors.map((v) => v.length)).toEqual([4, 4, 4, 4, 4, 4]);
    expect(vectors[1]!.every((x) => x === 0)).toBe(true);
    expect(dot(vectors[2]!, vectors[2]!)).toBeCloseTo(1, 5);
  });

  it("reports HTTP errors with the server's message", async () => {
    behaviour = (_req, res) => {
      res
        .writeHead(401, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
      return true;
    };
    const embedder = await OpenAiEmbedder.create({ baseUrl, model: 'm', dimensions: 4, apiKey: 'wrong' });
    await expect(embedder.embed(['x'])).rejects.toThrow(
      `Embedding endpoint ${baseUrl}/embeddings (model m) answered HTTP 401: Incorrect API key provided`,
    );
  });

  it('retries 503 and 429, then succeeds', async () => {
    let failures = 2;
    behaviour = (_req, res) => {
      if (failures-- <= 0) return false;
      res.writeHead(failures === 1 ? 503 : 429, { 'Retry-After': '0' }).end('busy');
      return true;
    };
    const embedder = await OpenAiEmbedder.create({ baseUrl, model: 'm', dimensions: 4 });
    const [vector] = await embedder.embed(['hello']);
    expect(received).toHaveLength(3);
    expect(dot(vector!, vector!)).toBeCloseTo(1, 5);
  });

  it('times out', async () => {
    behaviour = () => true; // never answers
    const embedder = await OpenAiEmbedder.create({ baseUrl, model: 'm', dimensions: 4, timeoutMs: 200 });
    await expect(embedder.embed(['x'])).rejects.toThrow(/did not answer within 200 ms/);
  });

  it('rejects malformed answers clearly', async () => {
    const answers: Array<[unknown, RegExp]> = [
      [{ data: [] }, /returned 0 embeddings for 1 inputs/],
      [{ nope: true }, /without a data array/],
      [{ data: [{ index: 0, embedding: 'AAAA' }] }, /not an array of numbers/],
      [{ data: [{ index: 0, embedding: [1, 2, 3] }] }, /returned 3 dimensions, expected 4/],
      [{ data: [{ index: 5, embedding: [1, 2, 3, 4] }] }, /bad or repeated index 5/],
    ];
    const embedder = await OpenAiEmbedder.create({ baseUrl, model: 'm', dimensions: 4, retries: 0 });
    for (const [answer, message] of answers) {
      behaviour = (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
        return true;
      };
      await expect(embedder.embed(['x'])).rejects.toThrow(message);
    }
    behaviour = (_req, res) => {
      res.writeHead(200).end('<html>proxy error</html>');
      return true;
    };
    await expect(embedder.embed(['x'])).rejects.toThrow(/not JSON: <html>proxy error/);
  });

  it('says when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      OpenAiEmbedder.create({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', retries: 0 }),
    ).rejects.toThrow(/could not be reached: .*ECONNREFUSED/);
  });
});
