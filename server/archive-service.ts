import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ErrorMessage, errorMessage, errorStack, type ErrorBody } from '../common/errors.ts';
import { verifyApiKey, type ApiKeyPrincipal } from './auth/api-keys.ts';
import { catalogRoutes } from './catalog/catalog-routes.ts';
import { openBackends, type BackendOptions } from './archive-backends.ts';
import { SPEC_LIMITS, type ServiceLimits } from './config.ts';
import type { Sql } from './db/sql.ts';
import { documentRoutes } from './documents/document-routes.ts';
import { COUNT_COMPACTION_INTERVAL_MS, compactDocumentTotals } from './documents/document-total.ts';
import { downloadRoutes } from './documents/download-routes.ts';
import { uploadRoute } from './documents/upload-route.ts';
import { eventRoutes } from './events/event-routes.ts';
import { expireEndedTerms } from './events/state-sweeper.ts';
import { tuneGarbageCollection } from './gc-tuning.ts';
import { HttpError } from './http/http-error.ts';
import { parseJsonBody } from './http/json-body.ts';
import { openApiDocument } from './http/openapi.ts';
import { parseQuery } from './http/query.ts';
import { isStorageFull, storageFull } from './http/storage-full.ts';
import {
  FixedWindowLimiter,
  InMemoryRateCounters,
  rateLimitHeaders,
  type RateCounters,
  type RateLimitState,
} from './http/rate-limiter.ts';
import { discardBody, DISCARD_MARGIN_BYTES, setBodyIdleTimeout } from './http/request-body.ts';
import { sendError, sendJson } from './http/respond.ts';
import { Router, type RequestContext } from './http/router.ts';
import { DocumentProcessor } from './pipeline/processor.ts';
import type { ProcessingLimits } from './pipeline/processing-limits.ts';
import { embedderConfigFromEnv, type EmbedderConfig } from './search/embedders/embedder.ts';
import { configureEmbeddings, embeddingIndexFor } from './search/embedding-index.ts';
import { searchRoutes } from './search/search-routes.ts';
import type { ServiceContext } from './service-context.ts';

export interface ArchiveServiceOptions extends Omit<BackendOptions, 'now'> {
  dataDir: string;
  /**
   * With a store that can presign (S3): a download's 302 points straight at the object (valid as long as the signed
   * link would be), so files do not pass through the service. Only when clients can reach the store's endpoint.
   */
  presignedDownloads?: boolean;
  /** Behind a load balancer that appends X-Forwarded-For: key-less requests are counted per client, not per balancer. */
  trustProxy?: boolean;
  limits?: Partial<ServiceLimits>;
  /** Documents analysed at a time, each in its own process (default: all cores but one, at least one). */
  workers?: number;
  /** What one document may cost to process (docs/api.md, "Processing limits"); the defaults where absent. */
  processing?: Partial<ProcessingLimits>;
  /** Embedding provider for semantic search (default: ARCHIVE_EMBEDDER* environment, else the built-in hashed one). */
  embedder?: EmbedderConfig;
  /** One line per request and per notable event; silent when omitted. */
  log?: (line: string) => void;
  now?: () => number;
}

export interface RunningArchiveService {
  url: string;
  port: number;
  db: Sql;
  processor: DocumentProcessor;
  close(): Promise<void>;
}

export function buildRouter(): Router {
  return new Router().add(
    uploadRoute,
    ...documentRoutes,
    ...downloadRoutes,
    ...eventRoutes,
    ...searchRoutes,
    ...catalogRoutes,
    {
      method: 'GET',
      path: '/v1/openapi.json',
      scope: null,
      public: true,
      handler: () => ({ status: 200, body: openApiDocument() }),
    },
    {
      method: 'GET',
      path: '/v1/health',
      scope: null,
      public: true,
      healthCheck: true,
      acceptsQuery: true, // a monitor's cache-buster is no reason to fail a probe
      handler: () => ({ status: 200, body: { success: true, status: 'ok' } }),
    },
    {
      // Readiness for a load balancer: this instance can reach its database and its blob store.
      method: 'GET',
      path: '/v1/ready',
      scope: null,
      public: true,
      healthCheck: true,
      acceptsQuery: true, // a monitor's cache-buster is no reason to fail a probe
      handler: async (ctx) => {
        const failed = await unreachableBackends(ctx.service);
        if (failed.length === 0) return { status: 200, body: { success: true, status: 'ready' } };
        throw new HttpError(503, `Not ready: ${failed.join(', ')} unreachable`, { 'Retry-After': '5' });
      },
    },
  );
}

