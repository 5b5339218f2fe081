/**
 * The desktop app end to end, as a user meets it: Chromium on the browser shell, the real DesktopApp in local mode
 * (embedded Archive Service, watcher, journal, library cache, reminders) on a fresh data directory. One story, in
 * order: first-run onboarding adds the watched folder; a PDF invoice saved into it shows up in the library, is
 * processed, opens in the preview with its text; its event is due with the right amount and a reminder pops up; a
 * bulk reprocess reports its summary; a changed setting survives a restart. Every screen is photographed in light and
 * dark (test-results/e2e) and checked with axe-core.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/archive-harness.ts';
import {
  ARTIFACTS,
  axeViolations,
  ensureRenderer,
  launchChromium,
  localDay,
  openPage,
  recordedToasts,
  shoot,
  startDesktop,
  until,
  type AxeViolation,
  type DesktopUnderTest,
  type OpenedPage,
} from './e2e-harness.ts';

let dir: string;
let inbox: string;
let desktop: DesktopUnderTest;
let browser: Browser;
let opened: OpenedPage;
let documentId = '';
const a11y: Record<string, AxeViolation[]> = {};
const due = localDay(2);
const EUR = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(89.5);

/** A sync every 5 s (the settings' minimum) instead of a minute, so a processed document shows up soon. */
const SETTINGS = { sync: { interval_ms: 5_000 } };

beforeAll(async () => {
  await ensureRenderer();
  dir = await mkdtemp(join(tmpdir(), 'e2e-flow-'));
  inbox = join(dir, 'Scans');
  await mkdir(inbox);
  desktop = await startDesktop({ dir, settings: SETTINGS });
  browser = await launchChromium();
  opened = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (opened?.consoleProblems.length) console.log(`browser console (flow):\n${opened.consoleProblems.join('\n')}`);
});

