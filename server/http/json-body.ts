import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { ErrorMessage } from '../../common/errors.ts';
import { holdsOnlyStorableText } from '../../common/storable-text.ts';
import { HttpError } from './http-error.ts';
import { bodyTimedOut, watchBodyIdle } from './request-body.ts';

const MAX_JSON_BYTES = 1024 * 1024;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON request body (at most 1 MiB). 400 for a wrong Content-Type or bad JSON, 413 when too large, 408 when the
 * body stops arriving (watchBodyIdle).
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const [type = '', ...parameters] = (req.headers['content-type'] ?? '').split(';').map((p) => p.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (type !== 'application/json' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new HttpError(400, 'Expected Content-Type application/json');
  }
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
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new HttpError(400, `${ErrorMessage.malformedJson}: not valid UTF-8`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, ErrorMessage.malformedJson);
  }
  // Escapes can still spell what UTF-8 cannot hold (a lone surrogate) or what PostgreSQL's text refuses (NUL):
  // refused here rather than stored garbled, or failing later as an internal error.
  if (!holdsOnlyStorableText(parsed)) {
    throw new HttpError(400, `${ErrorMessage.malformedJson}: a string holds a NUL or a lone surrogate`);
  }
  return parsed;
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
