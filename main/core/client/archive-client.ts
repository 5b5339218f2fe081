import { EventEmitter } from 'node:events';
import { createWriteStream } from 'node:fs';
import { access, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  bulkReprocessResponseSchema,
  categoryResponseSchema,
  categorySchema,
  deletedDocumentResponseSchema,
  describeIssues,
  documentResponseSchema,
  documentSchema,
  eventResponseSchema,
  eventSchema,
  healthResponseSchema,
  keyResponseSchema,
  listEnvelopeSchema,
  reprocessResponseSchema,
  restoredDocumentResponseSchema,
  searchResponseSchema,
  senderSchema,
  spaceSchema,
  tagSchema,
  uploadAcceptedSchema,
} from '../../../common/archive-schemas.ts';
import type {
  ArchiveDocument,
  ArchiveDocumentDetail,
  ArchiveEvent,
  ArchiveEventDetail,
  BulkReprocessResult,
  Category,
  DocumentSortField,
  DocumentStatus,
  EventState,
  EventType,
  KeyInfo,
  ListEnvelope,
  ReprocessResult,
  SearchHit,
  Sender,
  Space,
  Tag,
  UploadAccepted,
  UploadMetadata,
} from '../../../common/archive-types.ts';
import { downloadFileName } from '../../../common/download-name.ts';
import { errorMessage } from '../../../common/errors.ts';
import type { EventPatch } from '../../../common/event-patch.ts';
import type { DocumentUpdate } from '../../../common/ipc.ts';
import { detectFormat } from '../../../shared/formats/detect-format.ts';
import { ArchiveError } from './archive-error.ts';
import { backoffDelay, sleep, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.ts';
import { ConnectionMonitor, type ConnectionMonitorTimings } from './connection-monitor.ts';
import { filenameFromContentDisposition } from './content-disposition.ts';
import { FileChangedError, multipartBody } from './multipart-body.ts';
import { WindowBucket } from './window-bucket.ts';
import { resolveInside } from '../safe-path.ts';

/** The spec's limits per key; the buckets start here and follow the RateLimit-* headers from then on. */
export const SPEC_CLIENT_LIMITS = { requestsPerWindow: 60, uploadsPerWindow: 10, windowMs: 60_000 } as const;

export interface ArchiveClientOptions {
  baseUrl: string;
  apiKey: string | null;
  limits?: { requestsPerWindow: number; uploadsPerWindow: number; windowMs: number };
  /** Attempts per call for transient failures (5xx, timeouts, connection errors); 429 waits do not count. */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  /** Time to the response headers; a stalled service counts as a timeout (transient). */
  headersTimeoutMs?: number;
  /** Longest silence while a body streams. */
  bodyTimeoutMs?: number;
  dispatcher?: Dispatcher;
  now?: () => number;
  /** How the connection monitor probes (tests shorten it); see connection-monitor.ts. */
  connection?: Partial<ConnectionMonitorTimings>;
}

export interface ClientEvents {
  /** The key was refused: every call fails fast with 401 until `setApiKey` gives a new one. */
  'auth-required': [message: string];
  /** A 429 arrived (should be rare: the buckets exist to avoid it). */
  'rate-limited': [retryAfterMs: number];
  /** Each transient failure before a retry. */
  retry: [info: { method: string; path: string; attempt: number; delayMs: number; error: ArchiveError }];
}

export interface DocumentListQuery {
  limit?: number;
  offset?: number;
  sort_by?: DocumentSortField;
  sort_order?: 'asc' | 'desc';
  space_id?: string;
  category_id?: string;
  status?: DocumentStatus;
  created_after?: string;
  updated_after?: string;
  tag?: string;
  deleted?: boolean;
}

export interface EventListQuery {
  limit?: number;
  offset?: number;
  state?: EventState;
  event_type?: EventType;
  due_before?: string;
  due_after?: string;
  space_id?: string;
  document_id?: string;
  updated_after?: string;
}

export interface UploadRequest {
  path: string;
  /** The file name the service stores (default: the path's base name). */
  fileName: string;
  size: number;
  contentType?: string;
  spaceId?: string;
  metadata?: UploadMetadata;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** Attempts for this upload (the upload journal retries on its own schedule, so it asks for 1). */
  maxAttempts?: number;
}

export interface DownloadedFile {
  path: string;
  fileName: string;
  size: number;
  contentType: string;
}

interface CallOptions {
  /** What a successful answer must look like; anything else is an error (the service is not trusted). */
  schema: z.ZodType;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  signal?: AbortSignal;
  maxAttempts?: number;
}

type Body = { body: AsyncIterable<Uint8Array> | string; contentType: string; contentLength?: number };

/**
 * The one way the desktop talks to an Archive Service, hosted or local. Typed methods for every endpoint, one error
 * type, rate limiting that waits instead of spending requests that would come back 429, and retries with backoff for
 * what is worth retrying. A refused key pauses everything until a new one is set.
 */
export class ArchiveClient extends EventEmitter<ClientEvents> {
  readonly baseUrl: string;
  /** Whether the service answers, from every request's outcome; started by the owner (DesktopCore), stopped by close(). */
  readonly connection: ConnectionMonitor;
  private apiKey: string | null;
  private authPaused: string | null = null;
  private readonly requests: WindowBucket;
  private readonly uploads: WindowBucket;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffOptions;
  private readonly headersTimeoutMs: number;
  private readonly bodyTimeoutMs: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => number;
  private readonly closing = new AbortController();

  constructor(options: ArchiveClientOptions) {
    super();
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    const limits = options.limits ?? SPEC_CLIENT_LIMITS;
    this.now = options.now ?? Date.now;
    this.requests = new WindowBucket({ limit: limits.requestsPerWindow, windowMs: limits.windowMs, now: this.now });
    this.uploads = new WindowBucket({ limit: limits.uploadsPerWindow, windowMs: limits.windowMs, now: this.now });
    this.maxAttempts = options.maxAttempts ?? 4;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.headersTimeoutMs = options.headersTimeoutMs ?? 30_000;
    this.bodyTimeoutMs = options.bodyTimeoutMs ?? 60_000;
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 8 });
    this.connection = new ConnectionMonitor({
      ...options.connection,
      now: this.now,
      probe: (signal) => this.ping(signal),
    });
  }

  /** A new key (after a 401, or the user changed it) lifts the pause. */
  setApiKey(apiKey: string | null): void {
    this.apiKey = apiKey;
    this.authPaused = null;
  }

  get hasApiKey(): boolean {
    return this.apiKey !== null;
  }
  get isAuthPaused(): boolean {
    return this.authPaused !== null;
  }
  get rateLimits(): { requests: WindowBucket['state']; uploads: WindowBucket['state'] } {
    return { requests: this.requests.state, uploads: this.uploads.state };
  }

  async close(): Promise<void> {
    const error = new ArchiveError('The archive client was closed', { kind: 'aborted' });
    await this.connection.stop();
    this.closing.abort(error);
    this.requests.rejectAll(error);
    this.uploads.rejectAll(error);
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // ---- endpoints ----------------------------------------------------------------------------------------------

  health(signal?: AbortSignal): Promise<{ success: true; status: string; version?: string | undefined }> {
    return this.call('GET', '/v1/health', { schema: healthResponseSchema, signal, maxAttempts: 1 });
  }
  me(signal?: AbortSignal): Promise<KeyInfo> {
    return this.call('GET', '/v1/me', { schema: keyResponseSchema, signal }).then((r) => r.key);
  }
  listDocuments(query: DocumentListQuery = {}, signal?: AbortSignal): Promise<ListEnvelope<ArchiveDocument>> {
    return this.call('GET', '/v1/documents', {
      schema: listEnvelopeSchema(documentSchema),
      query: { ...query },
      signal,
    });
  }
  getDocument(id: string, signal?: AbortSignal): Promise<ArchiveDocumentDetail> {
    return this.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { schema: documentResponseSchema, signal }).then(
      (r) => r.document,
    );
  }
  updateDocument(
    id: string,
    changes: Omit<DocumentUpdate, 'id'>,
    signal?: AbortSignal,
  ): Promise<ArchiveDocumentDetail> {
    return this.call('PATCH', `/v1/documents/${encodeURIComponent(id)}`, {
      schema: documentResponseSchema,
      json: changes,
      signal,
    }).then((r) => r.document);
  }
  deleteDocument(id: string, signal?: AbortSignal): Promise<{ id: string; deleted_at: string }> {
    return this.call('DELETE', `/v1/documents/${encodeURIComponent(id)}`, {
      schema: deletedDocumentResponseSchema,
      signal,
    });
  }
  restoreDocument(id: string, signal?: AbortSignal): Promise<ArchiveDocument> {
    return this.call('POST', `/v1/documents/${encodeURIComponent(id)}/restore`, {
      schema: restoredDocumentResponseSchema,
      signal,
    }).then((r) => r.document);
  }
  reprocessDocument(id: string, signal?: AbortSignal): Promise<ReprocessResult> {
    return this.call('POST', `/v1/documents/${encodeURIComponent(id)}/reprocess`, {
      schema: reprocessResponseSchema,
      signal,
    });
  }
  reprocessDocuments(documentIds: string[], signal?: AbortSignal): Promise<BulkReprocessResult> {
    return this.call('POST', '/v1/documents/reprocess', {
      schema: bulkReprocessResponseSchema,
      json: { documentIds },
      signal,
    });
  }
  listEvents(query: EventListQuery = {}, signal?: AbortSignal): Promise<ListEnvelope<ArchiveEvent>> {
    return this.call('GET', '/v1/events', { schema: listEnvelopeSchema(eventSchema), query: { ...query }, signal });
  }
  getEvent(id: string, signal?: AbortSignal): Promise<ArchiveEventDetail> {
    return this.call('GET', `/v1/events/${encodeURIComponent(id)}`, { schema: eventResponseSchema, signal }).then(
      (r) => r.event,
    );
  }
  setEventState(
    id: string,
    change: { state: EventState; cause?: string; paid_at?: string },
    signal?: AbortSignal,
  ): Promise<ArchiveEventDetail> {
    return this.call('POST', `/v1/events/${encodeURIComponent(id)}/state`, {
      schema: eventResponseSchema,
      json: change,
      signal,
    }).then((r) => r.event);
  }
  /** Hand edits of an event (PATCH /v1/events/{id}); the service decides the state again (needs_input → open with an amount). */
  updateEvent(id: string, patch: EventPatch, signal?: AbortSignal): Promise<ArchiveEventDetail> {
    return this.call('PATCH', `/v1/events/${encodeURIComponent(id)}`, {
      schema: eventResponseSchema,
      json: patch,
      signal,
    }).then((r) => r.event);
  }
  search(
    query: { query: string; limit?: number; space_id?: string },
    signal?: AbortSignal,
  ): Promise<{ items: SearchHit[]; total: number; limit: number; query: string }> {
    return this.call('POST', '/v1/search', { schema: searchResponseSchema, json: query, signal });
  }
  listCategories(spaceId?: string, signal?: AbortSignal): Promise<Category[]> {
    return this.call('GET', '/v1/categories', {
      schema: listEnvelopeSchema(categorySchema),
      query: { space_id: spaceId },
      signal,
    }).then((r) => r.items);
  }
  createCategory(name: string, spaceId: string, signal?: AbortSignal): Promise<Category> {
    return this.call('POST', '/v1/categories', {
      schema: categoryResponseSchema,
      json: { name, space_id: spaceId },
      signal,
    }).then((r) => r.category);
  }
  listSpaces(signal?: AbortSignal): Promise<Space[]> {
    return this.call('GET', '/v1/spaces', { schema: listEnvelopeSchema(spaceSchema), signal }).then((r) => r.items);
  }
  listTags(signal?: AbortSignal): Promise<Tag[]> {
    return this.call('GET', '/v1/tags', { schema: listEnvelopeSchema(tagSchema), signal }).then((r) => r.items);
  }
  listSenders(signal?: AbortSignal): Promise<Sender[]> {
    return this.call('GET', '/v1/senders', { schema: listEnvelopeSchema(senderSchema), signal }).then((r) => r.items);
  }

  /** Streams a file from disk as multipart (never whole in memory), paced by the upload limit. */
  upload(upload: UploadRequest): Promise<UploadAccepted> {
    const fields: Array<[string, string]> = [];
    if (upload.spaceId) fields.push(['space_id', upload.spaceId]);
    if (upload.metadata && Object.keys(upload.metadata).length > 0)
      fields.push(['metadata', JSON.stringify(upload.metadata)]);
    return this.send('POST', '/v1/documents', uploadAcceptedSchema, {
      signal: upload.signal,
      maxAttempts: upload.maxAttempts,
      isUpload: true,
      preflight: () => checkUploadFile(upload.path, upload.size),
      body: () =>
        multipartBody(
          fields,
          { path: upload.path, name: upload.fileName, size: upload.size, contentType: upload.contentType },
          upload.onProgress,
        ),
    });
  }

  /**
   * The download flow of the spec: the API answers 302 with a signed URL valid 60 seconds; it is fetched at once and
   * streamed to `directory` under the Content-Disposition file name (temp file + rename, so no half file remains).
   */
  async download(
    id: string,
    directory: string,
    options: { signal?: AbortSignal; fileName?: string; overwrite?: boolean } = {},
  ): Promise<DownloadedFile> {
    const location = await this.downloadUrl(id, options.signal);
    const response = await this.raw('GET', location, { signal: options.signal, authorize: false });
    if (response.statusCode !== 200) throw await this.errorOf(response);
    await mkdir(directory, { recursive: true });
    const temp = resolveInside(directory, `.download.${process.pid}.${Date.now()}.part`);
    let target: string;
    try {
      await pipeline(response.body, createWriteStream(temp, { flags: 'wx' }));
      // The service's name keeps the user's words, but the extension is that of the bytes received: a hostile or
      // mistaken service cannot make the desktop save an executable or script under a name the OS would run.
      const fileName =
        options.fileName ??
        downloadFileName(
          filenameFromContentDisposition(header(response.headers, 'content-disposition'), id),
          (await detectFormat(temp))?.mimeType ?? 'application/octet-stream',
        );
      target = options.overwrite ? resolveInside(directory, fileName) : await freeName(directory, fileName);
      if (options.overwrite) await rename(temp, target);
      else {
        // link() never replaces an existing file: a name taken meanwhile moves on to the next suffix.
        for (let n = 2; ; n++) {
          try {
            await link(temp, target);
            break;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 10_000) throw error;
            target = await freeName(directory, fileName, n);
          }
        }
        await rm(temp, { force: true });
      }
    } catch (error) {
      await rm(temp, { force: true });
      throw toArchiveError(error);
    }
    return {
      path: target,
      fileName: basename(target),
      size: Number(header(response.headers, 'content-length') ?? 0),
      contentType: header(response.headers, 'content-type') ?? 'application/octet-stream',
    };
  }

  /** Asks the API for the signed URL of a document's file (absolute), without fetching it. */
  async downloadUrl(id: string, signal?: AbortSignal): Promise<string> {
    const response = await this.sendRaw('GET', `/v1/documents/${encodeURIComponent(id)}/download`, {
      signal,
      expect: [302],
    });
    const location = header(response.headers, 'location');
    await response.body.dump();
    if (!location) throw new ArchiveError('The service answered the download without a Location', { status: 502 });
    return new URL(location, `${this.baseUrl}/`).href;
  }

  // ---- transport ----------------------------------------------------------------------------------------------

  private call<S extends z.ZodType>(
    method: string,
    path: string,
    options: CallOptions & { schema: S },
  ): Promise<z.output<S>> {
    const url = this.url(path, options.query);
    const json = options.json === undefined ? undefined : JSON.stringify(options.json);
    return this.send(method, url, options.schema, {
      signal: options.signal,
      maxAttempts: options.maxAttempts,
      body: json === undefined ? undefined : () => ({ body: json, contentType: 'application/json' }),
    });
  }

  /** Sends one call and parses its answer with `schema`: nothing from the service is used unchecked. */
  private async send<S extends z.ZodType>(
    method: string,
    pathOrUrl: string,
    schema: S,
    options: {
      signal?: AbortSignal;
      maxAttempts?: number;
      isUpload?: boolean;
      body?: () => Body;
      preflight?: () => Promise<void>;
    },
  ): Promise<z.output<S>> {
    const response = await this.sendRaw(method, pathOrUrl, { ...options, expect: 'success' });
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ArchiveError(`The service sent an unreadable answer (HTTP ${response.statusCode})`, {
        status: 502,
        cause: error,
      });
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const path = new URL(pathOrUrl, `${this.baseUrl}/`).pathname;
    throw new ArchiveError(
      `The service sent an invalid response to ${method} ${path}: ${describeIssues(parsed.error)}`,
      { status: 502, cause: parsed.error },
    );
  }

  /**
   * The connection monitor's probe: GET /v1/health without a key and outside the rate-limit buckets (health is public
   * and counted in no window on the service). Any HTTP answer resolves; its outcome is the monitor's to record.
   */
  private async ping(signal: AbortSignal): Promise<void> {
    try {
      const response = await this.raw('GET', this.url('/v1/health'), { signal, authorize: false, report: false });
      await response.body.dump();
    } catch (error) {
      throw toArchiveError(error, signal);
    }
  }

  /** Paces, sends, and retries one call; resolves with the response whose status is expected (body unread). */
  private async sendRaw(
    method: string,
    pathOrUrl: string,
    options: {
      signal?: AbortSignal;
      maxAttempts?: number;
      isUpload?: boolean;
      body?: () => Body;
      expect: 'success' | number[];
      /** Runs once the tokens are taken, right before sending; if it throws, nothing is sent and the tokens go back. */
      preflight?: () => Promise<void>;
    },
  ): Promise<Dispatcher.ResponseData> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : this.url(pathOrUrl);
    const maxAttempts = Math.max(1, options.maxAttempts ?? this.maxAttempts);
    const signal = anySignal(options.signal, this.closing.signal);
    for (let attempt = 1; ; attempt++) {
      if (this.authPaused !== null || this.apiKey === null) {
        throw new ArchiveError(this.authPaused ?? 'Invalid or missing API key', { status: 401, kind: 'auth-paused' });
      }
      // The upload token first: holding a request token while waiting minutes for an upload token would starve others.
      if (options.isUpload) await this.uploads.acquire(signal);
      try {
        await this.requests.acquire(signal);
      } catch (error) {
        if (options.isUpload) this.uploads.settle(undefined);
        throw error;
      }
      if (options.preflight) {
        try {
          await options.preflight();
        } catch (error) {
          this.requests.refund();
          if (options.isUpload) this.uploads.refund();
          throw toArchiveError(error, signal);
        }
      }
      let response: Dispatcher.ResponseData;
      try {
        response = await this.raw(method, url, { signal, body: options.body?.(), authorize: true });
      } catch (error) {
        this.requests.settle(undefined);
        if (options.isUpload) this.uploads.settle(undefined);
        const failure = toArchiveError(error, signal);
        if (!failure.transient || attempt >= maxAttempts) throw failure;
        await this.pause(method, url, attempt, failure, signal);
        continue;
      }
      this.settleBuckets(response, options.isUpload ?? false);
      const expected =
        options.expect === 'success'
          ? response.statusCode >= 200 && response.statusCode < 300
          : options.expect.includes(response.statusCode);
      if (expected) return response;
      const failure = await this.errorOf(response);
      if (failure.status === 401) {
        this.authPaused = failure.message;
        this.emit('auth-required', failure.message);
        throw failure;
      }
      if (failure.status === 429) {
        // Waiting out a 429 is not a failed attempt: the service told us exactly when to come back.
        const waitMs = failure.retryAfterMs ?? 1000;
        this.emit('rate-limited', waitMs);
        (options.isUpload && this.describesUploads(response) ? this.uploads : this.requests).block(this.now() + waitMs);
        attempt--;
        continue;
      }
      if (!failure.transient || attempt >= maxAttempts) throw failure;
      await this.pause(method, url, attempt, failure, signal);
    }
  }

  private async pause(
    method: string,
    url: string,
    attempt: number,
    error: ArchiveError,
    signal: AbortSignal,
  ): Promise<void> {
    const delayMs = Math.max(error.retryAfterMs ?? 0, backoffDelay(attempt - 1, this.backoff));
    this.emit('retry', { method, path: new URL(url).pathname, attempt, delayMs, error });
    await sleep(delayMs, signal);
  }

  /**
   * One HTTP request. Its outcome goes to the connection monitor, ticketed as it leaves (requests elsewhere, such as a
   * signed URL on another host, and the monitor's own probes are not reported).
   */
  private async raw(
    method: string,
    url: string,
    options: { signal: AbortSignal | undefined; body?: Body; authorize: boolean; report?: boolean },
  ): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.authorize && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (options.body) {
      headers['content-type'] = options.body.contentType;
      if (options.body.contentLength !== undefined) headers['content-length'] = String(options.body.contentLength);
    }
    const ticket = options.report !== false && url.startsWith(`${this.baseUrl}/`) ? this.connection.begin() : undefined;
    try {
      const response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: typeof options.body?.body === 'object' ? Readable.from(options.body.body) : options.body?.body,
        signal: options.signal,
        dispatcher: this.dispatcher,
        headersTimeout: this.headersTimeoutMs,
        bodyTimeout: this.bodyTimeoutMs,
      });
      if (ticket !== undefined) this.connection.answered(ticket);
      return response;
    } catch (error) {
      const failure = toArchiveError(error, options.signal);
      if (ticket !== undefined && failure.offline) this.connection.unreachable(ticket, failure.message);
      throw error;
    }
  }

  private settleBuckets(response: Dispatcher.ResponseData, isUpload: boolean): void {
    const named = isUpload ? rateLimitHeaders(response.headers, 'uploads') : undefined;
    if (named) {
      // This service names both windows on uploads: no guessing which one the plain headers describe.
      this.uploads.settle(named);
      this.requests.settle(rateLimitHeaders(response.headers, 'requests'));
      return;
    }
    const limits = rateLimitHeaders(response.headers);
    // On an upload the service reports the tighter of its two limits: the one whose limit matches gets the numbers.
    if (isUpload && limits && this.describesUploads(response)) {
      this.uploads.settle(limits);
      this.requests.settle(undefined);
    } else {
      this.requests.settle(limits);
      if (isUpload) this.uploads.settle(undefined);
    }
  }

  /**
   * An upload's RateLimit-* headers describe the tighter of the service's two limits. They are the upload limit's
   * unless their Limit is the request limit we know (and not also the upload limit).
   */
  private describesUploads(response: Dispatcher.ResponseData): boolean {
    const limit = Number(header(response.headers, 'ratelimit-limit'));
    if (!Number.isFinite(limit)) return false;
    return limit === this.uploads.state.limit || limit !== this.requests.state.limit;
  }

  private async errorOf(response: Dispatcher.ResponseData): Promise<ArchiveError> {
    let message = `HTTP ${response.statusCode}`;
    let retryAfterS: number | undefined;
    try {
      const body = JSON.parse(await response.body.text()) as { error?: unknown; retryAfter?: unknown };
      if (typeof body.error === 'string' && body.error) message = body.error;
      if (typeof body.retryAfter === 'number') retryAfterS = body.retryAfter;
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    const headerValue = header(response.headers, 'retry-after');
    const fromHeader = headerValue === undefined ? undefined : retryAfterMs(headerValue, this.now());
    return new ArchiveError(message, {
      status: response.statusCode,
      retryAfterMs: fromHeader ?? (retryAfterS === undefined ? undefined : retryAfterS * 1000),
    });
  }

  private url(path: string, query?: CallOptions['query']): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.href;
  }
}