/** Which of the database and the blob store this instance cannot reach now (each checked with a cheap request). */
async function unreachableBackends(service: ServiceContext): Promise<string[]> {
  const [database, blobs] = await Promise.allSettled([
    service.db.get('SELECT 1 AS ok'),
    service.blobs.stat('0'.repeat(64)),
  ]);
  return [
    ...(database.status === 'rejected' ? ['database'] : []),
    ...(blobs.status === 'rejected' ? ['blob store'] : []),
  ];
}

/** Opens the data directory and returns the shared context (used by the server and by tests that seed data). */
export async function openArchive(options: ArchiveServiceOptions): Promise<ServiceContext> {
  await mkdir(options.dataDir, { recursive: true });
  const now = options.now ?? Date.now;
  const backends = await openBackends({ ...options, now });
  const { db, blobs } = backends;
  try {
    await configureEmbeddings(db, options.embedder ?? embedderConfigFromEnv());
  } catch (error) {
    // A misconfigured model must not keep the archive from starting: search falls back to the built-in embedder.
    (options.log ?? (() => undefined))(`embedder not available (${errorMessage(error)}); using the built-in one`);
    await configureEmbeddings(db, { kind: 'hashed' });
  }
  const processor = new DocumentProcessor(db, blobs, {
    workers: options.workers ?? Math.max(1, availableParallelism() - 1),
    claimJob: backends.claimJob,
    lease: backends.jobLease,
    signals: backends.jobSignals,
    limits: options.processing,
    log: options.log ?? (() => undefined),
  });
  return {
    db,
    blobs,
    rateCounters: backends.rateCounters,
    processor,
    limits: { ...SPEC_LIMITS, ...options.limits },
    downloadSecret: await downloadSecretOf(db),
    presignedDownloads: options.presignedDownloads ?? false,
    trustProxy: options.trustProxy ?? false,
    now,
  };
}

/** The HMAC secret for signed download links, created once per archive. */
async function downloadSecretOf(db: Sql): Promise<Buffer> {
  await db.run(
    "INSERT INTO settings (key, value) VALUES ('download_secret', ?) ON CONFLICT DO NOTHING",
    randomBytes(32).toString('hex'),
  );
  const row = await db.get<{ value: string }>("SELECT value FROM settings WHERE key = 'download_secret'");
  return Buffer.from(row!.value, 'hex');
}

/** Starts the Archive Service on host:port (port 0 picks a free one). */
export async function startArchiveService(
  options: ArchiveServiceOptions & { host?: string; port?: number },
): Promise<RunningArchiveService> {
  tuneGarbageCollection();
  const service = await openArchive(options);
  const log = options.log ?? (() => undefined);
  const handler = createRequestHandler(service, buildRouter(), log);
  const server = createServer(
    // The Host check is the handler's, so that its 400 has the service's error shape too.
    { requestTimeout: 10 * 60_000, headersTimeout: 30_000, requireHostHeader: false },
    (req, res) => void handler(req, res),
  );
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  await service.processor.start();
  const sweep = async (): Promise<void> => {
    const expired = await expireEndedTerms(service.db);
    if (expired > 0) log(`${expired} event(s) expired (end date passed)`);
  };
  await sweep();
  // Documents stored before embeddings existed, or under another model, are embedded in the background.
  const embeddings = embeddingIndexFor(service.db);
  void embeddings
    .warm()
    .then(() => embeddings.sync())
    .catch((error: unknown) => log(`embedding sync failed: ${String(error)}`));
  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => log(`expiry sweep failed: ${errorMessage(error)}`)),
    60 * 60_000,
  );
  sweeper.unref();
  const compactor = setInterval(
    () =>
      void compactDocumentTotals(service.db).catch((error: unknown) =>
        log(`document count compaction failed: ${errorMessage(error)}`),
      ),
    COUNT_COMPACTION_INTERVAL_MS,
  );
  compactor.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    db: service.db,
    processor: service.processor,
    close: () => {
      clearInterval(sweeper);
      clearInterval(compactor);
      return closeService(server, service);
    },
  };
}

