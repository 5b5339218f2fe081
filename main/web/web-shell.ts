import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DesktopApp } from '../core/desktop-app.ts';
import { redactSecrets } from '../core/keychain/redact.ts';
import { parseByteRange } from '../core/shell/byte-range.ts';
import { dispatchCall, forwardEvents, toIpcError } from '../core/shell/ipc-dispatch.ts';
import {
  inlineScriptHashes,
  previewHeaders,
  rendererCsp,
  rendererHeaders,
  resolveRendererFile,
  servedIndex,
} from '../core/shell/renderer-files.ts';
import { receiveChosenFiles } from './chosen-files-route.ts';

/**
 * The browser shell: serves the built renderer on 127.0.0.1 and carries the DesktopApi contract over a WebSocket.
 * Anyone on this computer can reach a loopback port, so the socket and the previews need the per-launch token (it
 * travels in the URL's fragment to the page, which never sends it to a server log); Host and Origin must name this
 * very address so that a web page using DNS rebinding or a cross-site socket gets nothing. Frames are JSON:
 * request { id, call, input? }, response { id, ok: true, result } | { id, ok: false, error }, event { event, payload }.
 * Files chosen in the page (a web page never learns their paths) come as multipart POST /files?token=… from the same
 * origin and go into the upload queue (chosen-files-route.ts).
 */

export interface WebShellOptions {
  app: DesktopApp;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /**
   * 0 (default) picks a free port, a new one at every start. A fixed one would let the browser keep the app's caches
   * from one start to the next, but it would make the app's origin known in advance: another user of this computer
   * could serve a page on it while the app is not running, and leave a service worker or a cached script there that
   * the next start would run with its token (docs/app.md).
   */
  port?: number;
  /** The access token; default a fresh random one. Given when the app's previewUrl must know it before the shell starts. */
  token?: string;
  log?: (line: string) => void;
}

