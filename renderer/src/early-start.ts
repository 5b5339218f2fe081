import { afterFirstContentfulPaint } from './lib/after-paint.ts';
import { defaultFilters, pageQuery } from './lib/library-query.ts';
import { parseRoute, type Route } from './lib/routes.ts';
import { firstPaint, pageStorage } from './lib/ui-prefs.ts';
import {
  bridgeUrl,
  takeToken,
  tokenInAddress,
  type CloseEventLike,
  type EarlyBridge,
  type MessageEventLike,
  type SocketLike,
} from './lib/web-desktop.ts';

/**
 * The start of the app that cannot wait for its scripts: vite.config.ts inlines this file, bundled, as the first script
 * of index.html, so it runs as soon as the page's head is parsed, while the app's scripts download.
 *
 * With the library's first paint in the page, it first lets that paint and does all of the rest after it (see the end
 * of this file). In the browser shell it opens the bridge's socket and sends the calls the first screen waits for (the
 * settings and, on the library, its first page: the very query main.ts asks for); createWebDesktop adopts the socket
 * and these answers (web-desktop.ts, EarlyBridge). Then, in both shells and off the parser's path, the first Intl
 * formatter loads the browser's locale data and the page's storage is opened: tens of milliseconds in a new renderer
 * process on a busy machine, which would otherwise fall in the middle of the first render. The shells allow this one
 * inline script by its hash (renderer-files.ts).
 */

declare global {
  interface Window {
    __desktopEarly?: EarlyBridge;
  }
}

/**
 * Opens the bridge's socket and sends the first screen's calls. With the library's first paint (`paintFirst`) a token
 * in the address is only read: the bridge keeps it in the session and clears the address bar once the page is idle
 * (web-desktop.ts), two synchronous round trips to the browser that the app's start need not wait for.
 */
function startBridge(route: Route, paintFirst: boolean): void {
  if (window.desktop || !window.WebSocket) return;
  const inAddress = paintFirst ? tokenInAddress(location) : null;
  // Otherwise taken here as the bridge would take it (kept in the session, dropped from the address bar), which also
  // opens the page's storage, a synchronous round trip to the browser that now falls outside the first render.
  const token = inAddress ?? takeToken(location, sessionStorageOrNull(), history);
  if (!token) return;
  const url = bridgeUrl(location.host, token);
  const calls: Array<EarlyBridge['calls'][number]> = [{ id: -1, call: 'settings.get' }];
  if (route.name === 'library' && !route.deleted)
    calls.push({ id: -2, call: 'library.list', input: pageQuery(defaultFilters(), 0) });
  // Seen as the bridge sees it: the structural socket of web-desktop.ts (the DOM's handlers take richer events).
  const socket = new WebSocket(url) as unknown as SocketLike;
  const early = {
    url,
    socket,
    calls,
    opened: false,
    messages: [] as MessageEventLike[],
    closed: null as CloseEventLike | null,
  };
  socket.onopen = () => {
    early.opened = true;
    for (const call of calls) socket.send(JSON.stringify(call));
  };
  socket.onmessage = (event) => early.messages.push(event);
  socket.onclose = (event) => (early.closed = event);
  window.__desktopEarly = early;
}

function sessionStorageOrNull(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    // Storage refused (a sandboxed page): the address is the only place left for the token.
    return null;
  }
}

/** The first Intl formatter loads the browser's locale data, and the first-paint cache's storage is opened. */
function warmUp(): void {
  new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }).format(0);
  firstPaint(pageStorage());
}

/** The app's entry, with the modules it imports asked for alongside it rather than once it has been parsed. */
function loadEntry(src: string, preloads: readonly string[]): void {
  for (const href of preloads) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = src;
  document.head.append(script);
}

// The shell's page carries the library's first paint (main/core/shell/first-paint.ts) and names the entry script it
// took out. On the library, the snapshot is painted before anything else runs, the socket included: on two cores the
// shell answering the first page's 200 rows took CPU from the snapshot's layout (the first frame came ~25 % later, and
// the app was not ready any sooner). On another route the snapshot is hidden at once (app.css) and the app starts as it
// would without one.
const entry = document.documentElement.dataset.entry;
const route = parseRoute(location.hash);
const paintFirst = entry !== undefined && route.name === 'library' && !route.deleted;
if (entry !== undefined && !paintFirst) document.documentElement.dataset.firstPaint = 'hidden';
const start = (): void => {
  startBridge(route, paintFirst);
  if (entry !== undefined)
    loadEntry(entry, (document.documentElement.dataset.preload ?? '').split(' ').filter(Boolean));
  setTimeout(warmUp);
};
if (paintFirst) afterFirstContentfulPaint(start);
else start();
