/**
 * What the end-to-end tests share: the built renderer, a DesktopApp on a fresh data directory behind the browser
 * shell, Chromium (test/helpers/find-browser.ts) driven by playwright-core, screenshots in both colour schemes and an axe-core check.
 * Nothing here is a fake: the embedded Archive Service, the watcher, the journal and the renderer are the real ones.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { errorMessage } from '../../common/errors.ts';
import type { DesktopNotification, EventView } from '../../common/ipc.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import type { ProbedKeyStore } from '../../main/core/keychain/open-key-store.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore, type SettingsPatch } from '../../main/core/settings/settings-store.ts';
import { newWebShellToken, startWebShell, webPreviewUrl, type WebShell } from '../../main/web/web-shell.ts';
import { buildRenderer, rendererIsStale } from '../../scripts/build-shells.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { withDirectoryLock } from '../helpers/directory-lock.ts';
import { browserCandidates, findBrowser, NPM_CHROMIUM_SOURCE, type FoundBrowser } from '../helpers/find-browser.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = join(ROOT, 'dist', 'renderer');
export const ARTIFACTS = join(ROOT, 'test-results', 'e2e');
// The npm package's own flags are not added: they turn off web security and site isolation, which the tests check.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Builds dist/renderer when it is missing or older than its sources, the way `npm start` does. Test files run in
 * parallel forks, so a lock keeps two of them from building into the same place at once.
 */
export async function ensureRenderer(): Promise<string> {
  if (!rendererIsStale(ROOT)) return RENDERER_DIR;
  const lock = join(ROOT, 'node_modules', '.cache', 'e2e-renderer-build.lock');
  // A lock left by a killed run is stale after three minutes (a build takes well under one).
  await withDirectoryLock(lock, { staleMs: 180_000, waitMs: 150_000, what: 'building the renderer' }, async () => {
    if (rendererIsStale(ROOT)) await buildRenderer({ logLevel: 'error' });
  });
  return RENDERER_DIR;
}

export interface DesktopUnderTest {
  app: DesktopApp;
  shell: WebShell;
  settings: SettingsStore;
  /** Every notification the app emitted (the same objects the shell forwards to the page). */
  notifications: DesktopNotification[];
  logs: string[];
  close(): Promise<void>;
}

/**
 * A DesktopApp on `<dir>/data` with its settings in `<dir>/config`, started, behind a browser shell (on `port` when
 * given: a restart keeps the origin, and so the page's localStorage). `settings` is applied before the app opens.
 */
export async function startDesktop(options: {
  dir: string;
  port?: number;
  settings?: SettingsPatch;
  apiKeyOverride?: string;
  start?: boolean;
  /** Key storage as the app opens it, with this keychain (a fault-injecting one: the OS keychain cannot run here). */
  keychain?: () => ProbedKeyStore;
  /** The home folder the browser shell's folder picker lists (default: the user's). */
  homeDir?: string;
}): Promise<DesktopUnderTest> {
  const logs: string[] = [];
  const log = (line: string): void => {
    logs.push(line);
    if (process.env.DEBUG_E2E) console.log(`[app] ${line}`);
  };
  const settings = new SettingsStore(openConfBackend({ cwd: join(options.dir, 'config') }));
  if (options.settings) await settings.update(options.settings);
  const token = newWebShellToken();
  const app = await DesktopApp.open({
    appDataDir: join(options.dir, 'data'),
    settings,
    ...(options.keychain ? { keychain: options.keychain } : { keys: new SessionKeyStore() }),
    localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
    previewUrl: (id) => webPreviewUrl(id, token),
    log,
    ...(options.apiKeyOverride ? { apiKeyOverride: options.apiKeyOverride } : {}),
    ...(options.homeDir ? { homeDir: options.homeDir } : {}),
  });
  const notifications: DesktopNotification[] = [];
  app.on('notification', (n) => notifications.push(n));
  if (options.start !== false) await app.start();
  let shell: WebShell;
  try {
    shell = await startWebShell({
      app,
      rendererDir: RENDERER_DIR,
      token,
      log,
      ...(options.port ? { port: options.port } : {}),
    });
  } catch (error) {
    await app.stop();
    throw error;
  }
  return {
    app,
    shell,
    settings,
    notifications,
    logs,
    async close() {
      await shell.close();
      await app.stop();
    },
  };
}

