import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { ErrorMessage } from '../../common/errors.ts';
import { HttpError } from './http-error.ts';
import { bodyTimedOut, watchBodyIdle } from './request-body.ts';

const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body (at most 1 MiB). 400 for a wrong Content-Type or bad JSON, 413 when too large, 408 when the
 * body stops arriving (watchBodyIdle).
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(400, 'Expected Content-Type application/json');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_JSON_BYTES) throw new HttpError(413, 'JSON body exceeds 1 MiB');
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stopWatching = watchBodyIdle(req, () => settle(bodyTimedOut(req)));
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) settle(new HttpError(413, 'JSON body exceeds 1 MiB'));
      else chunks.push(chunk);
    };
    // A client that hangs up mid-body is the client's problem, not an internal error worth a stack trace in the log.
    const onAborted = (): void => settle(new HttpError(400, 'Request aborted before the body was complete'));
    const onEnd = (): void => settle(null);
    function settle(error: HttpError | null): void {
      stopWatching();
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted);
      // What is left of a rejected body stays unread here; the answer's sender discards it (discardBody).
      req.pause();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    }
    req.on('data', onData).once('end', onEnd).once('aborted', onAborted).once('error', onAborted);
  });
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, ErrorMessage.malformedJson);
  }
}

/** Reads a JSON body and checks it against `schema`: 400 naming the first problem (zodMessage) when it does not fit. */
export async function parseJsonBody<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.output<T>> {
  const parsed = schema.safeParse(await readJsonBody(req));
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
  return parsed.data;
}

/** The first problem of a failed parse as one sentence naming the field: "Invalid parameter documentIds: …". */
export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return `Unknown parameter ${issue.keys.join(', ')}`;
  const path = issue.path.join('.');
  return path ? `Invalid parameter ${path}: ${issue.message}` : `Invalid body: ${issue.message}`;
}
