/**
 * The first paint of the library (issue 14, item 4): the window opens on a library cache of many documents and its
 * first frame that shows the Library already shows its rows. A Library painted before its first page arrived would be
 * laid out and painted twice (empty, then with rows), which is most of the time to the first row on a slow machine.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { syntheticDocuments } from '../helpers/synthetic-documents.ts';
import { buildOf } from '../../main/core/shell/first-paint.ts';
import { dispatchCall } from '../../main/core/shell/ipc-dispatch.ts';
import { ensureRenderer, launchChromium, startDesktop, until, type DesktopUnderTest } from './e2e-harness.ts';

/**
 * Runs in the page before its scripts: on every animation frame (a rAF callback runs just before its frame is
 * painted) until the Library is in the DOM, then notes whether that frame has a library row with a document.
 */
const FIRST_FRAME_PROBE = `
  window.__firstLibraryFrame = null;
  const frame = () => {
    if (!document.querySelector('[data-testid=library]')) return requestAnimationFrame(frame);
    window.__firstLibraryFrame = { rows: document.querySelectorAll('[data-testid=library-row][data-id]').length };
  };
  requestAnimationFrame(frame);
`;

/**
 * Runs in the page before its scripts: notes how many rows the Library has when its element first appears in the
 * DOM (a MutationObserver's first look at it, a microtask after the task that inserted it). A Library that fetches
 * its rows after it is inserted shows none there: the window is laid out twice before its first paint.
 */
const LIBRARY_ENTRY_PROBE = `
  window.__libraryEntered = null;
  const entry = new MutationObserver(() => {
    if (!document.querySelector('[data-testid=library]')) return;
    entry.disconnect();
    window.__libraryEntered = { rows: document.querySelectorAll('[data-testid=library-row][data-id]').length };
  });
  entry.observe(document, { subtree: true, childList: true });
`;

/**
 * Runs in the page before its scripts: when the first animation frame with library rows began (its rAF callback, run
 * just before it is painted) and when the page first asked for the status (the bridge's socket frames).
 */
const STATUS_ORDER_PROBE = `
  window.__order = { rowsFrame: null, statusSent: null };
  const order = window.__order;
  window.WebSocket = class extends window.WebSocket {
    send(data) {
      try {
        if (order.statusSent === null && JSON.parse(data).call === 'status.get') order.statusSent = performance.now();
      } catch {}
      return super.send(data);
    }
  };
  const frame = () => {
    if (document.querySelector('[data-testid=library-row][data-id]')) order.rowsFrame = performance.now();
    else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
`;

/**
 * Runs in the page before its scripts: every socket the page opens, and every frame sent on it, with the time it went
 * out (ms from navigation start), so a test can tell what left before the app's entry script ran (its mark app:entry).
 */
const SOCKET_PROBE = `
  window.__sockets = [];
  window.WebSocket = class extends window.WebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      const socket = { created: performance.now(), sent: [] };
      window.__sockets.push(socket);
      const send = this.send.bind(this);
      this.send = (data) => {
        socket.sent.push({ at: performance.now(), frame: JSON.parse(data) });
        return send(data);
      };
    }
  };
`;

/**
 * Runs in the page before its scripts: the call stacks of the first Intl.DateTimeFormat made and of the token's
 * storing in the session, which tell whether the page's own early script did them or the app's scripts (/assets/).
 */
const EARLY_WORK_PROBE = `
  const NativeDateTimeFormat = Intl.DateTimeFormat;
  window.__firstFormatterStack = null;
  Intl.DateTimeFormat = function (...args) {
    window.__firstFormatterStack ??= new Error().stack;
    return new NativeDateTimeFormat(...args);
  };
  const setItem = Storage.prototype.setItem;
  window.__tokenStoredStack = null;
  Storage.prototype.setItem = function (key, value) {
    if (key === 'desktop-archive.token') window.__tokenStoredStack ??= new Error().stack;
    return setItem.call(this, key, value);
  };
`;

