/**
 * A client in a process of its own, for answers the service gives before it has read a request body: run in the
 * test's process, the client only writes when the service's event loop lets it, so it never races a closing server
 * the way a real client does. Usage: node test/helpers/post-client.ts '<PostSpec as JSON>'; prints Outcome[] as JSON.
 */
import { Readable } from 'node:stream';
import { request } from 'undici';

export interface PostSpec {
  client: 'fetch' | 'undici';
  url: string;
  headers: Record<string, string>;
  /** The body: `head`, then `size` bytes of filler, then `tail` (all sent as one Buffer, or in 64 KiB chunks). */
  head: string;
  size: number;
  tail: string;
  chunked: boolean;
  repeat: number;
}

export type Outcome = { status: number; body: unknown } | { error: string };

function* chunksOf(buffer: Buffer): Generator<Buffer> {
  for (let at = 0; at < buffer.length; at += 64 * 1024) yield buffer.subarray(at, at + 64 * 1024);
}

/** The body for fetch: the buffer, or a stream of 64 KiB chunks (sent chunked). */
function fetchBody(spec: PostSpec, buffer: Buffer): Buffer | ReadableStream<Uint8Array> {
  if (!spec.chunked) return buffer;
  const chunks = chunksOf(buffer);
  return new ReadableStream({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

async function post(spec: PostSpec, buffer: Buffer): Promise<Outcome> {
  try {
    if (spec.client === 'fetch') {
      const body = fetchBody(spec, buffer);
      const init = { method: 'POST', headers: spec.headers, body, duplex: 'half' } as RequestInit & { duplex: 'half' };
      const res = await fetch(spec.url, init);
      return { status: res.status, body: await res.json() };
    }
    const body = spec.chunked ? Readable.from(chunksOf(buffer)) : buffer;
    const res = await request(spec.url, { method: 'POST', headers: spec.headers, body });
    return { status: res.statusCode, body: await res.body.json() };
  } catch (error) {
    const { code, cause } = error as { code?: string; cause?: { code?: string } };
    return { error: cause?.code ?? code ?? String(error) };
  }
}

const spec = JSON.parse(process.argv[2]!) as PostSpec;
const buffer = Buffer.concat([Buffer.from(spec.head), Buffer.alloc(spec.size, 0x41), Buffer.from(spec.tail)]);
const outcomes: Outcome[] = [];
for (let i = 0; i < spec.repeat; i++) outcomes.push(await post(spec, buffer));
process.stdout.write(JSON.stringify(outcomes));
