import { asError, ErrorMessage } from '../../../common/errors.ts';
import { CALL_NAMES, CHOSEN_FILE_MAX_BYTES, CHOSEN_FILES_PER_REQUEST, EVENT_NAMES } from '../../../common/ipc-names.ts';
import type {
  AddFilesOptions,
  CallName,
  DesktopApi,
  EventName,
  EventPayload,
  IpcError,
  UploadItemView,
} from '../../../common/ipc.ts';

/**
 * `window.desktop` for the browser shell: the DesktopApi contract over the shell's loopback WebSocket
 * (ws://<host>/ipc?token=…). Requests carry an id and wait in a map for their response; events fan out to
 * subscribers. When the socket drops, calls in flight fail with a clear error and the bridge reconnects with backoff;
 * calls made while (re)connecting wait a little for the socket instead of failing at once.
 *
 * Only structural types of the DOM are used, so the bridge also runs (and is tested) under Node with the `ws` client.
 */

export interface LocationLike {
  readonly host: string;
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
}

export interface MessageEventLike {
  readonly data: unknown;
}
export interface CloseEventLike {
  readonly code: number;
  readonly reason: string;
}

/** The part of a browser WebSocket the bridge uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: MessageEventLike) => void) | null;
  onclose: ((event: CloseEventLike) => void) | null;
  onerror: ((event: never) => void) | null;
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface HistoryLike {
  replaceState(data: unknown, unused: string, url: string): void;
}

export interface WebDesktopOptions {
  /** Opens the socket; default the browser's WebSocket. */
  connect?: (url: string) => SocketLike;
  /** Where the token is kept across reloads; default sessionStorage. */
  storage?: StorageLike | null;
  /** Used to drop the token from the address bar; default window.history. */
  history?: HistoryLike | null;
  /**
   * When a token in the address is kept in `storage` and dropped from the address bar: two synchronous round trips to
   * the browser that a start need not wait for. Default: once the page is idle (at most a second later).
   */
  later?: (task: () => void) => void;
  /** How long a call waits for the socket before failing; default 10 s. */
  connectTimeoutMs?: number;
  /** Reconnect backoff: first delay and cap; default 250 ms … 10 s. */
  retryMs?: { first: number; max: number };
  /**
   * Asks the shell whether the token still holds (GET /session): 'refused' after a restart of the app or from a
   * bookmark; 'unknown' when the shell does not answer (not running). Default: fetch on the page's origin.
   */
  checkToken?: (url: string) => Promise<'valid' | 'refused' | 'unknown'>;
  /** What calls fail with once the token is refused, in the UI's language; default English. */
  sessionEndedMessage?: () => string;
  /** The early script's socket and calls to take over; default window.__desktopEarly (taken once). */
  early?: EarlyBridge | null;
  /** How long the early calls' answers may be taken after adoption; default 5 s (then they are asked again). */
  earlyAnswersMs?: number;
  /** Sends chosen files to the shell's upload route; default the page's fetch. */
  fetch?: (
    url: string,
    init: { method: 'POST'; body: FormData },
  ) => Promise<{ status: number; json(): Promise<unknown> }>;
}

/**
 * What index.html's early script started before this bridge existed: its socket, the calls it sent (negative ids, so
 * they never meet the bridge's own) and what the socket did meanwhile.
 */
export interface EarlyBridge {
  readonly url: string;
  readonly socket: SocketLike;
  readonly calls: ReadonlyArray<{ id: number; call: string; input?: unknown }>;
  readonly opened: boolean;
  readonly messages: readonly MessageEventLike[];
  readonly closed: CloseEventLike | null;
}

/** Every call fails with this once the shell refused the page's token: retrying cannot help, opening the new address does. */
export class SessionEndedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionEndedError';
  }
}

const SESSION_ENDED =
  "The desktop app was restarted, so this page's access link no longer works. Open the address that npm start printed " +
  '(the one ending in #token=…) again.';

