import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.ts';

/** A request body that brings no byte for this long while the service waits for it is given up (408). */
export const BODY_IDLE_TIMEOUT_MS = 30_000;

/**
 * Beyond the upload limit, how much more of a body the service reads and discards after an early answer: room for
 * the multipart framing and fields around a file of the maximum size, and for the part of a body above the limit that
 * a client sends before it has read the 413.
 */
export const DISCARD_MARGIN_BYTES = 4 * 1024 * 1024;

const idleTimeouts = new WeakMap<IncomingMessage, number>();

/** Sets the body idle timeout of one request (the service's limits; the readers below take it from here). */
export function setBodyIdleTimeout(req: IncomingMessage, ms: number): void {
  idleTimeouts.set(req, ms);
}

const idleTimeoutOf = (req: IncomingMessage): number => idleTimeouts.get(req) ?? BODY_IDLE_TIMEOUT_MS;

/** The answer to a body that stopped arriving. */
export function bodyTimedOut(req: IncomingMessage): HttpError {
  return new HttpError(408, `Request body timed out: no data for ${idleTimeoutOf(req) / 1000} seconds`);
}

/**
 * Calls `onIdle` once the body has brought no byte for the request's idle timeout while it is read; time the service
 * itself holds the body back (backpressure: the stream is paused) does not count. Returns the function that stops it.
 */
export function watchBodyIdle(req: IncomingMessage, onIdle: () => void): () => void {
  const ms = idleTimeoutOf(req);
  const timer = setTimeout(function check() {
    if (req.readableFlowing === false) timer.refresh();
    else onIdle();
  }, ms);
  timer.unref();
  const refresh = (): void => void timer.refresh();
  req.on('data', refresh);
  return () => {
    clearTimeout(timer);
    req.off('data', refresh);
  };
}

/**
 * After an answer sent before the body was read (401, 403, 413, 429, 400 …): reads and discards the rest, so the
 * client, still sending, is not reset before it has read the answer (a reset makes fetch and undici report EPIPE
 * instead of the status). Bounded: once the body has brought `maxBodyBytes` in all, or nothing for the idle timeout,
 * the connection is closed. A body that ends within the bound leaves the connection open for the next request.
 */
export function discardBody(req: IncomingMessage, maxBodyBytes: number, bodyBytesAtStart: number): void {
  const socket = req.socket;
  const read = (): number => socket.bytesRead - bodyBytesAtStart;
  let closing = false;
  const close = (): void => {
    stop();
    socket.destroy();
  };
  const stop = watchBodyIdle(req, close);
  req.on('data', () => {
    if (closing || read() <= maxBodyBytes) return;
    // A lingering close (as web servers do it): the answer is flushed and the sending side shut (FIN), and the rest is
    // still read and dropped for a moment. Closing with the client's bytes unread would reset the connection (RST),
    // and a reset makes the client drop an answer it had received but not yet read (seen on a busy machine).
    closing = true;
    socket.end();
    setTimeout(close, LINGER_MS).unref();
  });
  req.once('end', stop);
  req.once('close', stop);
  req.resume();
}

/** How long a connection closed past the discard bound is still read from (lingering close). */
const LINGER_MS = 2000;
