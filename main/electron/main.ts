/**
 * The Electron shell's entry (bundled to dist/electron/main.js by scripts/build-shells.ts). It only wires: the
 * DesktopApp of main/core behind the IPC contract, one secure window serving the renderer from app://, document
 * previews from app-preview://, the tray, notifications, login start, and the power monitor.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import {
  BrowserWindow,
  app,
  dialog,
  ipcMain,
  nativeTheme,
  powerMonitor,
  protocol,
  session,
  shell,
  type IpcMainInvokeEvent,
  type OpenDialogOptions,
  type WebContents,
} from 'electron';
import ElectronStore from 'electron-store';
import { errorMessage, errorStack } from '../../common/errors.ts';
import { DesktopApp } from '../core/desktop-app.ts';
import { windowBackground } from '../core/shell/window-background.ts';
import { defaultAppDataDir } from '../core/desktop-core.ts';
import { redactSecrets } from '../core/keychain/redact.ts';
import { installProcessGuard } from '../../shared/process-guard.ts';
import { CONF_STORE_OPTIONS, confStoreBackend, openConfBackend } from '../core/settings/conf-backend.ts';
import { SettingsStore } from '../core/settings/settings-store.ts';
import { parseByteRange } from '../core/shell/byte-range.ts';
import { toIpcError } from '../core/shell/ipc-dispatch.ts';
import {
  inlineScriptHashes,
  previewHeaders,
  rendererCsp,
  rendererHeaders,
  resolveRendererFile,
  servedIndex,
} from '../core/shell/renderer-files.ts';
import { isSafeExternalUrl } from './external-links.ts';
import { forwardDesktopEvents, registerDesktopIpc, type SenderInfo } from './ipc.ts';
import { HIDDEN_FLAG, applyStartAtLogin } from './login-item.ts';
import { Notifier } from './notifications.ts';
import { APP_ORIGIN, APP_URL, notificationRoute, type AppRoute } from './routes.ts';
import { AppTray } from './tray.ts';

const here = import.meta.dirname;
const RENDERER_DIR = join(here, '..', 'renderer');
const PRELOAD = join(here, 'preload.cjs');
/** Icons ship as extraResources in a package (electron-builder.yml); in a checkout they sit in resources/. */
const RESOURCES = app.isPackaged ? process.resourcesPath : join(here, '..', '..', 'resources');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const log = (line: string): void => console.log(`${new Date().toISOString()} ${redactSecrets(line)}`);

// Both schemes must be known before the app is ready. `standard` gives them real origins (app://app), `secure` makes
// them a secure context like https, fetch may read them (pdf.js loads previews with range requests), and previews
// stream and answer the app's cross-origin fetches.
protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  {
    scheme: 'app-preview',
    privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, corsEnabled: true },
  },
]);

// A development run starts Electron on dist/electron/main.js without a package.json "main", so Electron would call
// itself "Electron" and keep its profile (and the single-instance lock) under that name; a package has productName.
app.setName('Desktop Archive');

let window: BrowserWindow | null = null;
let desktopApp: DesktopApp | null = null;
let tray: AppTray | null = null;
let notifier: Notifier | null = null;
let settings: SettingsStore | null = null;
let quitting = false;
let stopped = false;

// An unhandled rejection or exception stops the app as quitting does (journal and caches closed), then exits 1.
const guard = installProcessGuard({ name: 'Desktop Archive', log, exit: (code) => app.exit(code) });
guard.onShutdown(() => shutdown());

if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it got our 'second-instance' and shows its window.
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
  app.on('web-contents-created', (_event, contents) => guardContents(contents));
  app.on('activate', () => showWindow());
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped) return;
    event.preventDefault();
    void shutdown().finally(() => {
      stopped = true;
      app.quit();
    });
  });
  app.on('window-all-closed', () => {
    if (!settings?.get().ui.close_to_tray) app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log(`failed to start: ${errorStack(error)}`);
      app.exit(1);
    });
}