async function fetchTokenCheck(url: string): Promise<'valid' | 'refused' | 'unknown'> {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    return response.status === 204 ? 'valid' : response.status === 403 ? 'refused' : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A call that failed: the message for the user, the service's status and the schema's issues when there were some. */
export class DesktopCallError extends Error {
  readonly status: number | undefined;
  readonly issues: string[] | undefined;

  constructor(error: IpcError) {
    super(error.message);
    this.name = 'DesktopCallError';
    this.status = error.status;
    this.issues = error.issues;
  }
}

const TOKEN_KEY = 'desktop-archive.token';
/** How long answers to index.html's early calls wait to be taken (they serve the first screen). */
const EARLY_ANSWERS_MS = 5000;
const OPEN = 1;

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Frame = { id?: unknown; ok?: unknown; result?: unknown; error?: unknown; event?: unknown; payload?: unknown };

/** The address of the shell's socket for a token. */
export function bridgeUrl(host: string, token: string): string {
  return `ws://${host}/ipc?token=${encodeURIComponent(token)}`;
}

/** The token in the address the app printed (`?token=…`, or `#token=…` of earlier versions), or null. */
export function tokenInAddress(location: Pick<LocationLike, 'search' | 'hash'>): string | null {
  const { query, fromHash } = addressTokens(location);
  return query.get('token') ?? fromHash;
}

function addressTokens(location: Pick<LocationLike, 'search' | 'hash'>): {
  query: URLSearchParams;
  fromHash: string | null;
} {
  return {
    query: new URLSearchParams(location.search),
    fromHash: new URLSearchParams(location.hash.replace(/^#/, '')).get('token'),
  };
}

/**
 * The token from the address the app printed, `?token=…` (or `#token=…`, the form of earlier versions): kept in session
 * storage and removed from the address bar, the route in the hash left as it is. Without one, the token kept before.
 */
export function takeToken(
  location: LocationLike,
  storage: StorageLike | null,
  history: HistoryLike | null,
): string | null {
  const { query, fromHash } = addressTokens(location);
  const token = query.get('token') ?? fromHash;
  if (token) {
    storage?.setItem(TOKEN_KEY, token);
    query.delete('token');
    const search = query.size > 0 ? `?${query}` : '';
    history?.replaceState(null, '', `${location.pathname}${search}${fromHash ? '' : location.hash}`);
    return token;
  }
  return storage?.getItem(TOKEN_KEY) ?? null;
}

/** Runs `task` when the page is idle, or after a second at the latest. */
function whenIdle(task: () => void): void {
  const page = globalThis as { requestIdleCallback?: (task: () => void, options: { timeout: number }) => void };
  if (page.requestIdleCallback) page.requestIdleCallback(task, { timeout: 1_000 });
  else setTimeout(task, 0);
}

export function createWebDesktop(
  location: LocationLike,
  options: WebDesktopOptions = {},
): DesktopApi & { close(): void } {
  const browser = globalThis as unknown as {
    WebSocket?: new (url: string) => SocketLike;
    sessionStorage?: StorageLike;
    history?: HistoryLike;
    __desktopEarly?: EarlyBridge;
  };
  const connect =
    options.connect ??
    ((url: string) => {
      if (!browser.WebSocket) throw new Error('This browser has no WebSocket');
      return new browser.WebSocket(url);
    });
  const storage = options.storage === undefined ? (browser.sessionStorage ?? null) : options.storage;
  const history = options.history === undefined ? (browser.history ?? null) : options.history;
  const inAddress = tokenInAddress(location);
  if (inAddress) (options.later ?? whenIdle)(() => takeToken(location, storage, history));
  const token = inAddress ?? takeToken(location, storage, history);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const retry = options.retryMs ?? { first: 250, max: 10_000 };
  const url = bridgeUrl(location.host, token ?? '');
  const checkToken = options.checkToken ?? fetchTokenCheck;
  const sessionEnded = (): SessionEndedError => new SessionEndedError(options.sessionEndedMessage?.() ?? SESSION_ENDED);
  /** The shell refused the token: nothing is retried, every call fails with sessionEnded. */
  let refused = false;

  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let waiters: Array<{ ready: () => void; fail: (error: Error) => void }> = [];
  let nextId = 1;
  let socket: SocketLike | null = null;
  let attempts = 0;
  let everOpened = false;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let early = options.early === undefined ? (browser.__desktopEarly ?? null) : options.early;
  delete browser.__desktopEarly;
  // Its socket is this bridge's only for the same address (the token it read is the one taken here).
  if (early && early.url !== url) {
    early.socket.close(1000, 'not adopted');
    early = null;
  }
  /** Answers to the early calls, by call and input; each is taken by the first identical request. */
  const earlyAnswers = new Map<string, Promise<unknown>>();
  const callKey = (call: string, input: unknown): string => `${call} ${JSON.stringify(input ?? null)}`;

  const emit = (event: EventName, payload: unknown): void => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        (listener as (payload: unknown) => void)(payload);
      } catch (error) {
        console.error(`desktop: a listener of ${event} failed`, error);
      }
    }
  };

  const open = (): void => {
    if (closed || token === null) return;
    let current: SocketLike;
    const adopted = early;
    early = null;
    try {
      current = adopted?.socket ?? connect(url);
    } catch (error) {
      scheduleReconnect();
      console.error('desktop: cannot open the socket', error);
      return;
    }
    socket = current;
    let opened = false;
    current.onopen = () => {
      opened = true;
      const reconnected = everOpened;
      everOpened = true;
      attempts = 0;
      const ready = waiters;
      waiters = [];
      for (const waiter of ready) waiter.ready();
      // Events sent while we were away are lost: hand subscribers a fresh status so the UI catches up.
      if (reconnected && listeners.get('status.changed')?.size) {
        void request('status.get', undefined).then(
          (status) => emit('status.changed', status),
          () => undefined,
        );
      }
    };
    current.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let frame: Frame;
      try {
        frame = JSON.parse(event.data) as Frame;
      } catch {
        return;
      }
      if (typeof frame.event === 'string') {
        if ((EVENT_NAMES as readonly string[]).includes(frame.event)) emit(frame.event as EventName, frame.payload);
        return;
      }
      if (typeof frame.id !== 'number') return;
      const waiting = pending.get(frame.id);
      if (!waiting) return;
      pending.delete(frame.id);
      if (frame.ok === true) waiting.resolve(frame.result);
      else waiting.reject(new DesktopCallError(toIpcError(frame.error)));
    };
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      const lost = [...pending.values()];
      pending.clear();
      for (const call of lost)
        call.reject(new Error('The connection to the desktop app was lost; try again in a moment.'));
      if (opened) return scheduleReconnect();
      // Refused before it opened: a stale token, or the app is not running (then the retries go on).
      void checkToken(`http://${location.host}/session?token=${encodeURIComponent(token ?? '')}`).then((answer) => {
        if (answer !== 'refused') return scheduleReconnect();
        refused = true;
        const error = sessionEnded();
        for (const waiter of waiters.splice(0)) waiter.fail(error);
      });
    };
    current.onerror = () => {
      // A close event follows every error; that is where the bridge recovers.
    };
    if (adopted) replayEarly(adopted, current);
  };

  /**
   * Takes over the early script's socket: its calls wait for their answers like the bridge's own, and what the socket
   * did before now happens again through the bridge's handlers (opened, answers, a refusal or a drop), in order.
   */
  const replayEarly = (adopted: EarlyBridge, current: SocketLike): void => {
    // Not open yet, so nothing was sent (the early script sends on open, and that handler is the bridge's now): the
    // socket is kept, the calls are made by whoever needs them.
    const sent = adopted.opened ? adopted.calls : [];
    for (const call of sent) {
      const answer = new Promise<unknown>((resolve, reject) => pending.set(call.id, { resolve, reject }));
      // Taken by a request later, or never (another screen than the library): not an unhandled rejection meanwhile.
      answer.catch(() => undefined);
      earlyAnswers.set(callKey(call.call, call.input), answer);
    }
    // They are for the first screen: one opened later (the library after a document opened at start) asks afresh
    // rather than show the page's start.
    if (sent.length > 0) setTimeout(() => earlyAnswers.clear(), options.earlyAnswersMs ?? EARLY_ANSWERS_MS);
    if (adopted.opened) current.onopen?.(undefined as never);
    for (const message of adopted.messages) current.onmessage?.(message);
    if (adopted.closed) current.onclose?.(adopted.closed);
  };

  const scheduleReconnect = (): void => {
    if (closed || retryTimer !== undefined) return;
    const delay = Math.min(retry.max, retry.first * 2 ** attempts) * (0.75 + Math.random() * 0.5);
    attempts += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      open();
    }, delay);
  };

  const whenOpen = (): Promise<SocketLike> => {
    if (socket?.readyState === OPEN) return Promise.resolve(socket);
    if (closed) return Promise.reject(new Error('The desktop bridge is closed.'));
    if (refused) return Promise.reject(sessionEnded());
    if (token === null) {
      return Promise.reject(
        new Error('No access token: open the address printed by "npm start" (the one ending in #token=…).'),
      );
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters = waiters.filter((waiter) => waiter !== entry);
        reject(new Error('The desktop app is not reachable. Is it still running?'));
      }, connectTimeoutMs);
      const entry = {
        ready: () => {
          clearTimeout(timer);
          if (socket?.readyState === OPEN) resolve(socket);
          else reject(new Error('The connection to the desktop app was lost; try again in a moment.'));
        },
        fail: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      waiters.push(entry);
    });
  };

  async function request(call: CallName, input: unknown): Promise<unknown> {
    const key = callKey(call, input);
    const earlyAnswer = earlyAnswers.get(key);
    if (earlyAnswer) {
      earlyAnswers.delete(key);
      // Lost with the early socket: asked again as any call would be, on the socket that replaces it.
      return earlyAnswer.catch((error: unknown) => {
        if (error instanceof DesktopCallError) throw error;
        return request(call, input);
      });
    }
    const ready = await whenOpen();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      try {
        ready.send(JSON.stringify(input === undefined ? { id, call } : { id, call, input }));
      } catch (error) {
        pending.delete(id);
        reject(asError(error));
      }
    });
  }

  const api: Record<string, unknown> = {};
  for (const name of CALL_NAMES) api[name] = (input?: unknown) => request(name, input);
  api.on = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`Unknown event: ${String(event)}`);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  };
  // A web page is never told where a dropped file lives: chosen and dropped files travel by their bytes (addFiles).
  api.pathForFile = (): null => null;
  const post = options.fetch ?? ((target, init) => fetch(target, init));
  api.addFiles = async (files: readonly File[], fields: AddFilesOptions): Promise<UploadItemView[]> => {
    if (refused) throw sessionEnded();
    if (token === null)
      throw new Error('No access token: open the address printed by "npm start" (the one ending in #token=…).');
    const tooLarge = files.filter((file) => file.size > CHOSEN_FILE_MAX_BYTES).map((file) => file.name);
    if (tooLarge.length > 0)
      throw new DesktopCallError({ message: `${ErrorMessage.fileTooLarge}: ${tooLarge.join(', ')}`, status: 413 });
    const added: UploadItemView[] = [];
    for (let start = 0; start < files.length; start += CHOSEN_FILES_PER_REQUEST) {
      const form = new FormData();
      // The options first: the shell reads them before it stores any file.
      form.append('options', JSON.stringify(fields));
      for (const file of files.slice(start, start + CHOSEN_FILES_PER_REQUEST)) form.append('file', file, file.name);
      const response = await post(`http://${location.host}/files?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        body: form,
      });
      const answer = (await response.json().catch(() => null)) as {
        ok?: unknown;
        result?: unknown;
        error?: unknown;
      } | null;
      // Only a token the shell no longer knows is refused with 403 (a refused file is an answer with ok: false).
      if (response.status === 403) {
        refused = true;
        throw sessionEnded();
      }
      if (answer?.ok !== true) throw new DesktopCallError(toIpcError(answer?.error));
      added.push(...(answer.result as UploadItemView[]));
    }
    return added;
  };
  api.close = (): void => {
    closed = true;
    clearTimeout(retryTimer);
    for (const waiter of waiters) waiter.fail(new Error('The desktop bridge is closed.'));
    waiters = [];
    const current = socket;
    socket = null;
    for (const call of pending.values()) call.reject(new Error('The desktop bridge is closed.'));
    pending.clear();
    current?.close(1000, 'closed');
  };

  open();
  // Built by looping over the contract's call names, so the compiler cannot see it covers every call; the
  // web-shell tests call each one through this object.
  return api as DesktopApi & { close(): void };
}

function toIpcError(value: unknown): IpcError {
  if (value !== null && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
    return value as IpcError;
  }
  return { message: 'The desktop app reported an error without a message' };
}
