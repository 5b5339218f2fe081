/**
 * The first paint of the library (issue 14, item 4): the window opens on a library cache of many documents and its
 * first frame that shows the Library already shows its rows. A Library painted before its first page arrived would be
 * laid out and painted twice (empty, then with rows), which is most of the time to the first row on a slow machine.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { syntheticDocuments } from '../helpers/synthetic-documents.ts';
import { ensureRenderer, launchChromium, startDesktop, type DesktopUnderTest } from './e2e-harness.ts';

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
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
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
      await page.goto(desktop.shell.url);
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
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
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
      await page.goto(desktop.shell.url);
      expect((await entered()).rows).toBeGreaterThan(10);
      await page.reload();
      expect((await entered()).rows).toBeGreaterThan(10);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('asks for the status only after the first frame with rows, and then shows it', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
    try {
      await context.addInitScript(STATUS_ORDER_PROBE);
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
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
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
    try {
      await context.addInitScript(SOCKET_PROBE);
      await context.addInitScript(EARLY_WORK_PROBE);
      const page = await context.newPage();
      await page.goto(desktop.shell.url);
      await page.locator('[data-testid=library-row][data-id]').first().waitFor();
      // The locale data's first load and the session storage's opening are the early script's, not the first render's.
      for (const probe of ['__firstFormatterStack', '__tokenStoredStack']) {
        const stack = (await page.evaluate(`window.${probe}`)) as string;
        expect(stack, probe).toContain(desktop.shell.url.split('#')[0]);
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
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
    try {
      await context.addInitScript(SOCKET_PROBE);
      const page = await context.newPage();
      await page.goto(`${desktop.shell.url.split('#')[0]}#token=${'0'.repeat(43)}`);
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
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
    try {
      const page = await context.newPage();
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(desktop.shell.url);
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