/** `name.pdf`, else `name (2).pdf`, `name (3).pdf`...: the first that does not exist in `directory`. */
async function freeName(directory: string, fileName: string, from = 1): Promise<string> {
  const ext = extname(fileName);
  const stem = fileName.slice(0, fileName.length - ext.length);
  for (let n = from; ; n++) {
    const candidate = resolveInside(directory, n < 2 ? fileName : `${stem} (${n})${ext}`);
    try {
      await access(candidate);
    } catch {
      return candidate;
    }
  }
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `RateLimit-*`, or with a window name our service's `RateLimit-Uploads-*` / `RateLimit-Requests-*`. */
function rateLimitHeaders(
  headers: Dispatcher.ResponseData['headers'],
  window?: 'uploads' | 'requests',
): { limit: number; remaining: number; resetSeconds: number } | undefined {
  const prefix = window ? `ratelimit-${window}` : 'ratelimit';
  const raw = [
    header(headers, `${prefix}-limit`),
    header(headers, `${prefix}-remaining`),
    header(headers, `${prefix}-reset`),
  ];
  if (raw.some((value) => value === undefined)) return undefined;
  const [limit, remaining, resetSeconds] = raw.map(Number) as [number, number, number];
  if (![limit, remaining, resetSeconds].every((n) => Number.isFinite(n) && n >= 0)) return undefined;
  return { limit, remaining, resetSeconds };
}

/** Retry-After is seconds or an HTTP date. */
export function retryAfterMs(value: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/**
 * Codes of this computer's file system (the upload's file, or its file descriptors), never of the network. They start
 * with E like ECONNREFUSED, so they must be told apart before "any E-code is a network error": an ENOENT taken for a
 * network error sent the journal offline, the health check answered, and the vanished file was retried forever.
 */
const LOCAL_FS_CODES = new Set([
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EACCES',
  'EPERM',
  'EMFILE',
  'ENFILE',
  'ELOOP',
  'ENAMETOOLONG',
  'EBUSY',
  'EIO',
  'EROFS',
]);

export function toArchiveError(error: unknown, signal?: AbortSignal): ArchiveError {
  if (error instanceof ArchiveError) return error;
  if (signal?.aborted) {
    return signal.reason instanceof ArchiveError
      ? signal.reason
      : new ArchiveError('The request was cancelled', { kind: 'aborted', cause: error });
  }
  if (error instanceof FileChangedError) return new ArchiveError(error.message, { kind: 'local', cause: error });
  const code = (error as { code?: string } | null)?.code ?? '';
  if (LOCAL_FS_CODES.has(code) && !(error instanceof undiciErrors.UndiciError)) {
    return new ArchiveError(error instanceof Error ? error.message : code, { kind: 'local', cause: error });
  }
  if (TIMEOUT_CODES.has(code))
    return new ArchiveError('The service did not answer in time', { kind: 'timeout', cause: error });
  if (error instanceof undiciErrors.UndiciError || /^(E[A-Z]+|UND_ERR)/.test(code)) {
    return new ArchiveError(`Cannot reach the service (${code || errorMessage(error)})`, {
      kind: 'network',
      cause: error,
    });
  }
  return new ArchiveError(errorMessage(error), { kind: 'network', cause: error });
}

/**
 * Just before an upload leaves (its tokens taken): is the file still there, a file, of the size the body announces?
 * A vanished or changed file fails here, locally, and its tokens are given back.
 */
async function checkUploadFile(path: string, size: number): Promise<void> {
  const info = await stat(path);
  if (!info.isFile()) throw Object.assign(new Error(`Not a file: ${path}`), { code: 'EISDIR' });
  if (info.size !== size) throw new FileChangedError(path, size, info.size);
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
  return AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
}