describe('the desktop app end to end (local mode, browser shell, Chromium)', () => {
  it('walks a first start through onboarding and adds the watched folder', async () => {
    const { page } = opened;
    await page.goto(desktop.shell.url);
    await page.getByTestId('onboarding-step-1').waitFor();
    await expect.poll(() => page.evaluate('location.hash')).toBe('#/welcome');
    a11y.welcome = await axeViolations(page);
    await shoot(page, 'welcome-step1');

    await page.getByTestId('onboarding-local').check();
    await page.getByTestId('onboarding-next').click();
    await page.getByTestId('onboarding-step-2').waitFor();
    // The browser shell has no system folder dialog: "Browse…" opens the app's own browser of the home folder
    // (add-files.test.ts chooses with it); closed, the path is typed instead.
    await page.getByTestId('folder-browse').click();
    await page.getByTestId('folder-browser').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('folder-browser').waitFor({ state: 'detached' });
    // A relative folder is refused with a hint, not read against wherever the app was started.
    await page.getByTestId('folder-path').fill('Scans');
    await page.getByTestId('folder-save').click();
    await expect
      .poll(() => page.getByTestId('folder-error').textContent())
      .toBe("Enter the folder's full path, starting with / (or a drive such as C:\\).");
    await page.getByTestId('folder-path').fill(inbox);
    await shoot(page, 'welcome-step2');
    await page.getByTestId('folder-save').click();
    await page.getByTestId('onboarding-step-3').waitFor();
    await expect(page.getByTestId('onboarding-folder').textContent()).resolves.toContain(inbox);
    await shoot(page, 'welcome-step3');

    await page.getByTestId('onboarding-finish').click();
    await page.getByTestId('library-empty').waitFor();
    await until(async () => desktop.settings.get().ui.onboarded, 'ui.onboarded saved in the settings');
    const folders = await desktop.app.handlers['folders.list'](undefined);
    expect(folders.folders.map((f) => f.path)).toEqual([inbox]);
  }, 60_000);

  it('shows a PDF invoice saved into the watched folder in the library, processed, and previews it with its text', async () => {
    const { page } = opened;
    await writeFile(
      join(inbox, 'Rechnung-4711.pdf'),
      await makePdf([
        'Stadtwerke Beispiel GmbH',
        'Musterstrasse 1, 12345 Musterstadt',
        'Rechnung Nr. 4711',
        'Rechnungsdatum: 01.11.2026',
        'Gesamtbetrag 89,50 EUR',
        `zahlbar bis ${due.german}`,
      ]),
    );

    const row = page.locator('[data-testid=library-row][data-id]');
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);
    await expect(row.first().textContent()).resolves.toContain('Rechnung-4711.pdf');
    documentId = (await row.first().getAttribute('data-id'))!;
    await page
      .locator(`[data-testid=library-row][data-id="${documentId}"][data-status=completed]`)
      .waitFor({ timeout: 60_000 });
    expect(await row.first().getByTestId('status-chip').getAttribute('data-status')).toBe('completed');
    a11y.library = await axeViolations(page);
    await shoot(page, 'library');

    await row.first().locator('a.title').click();
    await page.getByTestId('document').waitFor();
    expect(await page.evaluate('location.hash')).toBe(`#/document/${documentId}`);
    await expect(page.getByTestId('doc-filename').textContent()).resolves.toBe('Rechnung-4711.pdf');
    // pdf.js drew the page and laid its text over it: the preview really shows this document.
    const textLayer = page.locator('[data-testid=pdf-viewer] .textLayer');
    await expect.poll(() => textLayer.textContent(), { timeout: 20_000 }).toContain('Rechnung Nr. 4711');
    expect(await page.getByTestId('pdf-page-count').textContent()).toContain('1');
    await page.getByTestId('tab-text').click();
    await expect(page.getByTestId('doc-text').textContent()).resolves.toContain('Gesamtbetrag 89,50 EUR');
    a11y.document = await axeViolations(page);
    await shoot(page, 'document');
  }, 120_000);

  it('lists its event under Due with the amount, and a reminder pops up', async () => {
    const { page } = opened;
    // Due in two days, within the default three-day window: the reminder fires once the event reaches the cache.
    const reminder = await until(
      async () => (await recordedToasts(page)).find((text) => text.includes('4711')),
      'the reminder toast',
      30_000,
    );
    // The amount as the UI writes it, in its language (the notification and the screens share one formatter).
    expect(reminder).toMatch(/^Due in 2 days: .*4711.*€89\.50/);
    expect(desktop.notifications.map((n) => n.kind)).toEqual(['reminder']);

    await page.getByTestId('nav-due').click();
    const item = page.getByTestId('due-item');
    await item.first().waitFor();
    expect(await item.count()).toBe(1);
    await expect(item.first().locator('.amount').textContent()).resolves.toBe(EUR);
    const text = (await item.first().textContent()) ?? '';
    expect(text).toContain(
      new Date(`${due.iso}T00:00:00`).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }),
    );
    expect(text).toContain('Stadtwerke Beispiel GmbH');
    expect(text).toContain('in 2 days');
    await expect(page.getByTestId('due-totals').textContent()).resolves.toContain(EUR);
    await expect(page.getByTestId('nav-due-count').textContent()).resolves.toBe('1');
    a11y.due = await axeViolations(page);
    await shoot(page, 'due');
  }, 60_000);

  it('reprocesses the selection in bulk and shows the summary', async () => {
    const { page } = opened;
    await page.getByTestId('nav-library').click();
    const row = page.locator(`[data-testid=library-row][data-id="${documentId}"]`);
    const processedBefore = (await desktop.app.handlers['documents.get']({ id: documentId })).processed_at;
    await row.getByTestId('row-select').check();
    await expect(page.getByTestId('selection-count').textContent()).resolves.toBe('1 selected');
    await page.getByTestId('bulk-reprocess').click();
    const summary = page.getByTestId('bulk-result');
    await summary.waitFor();
    await expect(page.getByTestId('bulk-result-queued').textContent()).resolves.toContain('Queued: 1');
    for (const bucket of ['alreadyProcessing', 'skippedPending', 'denied']) {
      await expect(page.getByTestId(`bulk-result-${bucket}`).textContent()).resolves.toMatch(/: 0\s*$/);
    }
    await shoot(page, 'library-bulk-reprocess');
    // It really was processed again, and the library follows the service to `completed` on its own.
    await until(
      async () => {
        const detail = await desktop.app.handlers['documents.get']({ id: documentId });
        return detail.status === 'completed' && detail.processed_at !== processedBefore;
      },
      'the document processed again',
      45_000,
    );
    await page
      .locator(`[data-testid=library-row][data-id="${documentId}"][data-status=completed]`)
      .waitFor({ timeout: 30_000 });
  }, 90_000);

  it('shows the upload in the Uploads screen as done', async () => {
    const { page } = opened;
    await page.getByTestId('nav-uploads').click();
    const upload = page.getByTestId('upload-row');
    await upload.first().waitFor();
    expect(await upload.count()).toBe(1);
    expect(await upload.first().getAttribute('data-state')).toBe('done');
    await expect(upload.first().textContent()).resolves.toContain('Rechnung-4711.pdf');
    a11y.uploads = await axeViolations(page);
    await shoot(page, 'uploads');
  }, 30_000);

  it('keeps a changed setting across a restart of the app', async () => {
    let { page } = opened;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('folder-row').first().waitFor();
    await expect(page.getByTestId('folder-row').first().textContent()).resolves.toContain(inbox);
    const days = page.getByTestId('reminder-days');
    expect(await days.inputValue()).toBe('3');
    await days.fill('5');
    await days.press('Tab');
    await until(async () => desktop.settings.get().reminders.days_before === 5, 'days_before saved');
    // The digest's time on the UI language's clock, whatever the browser's locale (this context's is en-US).
    const digest = page.getByTestId('reminder-digest');
    expect(await digest.locator('option:checked').textContent()).toBe('9:00 AM');
    await digest.selectOption('18:30');
    await until(async () => desktop.settings.get().reminders.digest_time === '18:30', 'digest_time saved');
    // The desktop switches (close to tray, start at login, failed-upload notifications) are settings too.
    const tray = page.getByTestId('ui-close_to_tray');
    expect(await tray.isChecked()).toBe(true);
    await page.getByLabel('Keep running in the tray when the window is closed').uncheck();
    await until(async () => !desktop.settings.get().ui.close_to_tray, 'ui.close_to_tray saved');
    a11y.settings = await axeViolations(page);
    await shoot(page, 'settings');

    // Theme and language are settings as well, not the page's storage.
    await page.getByTestId('theme-dark').check();
    await page.getByTestId('language').selectOption('de');
    await until(
      async () => desktop.settings.get().ui.appearance === 'dark' && desktop.settings.get().ui.language === 'de',
      'theme and language saved',
    );

    // A restart on another port is another origin with empty storage (what `npm start` does by default): onboarding,
    // theme and language must come from the settings, and the library from the cache kept on disk.
    await page.close();
    await desktop.close();
    desktop = await startDesktop({ dir, settings: SETTINGS });
    const before = opened;
    opened = await openPage(browser);
    opened.pageErrors.unshift(...before.pageErrors);
    opened.consoleProblems.unshift(...before.consoleProblems);
    await before.context.close();
    page = opened.page;
    await page.goto(desktop.shell.url);
    await page.locator(`[data-testid=library-row][data-id="${documentId}"]`).waitFor();
    expect(await page.evaluate('location.hash')).not.toBe('#/welcome');
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
    await page.getByTestId('nav-settings').click();
    await expect.poll(() => page.getByTestId('reminder-days').inputValue(), { timeout: 10_000 }).toBe('5');
    await expect(page.getByTestId('folder-row').first().textContent()).resolves.toContain(inbox);
    expect(await page.getByTestId('ui-close_to_tray').isChecked()).toBe(false);
    expect(await page.getByTestId('language').inputValue()).toBe('de');
    expect(desktop.settings.get().reminders.days_before).toBe(5);
    // German: 24 h, although the browser's locale is English.
    expect(await page.getByTestId('reminder-digest').locator('option:checked').textContent()).toBe('18:30');
    await shoot(page, 'settings-after-restart');
  }, 60_000);

  it('has no serious or critical accessibility violations on any screen (axe-core, light and dark)', async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(join(ARTIFACTS, 'axe.json'), JSON.stringify(a11y, null, 2));
    expect(Object.keys(a11y).sort()).toEqual(['document', 'due', 'library', 'settings', 'uploads', 'welcome']);
    const found = Object.entries(a11y).flatMap(([screen, list]) =>
      list.map((v) => `${screen} (${v.scheme}): ${v.id} [${v.impact}] ${v.help} → ${v.nodes.join(' | ')}`),
    );
    expect(found).toEqual([]);
  });

  it('raised no uncaught error in the page', () => {
    expect(opened.pageErrors).toEqual([]);
  });
});