async function start(): Promise<void> {
  if (process.platform === 'win32') app.setAppUserModelId('app.desktop-archive');
  // One settings file for the Electron shell, the browser shell and the agent: electron-store on conf's location.
  const settingsDir = dirname(openConfBackend({}).path);
  settings = new SettingsStore(
    confStoreBackend(new ElectronStore({ ...CONF_STORE_OPTIONS, cwd: settingsDir, name: 'settings' })),
    { log },
  );
  for (const problem of settings.problems) log(`settings: ${problem.message}`);

  desktopApp = await DesktopApp.open({
    appDataDir: defaultAppDataDir(),
    settings,
    log,
    previewUrl: (id) => `app-preview://document/${id}`,
    // The OS's language list (the user's preference order), for ui.language null.
    systemLanguages: () => app.getPreferredSystemLanguages(),
    openPath: async (path) => {
      // shell.openPath resolves with an error message ('' on success) instead of rejecting.
      const error = await shell.openPath(path);
      if (error) throw new Error(error);
    },
    pickFolder: async (title) => {
      const options: OpenDialogOptions = {
        properties: ['openDirectory', 'createDirectory'],
        ...(title ? { title } : {}),
      };
      const parent = window && !window.isDestroyed() ? window : null;
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  });
  const desktop = desktopApp;

  lockDownSession();
  protocol.handle('app', serveRenderer);
  protocol.handle('app-preview', (request) => servePreview(desktop, request));

  registerDesktopIpc<IpcMainInvokeEvent>(ipcMain, desktop.handlers, senderOf);
  forwardDesktopEvents(desktop, (channel, event, payload) => {
    if (window && !window.isDestroyed()) window.webContents.send(channel, event, payload);
  });

  const documentOf = async (eventId: string): Promise<string> =>
    (await desktop.handlers['events.get']({ id: eventId })).document.id;
  notifier = new Notifier({
    icon: join(RESOURCES, 'icon.png'),
    log,
    onClick: (notification) => {
      showWindow();
      void notificationRoute(notification, documentOf).then(openRoute);
    },
  });
  desktop.on('notification', (notification) => notifier?.show(notification));
  tray = new AppTray({
    app: desktop,
    iconDir: join(RESOURCES, 'tray'),
    log,
    showWindow,
    openDue: () => openRoute('#/due'),
    quit: () => app.quit(),
    locale: () => desktop.locale(),
  });

  powerMonitor.on('resume', () => desktop.wake());
  void applyStartAtLogin(settings.get().ui.start_at_login, log).catch((error: unknown) =>
    log(`start at login: ${errorMessage(error)}`),
  );
  const followTheme = (): void => window?.setBackgroundColor(currentBackground());
  nativeTheme.on('updated', followTheme);
  settings.onChange((next, previous) => {
    if (next.ui.language !== previous.ui.language) tray?.relabel();
    if (next.ui.appearance !== previous.ui.appearance) followTheme();
    if (next.ui.start_at_login !== previous.ui.start_at_login) {
      void applyStartAtLogin(next.ui.start_at_login, log).catch((error: unknown) =>
        log(`start at login: ${errorMessage(error)}`),
      );
    }
  });

  await desktop.start();
  const startedAtLogin =
    process.argv.includes(HIDDEN_FLAG) ||
    (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  createWindow(!startedAtLogin);
}

/** The window's background now: the page's own in the settings' theme (window-background.ts). */
function currentBackground(): string {
  return windowBackground(settings?.get().ui.appearance ?? 'system', nativeTheme.shouldUseDarkColors);
}

function createWindow(show: boolean): BrowserWindow {
  const created = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Desktop Archive',
    icon: join(RESOURCES, 'icon.png'),
    backgroundColor: currentBackground(),
    autoHideMenuBar: true,
    webPreferences: {
      preload: PRELOAD,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  });
  window = created;
  created.once('ready-to-show', () => {
    if (show) created.show();
  });
  created.on('close', (event) => {
    // Closing hides the window into the tray unless the user turned that off (or is quitting).
    if (!quitting && tray && settings?.get().ui.close_to_tray) {
      event.preventDefault();
      created.hide();
    }
  });
  created.on('closed', () => {
    if (window === created) window = null;
  });
  void created.loadURL(APP_URL);
  return created;
}

function showWindow(): void {
  if (!desktopApp) return;
  const target = window && !window.isDestroyed() ? window : createWindow(true);
  if (target.isMinimized()) target.restore();
  target.show();
  target.focus();
}

/** Opens a screen of the renderer: a fragment of the app's own URL (see routes.ts), so the page is not reloaded. */
function openRoute(route: AppRoute): void {
  showWindow();
  void window?.loadURL(`${APP_URL}${route}`);
}

/** The frame a call came from, when it is our window's; null for anything else. */
function senderOf(event: IpcMainInvokeEvent): SenderInfo | null {
  const frame = event.senderFrame;
  if (!frame || !window || window.isDestroyed() || event.sender !== window.webContents) return null;
  return { url: frame.url, isTopFrame: frame.parent === null };
}

/** Every web contents (the window, anything it might spawn): no navigation away, no new windows, no webviews. */
function guardContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (url.startsWith(`${APP_ORIGIN}/`) && new URL(url).pathname === '/index.html') return;
    event.preventDefault();
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** No permission prompts: the renderer needs none, except writing plain text to the clipboard. */
function lockDownSession(): void {
  const allowed = new Set(['clipboard-sanitized-write']);
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(allowed.has(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => allowed.has(permission));
}

async function serveRenderer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.host !== 'app') return text(404, 'Not found');
  const file = await resolveRendererFile(RENDERER_DIR, url.pathname);
  if ('error' in file) return text(file.error, file.error === 403 ? 'Forbidden' : 'Not found');
  const body = await readFile(file.path).catch(() => null);
  if (!body)
    return text(
      file.isIndex ? 503 : 404,
      file.isIndex ? 'The renderer is not built (npm start builds it)' : 'Not found',
    );
  if (!file.isIndex) return new Response(body, { headers: rendererHeaders(file.path, null) });
  const index = body.toString('utf8');
  // Hashes of the built page's own inline scripts, taken before the library's first paint goes in (first-paint.ts);
  // app:// is the app's own window, so the page always gets it.
  const csp = rendererCsp({ preview: ['app-preview:'], scripts: inlineScriptHashes(index) });
  const paint = desktopApp?.firstPaint();
  const page = await servedIndex(RENDERER_DIR, index, paint);
  return new Response(page, {
    // The page carries the user's settings and documents (as the browser shell's page opened with the token).
    headers: { ...rendererHeaders(file.path, csp), ...(paint ? { 'Cache-Control': 'no-store' } : {}) },
  });
}