let browser: Promise<FoundBrowser> | undefined;

/** Chromium (`given`, else the one test/helpers/find-browser.ts finds), headless, with the flags above. */
export async function launchChromium(given?: FoundBrowser): Promise<Browser> {
  const found = given ?? (await (browser ??= findBrowser(browserCandidates())));
  try {
    return await chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (error) {
    // The npm package's binary links the system's NSS and expat; it ships them only for Amazon Linux.
    const hint =
      found.source === NPM_CHROMIUM_SOURCE
        ? ' (it needs libnss3, libnspr4 and libexpat1: apt-get install libnss3)'
        : '';
    throw new Error(
      `Chromium from ${found.source} (${found.executablePath}) did not start${hint}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

/** Records every toast the page shows (they vanish after a few seconds), so a test can assert one appeared. */
const TOAST_RECORDER = `
  window.__toasts = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll('[data-testid=toast]')) {
      if (el.dataset.recorded) continue;
      el.dataset.recorded = '1';
      window.__toasts.push(el.textContent.trim());
    }
  }).observe(document, { subtree: true, childList: true });
`;

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page: a test fails on any. */
  pageErrors: string[];
  /** console.error/warning lines, reported (a socket dropped during a restart logs one on purpose). */
  consoleProblems: string[];
}

export async function openPage(browser: Browser, options: { onboarded?: boolean } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: 1360, height: 860 },
    locale: 'en-US',
    colorScheme: 'light',
  });
  context.setDefaultTimeout(15_000);
  await context.addInitScript(TOAST_RECORDER);
  if (options.onboarded) await context.addInitScript("localStorage.setItem('archive.onboarded', '1')");
  return newPage(context);
}

/** Another page in the same context (same localStorage per origin): what a window shows after the app restarted. */
export async function newPage(context: BrowserContext): Promise<OpenedPage> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const consoleProblems: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      consoleProblems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      consoleProblems.push(`HTTP ${response.status()}: ${new URL(response.url()).pathname}`);
  });
  return { context, page, pageErrors, consoleProblems };
}

export async function recordedToasts(page: Page): Promise<string[]> {
  return page.evaluate('window.__toasts ?? []') as Promise<string[]>;
}

/** `<name>-light.png` and `<name>-dark.png` under test-results/e2e (the renderer's theme is "system"). */
export async function shoot(page: Page, name: string): Promise<string[]> {
  await mkdir(ARTIFACTS, { recursive: true });
  const paths: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const path = join(ARTIFACTS, `${name}-${colorScheme}.png`);
    await page.screenshot({ path });
    paths.push(path);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return paths;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
  scheme: 'light' | 'dark';
}

/**
 * axe-core's serious and critical violations of the page as it is now, in the light and the dark colour scheme
 * (contrast differs). The script is evaluated through the DevTools protocol, which the page's CSP does not govern,
 * so the test runs against the same strict CSP the user gets.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(AXE_SOURCE);
  const found: AxeViolation[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 8).map((n) => n.target.join(' ') + (n.any[0] && n.any[0].data && n.any[0].data.contrastRatio
        ? ' (' + n.any[0].data.fgColor + ' on ' + n.any[0].data.bgColor + ': ' + n.any[0].data.contrastRatio + ':1)' : '')) })))`)) as Array<
      Omit<AxeViolation, 'scheme'>
    >;
    found.push(...violations.map((v) => ({ ...v, scheme })));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** Polls `probe` until it returns something truthy; bounded, with the last value in the error. */
export async function until<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(200);
  }
}

/** Runs `run` with the app's UI in German, and puts it back in English afterwards, whether `run` passed or not. */
export async function inGerman(app: DesktopApp, run: () => Promise<void>): Promise<void> {
  await app.handlers['settings.update']({ ui: { language: 'de' } });
  try {
    await run();
  } finally {
    await app.handlers['settings.update']({ ui: { language: 'en' } });
  }
}

