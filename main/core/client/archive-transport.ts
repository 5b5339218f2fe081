import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { connectionProblem } from '../../../common/connection-problems.ts';
import { describeIssues } from '../../../common/archive-schemas.ts';
import { ArchiveError } from './archive-error.ts';
import { backoffDelay, sleep, DEFAULT_BACKOFF, type BackoffOptions } from './backoff.ts';
import { ConnectionMonitor, type ConnectionMonitorTimings } from './connection-monitor.ts';
import { header, rateLimitHeaders, retryAfterMs } from './response-headers.ts';
import { toArchiveError } from './to-archive-error.ts';
import { WindowBucket } from './window-bucket.ts';

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

export interface CallOptions {
  /** What a successful answer must look like; anything else is an error (the service is not trusted). */
  schema: z.ZodType;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  signal?: AbortSignal;
  maxAttempts?: number;
}

export type Body = { body: AsyncIterable<Uint8Array> | string; contentType: string; contentLength?: number };

/**
 * How the desktop's calls reach an Archive Service: the key and its pause after a 401, the rate-limit buckets that wait
 * instead of spending requests that would come back 429, retries with backoff for what is worth retrying, and the
 * connection monitor fed by every outcome. ArchiveClient adds the endpoints on top; nothing here knows one.
 */
export class ArchiveTransport extends EventEmitter<ClientEvents> {
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
  protected readonly now: () => number;
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
  /** The service's words for the 401 that paused the calls, or null. */
  get authPauseReason(): string | null {
    return this.authPaused;
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

  protected call<S extends z.ZodType>(
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
  protected async send<S extends z.ZodType>(
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
      throw new ArchiveError(connectionProblem('unreadableAnswer', { status: response.statusCode }), {
        status: 502,
        cause: error,
      });
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const path = new URL(pathOrUrl, `${this.baseUrl}/`).pathname;
    throw new ArchiveError(
      connectionProblem('invalidAnswer', { request: `${method} ${path}`, issues: describeIssues(parsed.error) }),
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
  protected async sendRaw(
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
  protected async raw(
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

  protected async errorOf(response: Dispatcher.ResponseData): Promise<ArchiveError> {
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

  protected url(path: string, query?: CallOptions['query']): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.href;
  }
}

function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
  return AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
}