async function servePreview(desktop: DesktopApp, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const id = url.pathname.replace(/^\//, '');
  if (url.host !== 'document' || !UUID.test(id)) return text(404, 'Not found');
  let file: Awaited<ReturnType<DesktopApp['previewFile']>>;
  try {
    file = await desktop.previewFile(id.toLowerCase());
  } catch (error) {
    const { message, status } = toIpcError(error);
    return text(status === 404 ? 404 : 502, message);
  }
  // The page (app://app) reads previews with fetch: a cross-origin read this answer allows, for the app only.
  const headers: Record<string, string> = {
    ...previewHeaders(file),
    'Access-Control-Allow-Origin': APP_ORIGIN,
    Vary: 'Origin',
  };
  const range = parseByteRange(request.headers.get('Range'), file.size);
  if (range === 'unsatisfiable')
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.size}` } });
  const start = range?.start ?? 0;
  const end = range?.end ?? file.size - 1;
  const length = Math.max(0, end - start + 1);
  const body =
    length === 0 ? null : (Readable.toWeb(createReadStream(file.path, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, {
    status: range ? 206 : 200,
    headers: {
      ...headers,
      'Content-Length': String(length),
      ...(range ? { 'Content-Range': `bytes ${start}-${end}/${file.size}` } : {}),
    },
  });
}

function text(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

let stopping: Promise<void> | undefined;

/** Once: quitting and a fatal error (the process guard) may both ask for it. */
function shutdown(): Promise<void> {
  stopping ??= (async () => {
    notifier?.closeAll();
    tray?.destroy();
    tray = null;
    try {
      await desktopApp?.stop();
    } catch (error) {
      log(`stopping: ${errorMessage(error)}`);
    }
  })();
  return stopping;
}