async function closeService(server: Server, service: ServiceContext): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
  await service.processor.stop();
  await service.db.close();
  await service.blobs.close();
}

/** The request pipeline: route → authenticate → rate limit → scope → handler → one log line. */
export function createRequestHandler(service: ServiceContext, router: Router, log: (line: string) => void) {
  const counters: RateCounters = service.rateCounters ?? new InMemoryRateCounters(service.now);
  const { windowMs } = service.limits;
  const requests = new FixedWindowLimiter('requests', service.limits.requestsPerWindow, windowMs, counters);
  const uploads = new FixedWindowLimiter('uploads', service.limits.uploadsPerWindow, windowMs, counters);
  // Probes are counted by each instance in memory: liveness and readiness must answer while the database does not.
  const healthChecks = new FixedWindowLimiter(
    'health',
    service.limits.healthRequestsPerWindow,
    windowMs,
    new InMemoryRateCounters(service.now),
  );

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    let pathname = '?';
    let headers: Record<string, string> = {};
    // Where this request's body starts on the connection (it may carry earlier requests): what discardBody counts from.
    const socketBytesAtStart = req.socket.bytesRead;
    setBodyIdleTimeout(req, service.limits.bodyIdleTimeoutMs);
    res.on('finish', () =>
      log(`${req.method} ${pathname} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`),
    );
    try {
      // RFC 9112: an HTTP/1.1 request without Host is malformed, as Node's parser would say (before any key is read).
      if (req.httpVersion === '1.1' && req.headers.host === undefined) {
        throw new HttpError(400, ErrorMessage.malformedRequest, { Connection: 'close' });
      }
      const url = requestUrl(req.url);
      pathname = url?.pathname ?? '?';
      const matched = url ? router.match(req.method ?? 'GET', url.pathname) : { allowed: [] };
      const route = 'route' in matched ? matched.route : null;

      let principal: ApiKeyPrincipal | null = null;
      if (!route?.public) {
        principal = await authenticate(service, req);
        if (!principal) {
          // The address's key-less budget is counted and shown, but a wrong key always learns it is wrong (the
          // spec's 401): a client that backs off on 429 would otherwise retry a revoked key for ever. Keys are random
          // 256-bit secrets checked by one indexed lookup, so answering every guess costs nothing worth limiting.
          headers = rateLimitHeaders(await requests.take(`ip:${clientAddress(req, service.trustProxy)}`));
          throw new HttpError(401, ErrorMessage.invalidKey, { 'WWW-Authenticate': 'Bearer' });
        }
      }
      const params = 'params' in matched ? matched.params : {};
      const signer = (url && route?.countedAs?.({ url, params, service })) ?? null;
      const limiterKey = principal
        ? `key:${principal.id}`
        : signer
          ? `key:${signer}`
          : `ip:${clientAddress(req, service.trustProxy)}`;
      const requestState = await (route?.healthCheck ? healthChecks : requests).take(limiterKey);
      let state: RateLimitState = requestState;
      let uploadState: RateLimitState | undefined;
      if (state.allowed && route?.upload) {
        // On an upload the tighter of the two limits is the one a client must pace by, so its numbers are sent.
        uploadState = await uploads.take(limiterKey);
        state = uploadState.allowed ? (uploadState.remaining < state.remaining ? uploadState : state) : uploadState;
      }
      headers = rateLimitHeaders(state);
      if (route?.upload) {
        // Both windows by name as well, so a client can mirror each without guessing which one the plain headers meant.
        Object.assign(
          headers,
          rateLimitHeaders(requestState, 'Requests'),
          uploadState ? rateLimitHeaders(uploadState, 'Uploads') : {},
        );
      }
      if (!state.allowed) {
        throw new HttpError(429, ErrorMessage.rateLimited, { 'Retry-After': String(state.resetSeconds) });
      }
      if (!route || !url) {
        if (!url) throw new HttpError(400, ErrorMessage.invalidRequestTarget);
        if ('allowed' in matched && matched.allowed.length > 0) {
          throw new HttpError(405, `Method ${req.method} not allowed`, { Allow: matched.allowed.join(', ') });
        }
        throw new HttpError(404, ErrorMessage.notFound);
      }
      if (route.scope && !principal!.scopes.has(route.scope)) throw new HttpError(403, ErrorMessage.insufficientScope);
      // A parameter or body field no route reads is refused: a typo (`?space_id=` on an upload) must not be ignored.
      if (!route.acceptsQuery) parseQuery(url.searchParams, {});
      if (!route.acceptsBody && hasBody(req)) await parseJsonBody(req, z.strictObject({}));

      const ctx: RequestContext = {
        req,
        res,
        url,
        params,
        principal: principal ?? PUBLIC_PRINCIPAL,
        service,
        headers,
      };
      const result = await route.handler(ctx);
      if (result !== 'sent') sendJson(res, result.status, result.body, { ...headers, ...result.headers });
    } catch (error) {
      respondWithError(req, res, error, headers, log);
    }
    // Answered before the body was read (401, 403, 413, 429 …): the client is likely still sending. The rest is read
    // and discarded, bounded, so it can read the answer; a stalled body (408) is closed on at once instead.
    if (!req.complete && !req.destroyed && res.statusCode !== 408) {
      discardBody(req, service.limits.maxUploadBytes + DISCARD_MARGIN_BYTES, socketBytesAtStart);
    }
  };
}