/** The lazily loaded screens' chunks (vite names a chunk after its module): none is needed for the first paint. */
const LAZY_SCREEN_CHUNK = /\/assets\/(Document|Uploads|Due|Settings|Welcome|PdfViewer)-[\w-]+\.js$/;

let dir: string;
let desktop: DesktopUnderTest;
let browser: Browser;
/** A new browser context (no cache of any kind), at the size and locale every test here measures. */
const freshContext = (): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
/**
 * The page without the library's first paint (the token in the hash, as earlier versions printed it; the shell serves
 * the first paint only to a request that carries the token): the path of a first start, which the first describe
 * block follows.
 */
const plainUrl = (): string => `${new URL(desktop.shell.url).origin}/#token=${desktop.shell.token}`;

beforeAll(async () => {
  await ensureRenderer();
  dir = await mkdtemp(join(tmpdir(), 'e2e-first-paint-'));
  await mkdir(join(dir, 'data'), { recursive: true });
  const cache = new LibraryCache(join(dir, 'data', 'library.sqlite'));
  cache.upsertDocuments(syntheticDocuments(2_000), Date.now());
  cache.close();
  // Not started: a sync against the empty embedded archive would empty the seeded cache.
  desktop = await startDesktop({ dir, start: false, settings: { ui: { onboarded: true } } });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('first paint of the library', () => {
  it('paints the rows in the first frame that shows the Library, in a new browser context and on a reload', async () => {
    const context = await freshContext();
    try {
      await context.addInitScript(FIRST_FRAME_PROBE);
      const page = await context.newPage();
      const firstFrame = async (): Promise<{ rows: number }> => {
        await page.waitForFunction(
          () => (globalThis as unknown as { __firstLibraryFrame: unknown }).__firstLibraryFrame !== null,
          undefined,
          { timeout: 20_000 },
        );
        return page.evaluate('window.__firstLibraryFrame') as Promise<{ rows: number }>;
      };
      // A new context: no cached preferences, so the settings are awaited as well as the first page.
      await page.goto(plainUrl());
      expect((await firstFrame()).rows).toBeGreaterThan(10);
      await expect(page.getByTestId('library-total').textContent()).resolves.toContain('2,000');
      // A reload: the preferences come from the page's cache and only the first page is awaited.
      await page.reload();
      expect((await firstFrame()).rows).toBeGreaterThan(10);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('inserts the Library with its rows: the first page is rendered in the same pass as the screen', async () => {
    const context = await freshContext();
    try {
      await context.addInitScript(LIBRARY_ENTRY_PROBE);
      const page = await context.newPage();
      const entered = async (): Promise<{ rows: number }> => {
        await page.waitForFunction(
          () => (globalThis as unknown as { __libraryEntered: unknown }).__libraryEntered !== null,
          undefined,
          { timeout: 20_000 },
        );
        return page.evaluate('window.__libraryEntered') as Promise<{ rows: number }>;
      };
      await page.goto(plainUrl());
      expect((await entered()).rows).toBeGreaterThan(10);
      await page.reload();
      expect((await entered()).rows).toBeGreaterThan(10);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('asks for the status only after the first frame with rows, and then shows it', async () => {
    const context = await freshContext();
    try {
      await context.addInitScript(STATUS_ORDER_PROBE);
      const page = await context.newPage();
      await page.goto(plainUrl());
      await page.waitForFunction(
        () => {
          const order = (globalThis as unknown as { __order: { rowsFrame: number | null; statusSent: number | null } })
            .__order;
          return order.rowsFrame !== null && order.statusSent !== null;
        },
        undefined,
        { timeout: 20_000 },
      );
      const order = (await page.evaluate('window.__order')) as { rowsFrame: number; statusSent: number };
      expect(order.statusSent).toBeGreaterThan(order.rowsFrame);
      await page
        .getByTestId('connection-state')
        .filter({ hasText: /Online|Offline/ })
        .waitFor({ timeout: 10_000 });
    } finally {
      await context.close();
    }
  }, 60_000);

  it("opens the bridge's socket before the app's scripts run, takes the answers asked on it, warms Intl", async () => {
    const context = await freshContext();
    try {
      await context.addInitScript(SOCKET_PROBE);
      await context.addInitScript(EARLY_WORK_PROBE);
      const page = await context.newPage();
      await page.goto(plainUrl());
      await page.locator('[data-testid=library-row][data-id]').first().waitFor();
      // The locale data's first load and the session storage's opening are the early script's, not the first render's.
      for (const probe of ['__firstFormatterStack', '__tokenStoredStack']) {
        const stack = (await page.evaluate(`window.${probe}`)) as string;
        expect(stack, probe).toContain(`${new URL(desktop.shell.url).origin}/`);
        expect(stack, probe).not.toContain('/assets/');
      }
      await page
        .getByTestId('connection-state')
        .filter({ hasText: /Online|Offline/ })
        .waitFor({ timeout: 10_000 });
      const sockets = (await page.evaluate('window.__sockets')) as Array<{
        created: number;
        sent: Array<{ at: number; frame: { id: number; call: string; input?: unknown } }>;
      }>;
      const entry = (await page.evaluate("performance.getEntriesByName('app:entry')[0].startTime")) as number;
      // One socket, made by index.html's early start before the entry script was evaluated.
      expect(sockets).toHaveLength(1);
      expect(sockets[0]!.created).toBeLessThan(entry);
      const calls = sockets[0]!.sent.map(({ frame }) => frame.call);
      // The early calls first; the app asked for neither again, and its own calls follow on the same socket.
      expect(calls.slice(0, 2)).toEqual(['settings.get', 'library.list']);
      expect(calls.filter((call) => call === 'settings.get' || call === 'library.list')).toHaveLength(2);
      expect(calls).toContain('status.get');
      expect(sockets[0]!.sent[1]!.frame).toEqual({
        id: -2,
        call: 'library.list',
        input: { sort_by: 'created_at', sort_order: 'desc', deleted: false, limit: 200, offset: 0 },
      });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a tab with a token of an earlier start still says the app was restarted, and sends nothing', async () => {
    const context = await freshContext();
    try {
      await context.addInitScript(SOCKET_PROBE);
      const page = await context.newPage();
      await page.goto(`${new URL(desktop.shell.url).origin}/#token=${'0'.repeat(43)}`);
      await page.getByText('The app was restarted', { exact: false }).first().waitFor({ timeout: 20_000 });
      const sockets = (await page.evaluate('window.__sockets')) as Array<{ sent: unknown[] }>;
      expect(sockets.length).toBeGreaterThanOrEqual(1);
      expect(sockets.flatMap((socket) => socket.sent)).toEqual([]);
      expect(await page.locator('[data-testid=library-row][data-id]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("loads no other screen's code for the first paint, and a screen's code when it is opened", async () => {
    const context = await freshContext();
    try {
      const page = await context.newPage();
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(plainUrl());
      await page.locator('[data-testid=library-row][data-id]').first().waitFor();
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((path) => LAZY_SCREEN_CHUNK.test(path))).toEqual([]);
      // The pattern names real chunks: opening Settings fetches its code then.
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('settings').waitFor();
      expect(scripts.filter((path) => LAZY_SCREEN_CHUNK.test(path))).toEqual([
        expect.stringMatching(/\/Settings-[\w-]+\.js$/),
      ]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

/**
 * Runs in the page before its scripts: at each animation frame (its rAF callback runs just before it is painted) from
 * the one that has the page's body until the app has mounted, whether the library's first paint is on screen, and
 * whether the app's entry had run by then.
 */
const KEPT_PAINT_PROBE = `
  window.__keptPaint = { frames: [], mountedWithSnapshot: null, socketAt: null };
  const NativeSocket = WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      window.__keptPaint.socketAt ??= performance.now();
    }
  };
  const frame = () => {
    const snapshot = document.querySelector('.first-paint');
    const shown = snapshot !== null && getComputedStyle(snapshot).display !== 'none';
    // Frames before the parser has reached the page's body have nothing of the app to show.
    if (document.getElementById('app')) window.__keptPaint.frames.push({
      shown,
      rows: shown ? snapshot.querySelectorAll('[data-testid=library-row][data-id], [data-testid=library-cell][data-id]').length : 0,
      // The app's style sheet applies (the shell is a grid), and no module has been asked for yet.
      styled: shown && getComputedStyle(snapshot.querySelector('.shell')).display === 'grid',
      preloads: document.querySelectorAll('link[rel=modulepreload], script[type=module]').length,
      // The early start's socket (its answers cost the shell CPU the snapshot's layout needs on two cores).
      socket: window.__desktopEarly !== undefined || window.desktop !== undefined,
      entryRun: performance.getEntriesByName('app:entry').length > 0,
      mounted: performance.getEntriesByName('app:mounted').length > 0,
    });
    if (performance.getEntriesByName('app:mounted').length === 0) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // In the task that mounts the app, the snapshot must go: a MutationObserver's first look after app:mounted.
  new MutationObserver((_, observer) => {
    if (performance.getEntriesByName('app:mounted').length === 0) return;
    window.__keptPaint.mountedWithSnapshot = document.querySelector('.first-paint') !== null;
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true });
`;

interface KeptPaintFrame {
  shown: boolean;
  rows: number;
  styled: boolean;
  preloads: number;
  socket: boolean;
  entryRun: boolean;
  mounted: boolean;
}

describe("the library's first paint kept for the next start", () => {
  /**
   * The snapshot the app kept of the settings' view, after a page has shown the library long enough for it to be kept
   * if there was none.
   */
  const kept = async (): Promise<NonNullable<ReturnType<DesktopUnderTest['app']['firstPaint']>['snapshot']>> => {
    const ofTheView = async (): Promise<ReturnType<DesktopUnderTest['app']['firstPaint']>['snapshot']> => {
      const { snapshot, ui } = desktop.app.firstPaint();
      return snapshot?.view === ui.library_view ? snapshot : null;
    };
    const existing = await ofTheView();
    if (existing) return existing;
    const context = await freshContext();
    try {
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
      return await until(ofTheView, 'the library kept', 15_000);
    } finally {
      await context.close();
    }
  };
  /** index.html as the shell serves it to `path` (with or without the token). */
  const served = async (path: string): Promise<{ body: string; headers: Headers }> => {
    const response = await fetch(`${new URL(desktop.shell.url).origin}${path}`);
    expect(response.status).toBe(200);
    return { body: await response.text(), headers: response.headers };
  };

  it('keeps the settled library, and serves it only to the page opened with the token', async () => {
    const context = await freshContext();
    try {
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
      const firstTitle = await page.locator('[data-testid=library-row][data-id]').first().locator('.title .t');
      const title = (await firstTitle.textContent())!.trim();
      const snapshot = await until(async () => desktop.app.firstPaint().snapshot, 'the library kept', 15_000);
      expect(snapshot.lang).toBe('en');
      expect(snapshot.html).toContain(title);
      // The rows the list shows, not those its virtual window keeps below them for scrolling.
      const rows = (await page.evaluate(`(() => {
        const bottom = document.querySelector('[data-testid=library-list]').getBoundingClientRect().bottom;
        const all = [...document.querySelectorAll('[data-testid=library-row]')];
        return { all: all.length, shown: all.filter((row) => row.getBoundingClientRect().top < bottom).length };
      })()`)) as { all: number; shown: number };
      expect(rows.shown).toBeGreaterThan(10);
      expect(rows.all).toBeGreaterThan(rows.shown);
      expect(snapshot.html.match(/data-testid="library-row"/g)).toHaveLength(rows.shown);
      // The build it came from is the one the shell serves: the names of its entry script and style sheet.
      const { body: plain, headers: plainHeaders } = await served('/');
      expect(snapshot.build).toBe(buildOf(plain));
      expect(
        snapshot.build
          .split(' ')
          .map((name) => name.replace(/^index-[\w-]+\./, ''))
          .sort(),
      ).toEqual(['css', 'js']);

      const { body, headers } = await served(`/?token=${desktop.shell.token}`);
      expect(body).toContain('data-first-paint');
      // The style sheet is in the page, byte for byte the built one; no request holds the first frame back.
      const [, sheetHref] = /<link rel="stylesheet"[^>]* href="([^"]+)"/.exec(plain)!;
      const sheet = await (await fetch(new URL(sheetHref!, desktop.shell.url))).text();
      expect(body).toContain(`<style data-href="${sheetHref}">${sheet}</style>`);
      expect(body).not.toMatch(/rel="(?:stylesheet|modulepreload)"/);
      expect(body).toContain(title);
      expect(headers.get('cache-control')).toBe('no-store');
      // The same policy as the plain page: no inline script but the built page's own.
      expect(headers.get('content-security-policy')).toBe(plainHeaders.get('content-security-policy'));
      // Without the token (another user of this machine, a page of another origin): the built page only.
      expect(plain).not.toContain('data-first-paint');
      expect(plain).not.toContain(title);
      const { body: wrong } = await served(`/?token=${'0'.repeat(43)}`);
      expect(wrong).not.toContain(title);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("paints it before the app's scripts run; the app replaces it in one task and is used as always", async () => {
    await kept();
    const context = await freshContext();
    try {
      await context.addInitScript(KEPT_PAINT_PROBE);
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
      await page.waitForFunction(() => performance.getEntriesByName('app:mounted').length > 0, undefined, {
        timeout: 20_000,
      });
      const probe = (await page.evaluate('window.__keptPaint')) as {
        frames: KeptPaintFrame[];
        mountedWithSnapshot: boolean | null;
        socketAt: number | null;
      };
      // Nothing of the app started before the browser had the first frame on screen (its first contentful paint,
      // reported once rasterised and drawn): the start's work would have competed with drawing it.
      const onScreen = (await page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null",
      )) as number | null;
      expect(onScreen).not.toBeNull();
      expect(probe.socketAt).toBeGreaterThanOrEqual(onScreen!);
      // The first frame shows the kept rows, styled, and nothing of the app's scripts had been asked for yet.
      expect(probe.frames[0]).toMatchObject({ shown: true, styled: true, preloads: 0, socket: false, entryRun: false });
      // The socket was opened while the picture was still shown, before the app's scripts ran.
      expect(probe.frames.find((frame) => frame.socket)).toMatchObject({ shown: true });
      expect(probe.frames[0]!.rows).toBeGreaterThan(10);
      // Every frame until the mount showed it: no blank frame in between.
      expect(probe.frames.filter((frame) => !frame.mounted).every((frame) => frame.shown)).toBe(true);
      expect(probe.mountedWithSnapshot).toBe(false);
      // Then the entry and the modules the built page preloads were asked for, as the plain page asks for them.
      const { body: plain } = await served('/');
      const modules = (html: string): string[] =>
        [...html.matchAll(/<(?:link rel="modulepreload"|script type="module")[^>]* (?:href|src)="([^"]+)"/g)]
          .map((match) => match[1]!)
          .sort();
      const asked = (await page.evaluate(
        `[...document.querySelectorAll('link[rel=modulepreload], script[type=module]')]
          .map((element) => element.getAttribute('href') ?? element.getAttribute('src'))`,
      )) as string[];
      expect(asked.sort()).toEqual(modules(plain));
      expect(modules(plain).length).toBeGreaterThan(1);
      // The token leaves the address bar once the page is idle; the app works as it does without a first paint.
      await expect.poll(() => new URL(page.url()).search, { timeout: 5_000 }).toBe('');
      await expect(page.getByTestId('library-total').textContent()).resolves.toContain('2,000');
      const row = page.locator('[data-testid=library-row][data-id]').nth(2);
      const id = await row.getAttribute('data-id');
      await row.locator('a.title').click();
      await page.waitForURL(new RegExp(`#/document/${id}$`));
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a start from the first paint keeps the library again, named by the same build', async () => {
    const before = await kept();
    // An older picture of the library, so that the page's own keeping of it can be seen.
    const older = { ...before, html: '<div class="shell"><p>an older library</p></div>' };
    expect(await dispatchCall(desktop.app.handlers, 'library.saveFirstPaint', older)).toMatchObject({ ok: true });
    const context = await freshContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(desktop.shell.url);
      // The page has the older picture, with the style sheet inlined: the form the renderer now keeps from.
      expect(await response!.text()).toMatch(/<style data-href="[^"]+">[\s\S]*an older library/);
      const again = await until(
        async () => {
          const snapshot = desktop.app.firstPaint().snapshot;
          return snapshot && !snapshot.html.includes('an older library') ? snapshot : null;
        },
        'the library kept again',
        15_000,
      );
      expect(again.build).toBe(buildOf((await served('/')).body));
      expect(again.html).toContain('data-testid="library-row"');
    } finally {
      await context.close();
    }
  }, 60_000);

  it("keeps the grid too, and serves a view's picture only while the settings show that view", async () => {
    await kept();
    const context = await freshContext();
    try {
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
      await page.getByTestId('view-grid').click();
      const grid = await until(
        async () => {
          const snapshot = desktop.app.firstPaint().snapshot;
          return snapshot?.view === 'grid' ? snapshot : null;
        },
        'the grid kept',
        15_000,
      );
      expect(grid.html).toContain('data-testid="library-cell"');
      expect(grid.html).not.toContain('data-testid="library-row"');
      // The view is a setting now, so a page of any origin starts in it.
      expect(desktop.settings.get().ui.library_view).toBe('grid');
    } finally {
      await context.close();
    }
    const next = await freshContext();
    try {
      await next.addInitScript(KEPT_PAINT_PROBE);
      const page = await next.newPage();
      await page.goto(desktop.shell.url);
      await page.waitForFunction(() => performance.getEntriesByName('app:mounted').length > 0, undefined, {
        timeout: 20_000,
      });
      const probe = (await page.evaluate('window.__keptPaint')) as { frames: KeptPaintFrame[] };
      expect(probe.frames[0]).toMatchObject({ shown: true, styled: true, entryRun: false });
      expect(probe.frames[0]!.rows).toBeGreaterThan(10);
      // The app mounts in the grid: the picture was of what it shows.
      await page.locator('[data-testid=library-cell][data-id]').first().waitFor();
    } finally {
      await next.close();
      // Back to the list, with no page open to keep it: the grid's picture is not served to a list.
      await desktop.settings.update({ ui: { library_view: 'list' } });
    }
    expect(desktop.app.firstPaint().snapshot?.view).toBe('grid');
    expect((await served(`/?token=${desktop.shell.token}`)).body).not.toContain('data-first-paint');
  }, 60_000);

  it('a page that starts hidden (a tab opened in the background) starts the app at once: it paints no frame to wait for', async () => {
    await kept();
    const context = await freshContext();
    try {
      // What a background tab is: hidden, and no animation frame runs until it is shown.
      await context.addInitScript(`
        Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => 'hidden' });
        Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => true });
        window.requestAnimationFrame = () => 0;
      `);
      const page = await context.newPage();
      const response = await page.goto(desktop.shell.url);
      expect(await response!.text()).toContain('data-first-paint');
      // Mounted over the picture, and its start-up work done after "the first frame" too (App.svelte: app.init).
      await until(
        async () =>
          (await page.evaluate(`performance.getEntriesByName('app:mounted').length > 0 &&
            !document.querySelector('[data-first-paint]') &&
            document.querySelector('[data-testid=connection-state]')?.textContent.includes('Online')`)) === true,
        'the app started in a hidden page',
        20_000,
      );
      expect(await page.locator('[data-testid=library-row][data-id]').count()).toBeGreaterThan(10);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a page opened on another screen never shows it, and starts that screen', async () => {
    await kept();
    const context = await freshContext();
    try {
      await context.addInitScript(KEPT_PAINT_PROBE);
      const page = await context.newPage();
      const response = await page.goto(`${desktop.shell.url}#/settings`);
      expect(await response!.text()).toContain('data-first-paint');
      await page.getByTestId('settings').waitFor({ timeout: 20_000 });
      const probe = (await page.evaluate('window.__keptPaint')) as { frames: KeptPaintFrame[] };
      expect(probe.frames.length).toBeGreaterThan(0);
      expect(probe.frames.some((frame) => frame.shown)).toBe(false);
      expect(new URL(page.url()).hash).toBe('#/settings');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('is not served in another language than the one chosen', async () => {
    expect((await kept()).lang).toBe('en');
    await desktop.settings.update({ ui: { language: 'de' } });
    try {
      expect((await served(`/?token=${desktop.shell.token}`)).body).not.toContain('data-first-paint');
    } finally {
      await desktop.settings.update({ ui: { language: null } });
    }
    expect((await served(`/?token=${desktop.shell.token}`)).body).toContain('data-first-paint');
  }, 60_000);

  it("a page without a picture still starts in the settings' theme, language and view: a new origin has no cache of them", async () => {
    expect((await kept()).lang).toBe('en');
    // A picture in English is not served to German (above): this page gets the settings' values only.
    await desktop.settings.update({ ui: { appearance: 'dark', language: 'de', library_view: 'grid' } });
    const context = await browser.newContext({
      viewport: { width: 1360, height: 860 },
      locale: 'en-US',
      colorScheme: 'light',
    });
    try {
      await context.addInitScript(`
        window.__firstFrame = null;
        requestAnimationFrame(() => {
          const root = document.documentElement;
          window.__firstFrame = { theme: root.dataset.theme, lang: root.lang, background: getComputedStyle(document.body).backgroundColor };
        });
        window.__rowsSeen = false;
        new MutationObserver(() => {
          window.__rowsSeen ||= document.querySelector('[data-testid=library-row]') !== null;
        }).observe(document, { subtree: true, childList: true });
      `);
      const page = await context.newPage();
      // On a route, the app mounts without waiting for settings.get: what it shows first is what the page carried.
      const response = await page.goto(`${desktop.shell.url}#/library`);
      expect(await response!.text()).not.toContain('data-first-paint');
      await page.locator('[data-testid=library-cell][data-id]').first().waitFor({ timeout: 20_000 });
      const first = (await page.evaluate('window.__firstFrame')) as { theme: string; lang: string; background: string };
      // The first frame, before any of the app's scripts ran, is already dark and German; a light frame would flash.
      expect(first.theme).toBe('dark');
      expect(first.lang).toBe('de');
      expect(first.background).toBe(await page.evaluate('getComputedStyle(document.body).backgroundColor'));
      expect(first.background).not.toBe('rgb(255, 255, 255)');
      expect(await page.getByTestId('nav-library').textContent()).toContain('Bibliothek');
      // The grid from the start: no list was drawn and flipped over when the settings arrived.
      expect(await page.evaluate('window.__rowsSeen')).toBe(false);
    } finally {
      await context.close();
      await desktop.settings.update({ ui: { appearance: 'system', language: null, library_view: 'list' } });
    }
  }, 60_000);
});
