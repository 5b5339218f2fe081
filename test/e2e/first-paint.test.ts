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
});