/**
 * A request Node's parser refused (bad bytes, headers over 16 KiB, no Host, a stalled header): answered in the
 * service's error shape instead of Node's bare status line. No key or route is known, so no budget is counted.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', ErrorMessage.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', ErrorMessage.requestTimeout]
        : [400, 'Bad Request', ErrorMessage.malformedRequest];
  const body = JSON.stringify({ success: false, error: message } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The request's URL, or null when its request-target cannot be read as one (a 400, not an internal error). */
function requestUrl(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://archive.invalid');
  } catch {
    return null;
  }
}

/** Whether the request carries a body (a declared length above 0, or chunks). */
function hasBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The address a key-less request is counted by. Behind a load balancer every request comes from the balancer; with
 * trustProxy the last address of X-Forwarded-For (the one the balancer itself appended: earlier ones are whatever the
 * client sent, so never trusted) stands for the client.
 */
export function clientAddress(req: IncomingMessage, trustProxy = false): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').pop()?.trim();
  return last || (req.socket.remoteAddress ?? '');
}

const PUBLIC_PRINCIPAL: ApiKeyPrincipal = {
  id: '',
  name: 'public',
  role: 'viewer',
  scopes: new Set(),
  spaces: new Set(),
};

async function authenticate(service: ServiceContext, req: IncomingMessage): Promise<ApiKeyPrincipal | null> {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? await verifyApiKey(service.db, match[1]!) : null;
}

function respondWithError(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  headers: Record<string, string>,
  log: (line: string) => void,
): void {
  const httpError = error instanceof HttpError ? error : null;
  if (!httpError) log(`internal error on ${req.method} ${req.url?.split('?')[0]}: ${errorStack(error)}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const full = !httpError && isStorageFull(error);
  const status = httpError?.status ?? (full ? 507 : 500);
  const extra = status === 429 ? { retryAfter: Number(httpError!.headers['Retry-After']) } : {};
  // A body that stopped arriving is not waited for again: the connection closes after the answer. (Nothing is in
  // flight, so the close cannot reset the connection before the client has read the answer.)
  const connection: Record<string, string> = status === 408 && !req.complete ? { Connection: 'close' } : {};
  const answer = full ? storageFull() : httpError;
  sendError(res, status, answer?.message ?? ErrorMessage.internal, extra, {
    ...headers,
    ...answer?.headers,
    ...connection,
  });
}