export interface WebShell {
  /** http://127.0.0.1:<port>/#token=<token>: what the user opens. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** 32 random bytes: the per-launch secret of the socket and the preview route. */
export function newWebShellToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The preview URL the renderer gets from documents.preview (relative: same origin as the page). */
export function webPreviewUrl(documentId: string, token: string): string {
  return `/preview/${encodeURIComponent(documentId)}?token=${encodeURIComponent(token)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STALE_TOKEN = 'This address is from an earlier start of the app: open the address npm start printed this time.';
/** uploads.add may carry 10,000 paths; anything far beyond that is not the renderer talking. */
const MAX_FRAME_BYTES = 8 * 1024 * 1024;

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const { app, rendererDir } = options;
  const log = options.log ?? (() => {});
  const token = options.token ?? newWebShellToken();
  const tokenBytes = Buffer.from(token);
  let port = 0;

  const sameToken = (candidate: string | null): boolean => {
    if (candidate === null) return false;
    const bytes = Buffer.from(candidate);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };
  const hostIsOurs = (request: IncomingMessage): boolean => request.headers.host === `127.0.0.1:${port}`;
  const originIsOurs = (request: IncomingMessage): boolean => request.headers.origin === `http://127.0.0.1:${port}`;

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  const server = createServer((request, response) => {
    void handleHttp(request, response).catch((error: unknown) => {
      log(`web shell: ${request.method} ${request.url?.split('?')[0]}: ${redactSecrets(String(error))}`);
      if (!response.headersSent) sendText(response, 500, 'Internal error');
      else response.destroy();
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostIsOurs(request)) return sendText(response, 403, 'Forbidden host');
    const rawUrl = request.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : rawUrl.slice(queryAt + 1));
    if (rawPath === '/files') return receiveFiles(request, response, query.get('token'));
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return sendText(response, 405, 'Method not allowed');
    }
    if (rawPath.startsWith('/preview/'))
      return servePreview(request, response, rawPath.slice('/preview/'.length), query.get('token'));
    if (rawPath === '/ipc') return sendText(response, 426, 'Upgrade required');
    // A browser hides why a socket was refused: a page asks here whether its token still holds (after a restart of
    // the app, or from a bookmark, it does not), and stops retrying instead of knocking forever.
    if (rawPath === '/session') {
      if (sameToken(query.get('token'))) return void response.writeHead(204, { 'Cache-Control': 'no-store' }).end();
      return sendText(response, 403, STALE_TOKEN);
    }

    const file = await resolveRendererFile(rendererDir, rawPath);
    if ('error' in file) return sendText(response, file.error, file.error === 403 ? 'Forbidden' : 'Not found');
    const body = await readFile(file.path).catch(() => null);
    if (body === null) {
      if (file.isIndex) return sendText(response, 503, 'The renderer is not built (run npm start, which builds it)');
      return sendText(response, 404, 'Not found');
    }
    if (!file.isIndex) {
      response.writeHead(200, { ...rendererHeaders(file.path, null), 'Content-Length': body.length });
      return void response.end(request.method === 'HEAD' ? undefined : body);
    }
    const index = body.toString('utf8');
    // Hashes of the built page's own inline scripts, taken before a snapshot goes in (first-paint.ts).
    const csp = rendererCsp({ connect: [`ws://127.0.0.1:${port}`], scripts: inlineScriptHashes(index) });
    // The library's first paint holds the user's documents: only for the page opened with the token (the address the
    // app prints carries it in the query; the page moves it to its session at once, web-desktop.ts takeToken).
    const paint = sameToken(query.get('token')) ? app.firstPaint() : null;
    const html = await servedIndex(rendererDir, index, paint);
    const page = Buffer.from(html);
    response.writeHead(200, {
      ...rendererHeaders(file.path, csp),
      // The page opened with the token carries the user's settings and documents: not kept in the browser's cache.
      ...(paint ? { 'Cache-Control': 'no-store' } : {}),
      'Content-Length': page.length,
    });
    response.end(request.method === 'HEAD' ? undefined : page);
  }

  /** Files chosen in the page, streamed into the upload queue: only from this very page (origin and token). */
  async function receiveFiles(
    request: IncomingMessage,
    response: ServerResponse,
    candidate: string | null,
  ): Promise<void> {
    if (request.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      return sendText(response, 405, 'Method not allowed');
    }
    if (!originIsOurs(request) || !sameToken(candidate)) {
      // Nothing of a refused body is read: the connection closes after the answer.
      response.setHeader('Connection', 'close');
      return sendJson(response, 403, { ok: false, error: { message: STALE_TOKEN, status: 403 } });
    }
    const answer = await receiveChosenFiles(app, request);
    if (answer.status >= 400) response.setHeader('Connection', 'close');
    sendJson(response, answer.status, answer.body);
  }

  async function servePreview(
    request: IncomingMessage,
    response: ServerResponse,
    rawId: string,
    candidate: string | null,
  ): Promise<void> {
    if (!sameToken(candidate)) return sendText(response, 403, 'Forbidden');
    if (!UUID.test(rawId)) return sendText(response, 404, 'Not found');
    let file: Awaited<ReturnType<DesktopApp['previewFile']>>;
    try {
      file = await app.previewFile(rawId.toLowerCase());
    } catch (error) {
      const { message, status } = toIpcError(error);
      return sendText(response, status === 404 ? 404 : 502, message);
    }
    const headers = previewHeaders(file);
    const range = parseByteRange(request.headers.range, file.size);
    if (range === 'unsatisfiable') {
      response.writeHead(416, { ...headers, 'Content-Range': `bytes */${file.size}` });
      return void response.end();
    }
    const start = range?.start ?? 0;
    const end = range?.end ?? file.size - 1;
    response.writeHead(range ? 206 : 200, {
      ...headers,
      'Content-Length': Math.max(0, end - start + 1),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${file.size}` } : {}),
    });
    if (request.method === 'HEAD' || file.size === 0) return void response.end();
    await pipeline(createReadStream(file.path, { start, end }), response).catch((error: unknown) => {
      // The viewer cancels ranges it no longer needs; that is not worth a log line.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
    });
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (
      url.pathname !== '/ipc' ||
      !hostIsOurs(request) ||
      !originIsOurs(request) ||
      !sameToken(url.searchParams.get('token'))
    ) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  });

  wss.on('connection', (ws: WebSocket) => {
    ws.on('error', (error) => log(`web shell: socket error: ${redactSecrets(error.message)}`));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'text frames only');
      let frame: unknown;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return ws.close(1003, 'not JSON');
      }
      const { id, call, input } = (frame ?? {}) as { id?: unknown; call?: unknown; input?: unknown };
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) return ws.close(1003, 'a request needs a numeric id');
      void dispatchCall(app.handlers, call, input).then((outcome) => send(ws, { id, ...outcome }));
    });
  });

  const send = (ws: WebSocket, frame: { id: number } & object): void => {
    if (ws.readyState !== ws.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify(frame);
    } catch (error) {
      text = JSON.stringify({ id: frame.id, ok: false, error: toIpcError(error) });
    }
    ws.send(text);
  };

  const stopForwarding = forwardEvents(app, (event, payload) => {
    if (wss.clients.size === 0) return;
    const text = JSON.stringify({ event, payload });
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(text);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    stopForwarding();
    wss.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  log(`web shell: serving ${rendererDir} at ${base}`);

  return {
    url: `${base}/?token=${token}`,
    port,
    token,
    async close(): Promise<void> {
      stopForwarding();
      for (const client of wss.clients) client.close(1001, 'shutting down');
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}