/** The library's newest documents after a sync with the service: what the app shows once it has caught up. */
export async function syncedDocuments(
  app: DesktopApp,
  limit = 100,
): Promise<Awaited<ReturnType<DesktopApp['handlers']['library.list']>>['items']> {
  await app.handlers['library.sync'](undefined);
  const list = await app.handlers['library.list']({
    sort_by: 'created_at',
    sort_order: 'desc',
    deleted: false,
    limit,
    offset: 0,
  });
  return list.items;
}

/**
 * Uploads a PDF of these lines with upload metadata (as the Uploads form does) and waits until the document is
 * processed and its first event synced; returns that event.
 */
export async function addBill(
  session: E2eSession,
  name: string,
  lines: string[],
  metadata: Record<string, unknown>,
  timeoutMs = 60_000,
): Promise<EventView> {
  const { app } = session.desktop;
  const file = join(session.dir, name);
  await writeFile(file, await makePdf(lines));
  await app.handlers['uploads.add']({ paths: [file], metadata });
  return until(
    async () => {
      const doc = (await syncedDocuments(app, 50)).find(
        (d) => d.original_filename === name && d.status === 'completed',
      );
      if (!doc) return undefined;
      return (await app.handlers['events.list']({ document_id: doc.id, limit: 10, offset: 0 })).items[0];
    },
    `${name} processed and synced`,
    timeoutMs,
  );
}

/** Today plus `days` as YYYY-MM-DD and as DD.MM.YYYY (what a German invoice prints), in local time. */
export function localDay(days: number): { iso: string; german: string } {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return { iso: `${d.getFullYear()}-${mm}-${dd}`, german: `${dd}.${mm}.${d.getFullYear()}` };
}

/** What a test file works with: its directory, the app with its browser shell, Chromium and one open page. */
export interface E2eSession {
  dir: string;
  desktop: DesktopUnderTest;
  browser: Browser;
  opened: OpenedPage;
}

/**
 * The usual fixture of an e2e file, registered as its beforeAll/afterAll: a fresh directory, the app past onboarding
 * (unless the settings say otherwise), Chromium and a page. The fields are set once beforeAll has run.
 */
export function e2eSession(
  name: string,
  settings: SettingsPatch = { ui: { onboarded: true } },
  options: {
    /** The app's home folder is `<dir>/home` (the browser shell's folder picker lists it), with these folders in it. */
    homeFolders?: string[];
  } = {},
): E2eSession {
  const session = {} as E2eSession;
  beforeAll(async () => {
    await ensureRenderer();
    session.dir = await mkdtemp(join(tmpdir(), `e2e-${name}-`));
    const home = options.homeFolders ? join(session.dir, 'home') : undefined;
    for (const folder of options.homeFolders ?? []) await mkdir(join(session.dir, 'home', folder), { recursive: true });
    session.desktop = await startDesktop({ dir: session.dir, settings, ...(home ? { homeDir: home } : {}) });
    session.browser = await launchChromium();
    session.opened = await openPage(session.browser);
  }, 180_000);
  afterAll(async () => {
    await session.browser?.close();
    await session.desktop?.close();
    if (session.dir) await rm(session.dir, { recursive: true, force: true });
  });
  return session;
}

/**
 * Opens the library and syncs until the first document shows (the app syncs every minute by itself; a test does not
 * wait that long), then opens that document.
 */
export async function openFirstDocument(page: Page, url: string): Promise<void> {
  await page.goto(url);
  const row = page.locator('[data-testid=library-row][data-id]');
  await expect
    .poll(
      async () => {
        await page.getByTestId('library-sync').click();
        return row.count();
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .toBeGreaterThan(0);
  await row.first().locator('a.title').click();
}

/**
 * The shell's page address without its token, for a route change in a page that took the token already (the
 * printed address carries it in the query, and a different query would load the page anew).
 */
export function shellBase(shell: { url: string }): string {
  return `${new URL(shell.url).origin}/`;
}
