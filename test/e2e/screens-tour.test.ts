/**
 * Every screen at 1024×700, in English and German, light and dark: photographed (test-results/e2e/tour-*) and
 * checked with axe-core, plus the keyboard paths a keyboard user takes (focus into the opened document, back to the
 * row, into each screen after a `g` shortcut) and the list's screen-reader semantics.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseCallInput } from '../../common/ipc.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import {
  axeViolations,
  e2eSession,
  localDay,
  shoot,
  syncedDocuments,
  until,
  type AxeViolation,
  shellBase,
} from './e2e-harness.ts';

const session = e2eSession('tour');
const found: Record<string, AxeViolation[]> = {};

async function seed(): Promise<string[]> {
  const { app } = session.desktop;
  const due = localDay(4);
  const files: Array<[string, string[]]> = [
    [
      'Rechnung-Stadtwerke-Beispiel-November-2026.pdf',
      [
        'Stadtwerke Beispiel GmbH',
        'Rechnung Nr. 4711',
        'Rechnungsdatum: 01.11.2026',
        'Gesamtbetrag 89,50 EUR',
        `zahlbar bis ${due.german}`,
      ],
    ],
    [
      'Versicherungspolice.pdf',
      ['Allianz Versicherung AG', 'Versicherungsschein Nr. 12-345', 'Datum: 03.10.2026', 'Beitrag 120,00 EUR jährlich'],
    ],
    [
      'Telekom.pdf',
      [
        'Telekom Deutschland GmbH',
        'Rechnung Nr. 9001',
        'Rechnungsdatum: 05.11.2026',
        'Gesamtbetrag 39,99 EUR',
        `zahlbar bis ${localDay(-3).german}`,
      ],
    ],
  ];
  for (const [name, lines] of files) {
    const file = join(session.dir, name);
    await writeFile(file, await makePdf(lines));
  }
  await app.handlers['uploads.add']({ paths: files.map(([name]) => join(session.dir, name)) });
  const ids = await until(
    async () => {
      const docs = await syncedDocuments(app, 10);
      return docs.length === files.length && docs.every((d) => d.status === 'completed')
        ? docs.map((d) => d.id)
        : undefined;
    },
    'the documents processed and synced',
    90_000,
  );
  return ids;
}

async function tour(page: Page, lang: string, ids: string[]): Promise<void> {
  const base = shellBase(session.desktop.shell);
  const visit = async (hash: string, name: string, ready: string): Promise<void> => {
    await page.goto(`${base}${hash}`);
    await page.getByTestId(ready).first().waitFor();
    await page.waitForTimeout(400);
    await shoot(page, `tour-${lang}-${name}`);
    found[`${lang}-${name}`] = await axeViolations(page);
  };
  await visit('#/library', 'library', 'library-row');
  await page.getByTestId('library-row').first().getByTestId('row-select').check();
  await shoot(page, `tour-${lang}-library-selected`);
  await page.getByTestId('library-row').first().getByTestId('row-select').uncheck();
  await page.getByTestId('view-grid').click();
  await page.getByTestId('library-cell').first().waitFor();
  await page.waitForTimeout(600);
  await shoot(page, `tour-${lang}-library-grid`);
  found[`${lang}-library-grid`] = await axeViolations(page);
  await page.getByTestId('view-list').click();
  await visit('#/library', 'library', 'library-row');
  await visit(`#/document/${ids[0]}`, 'document', 'document');
  expect(await cutTabs(page)).toEqual([]);
  await visit('#/uploads', 'uploads', 'upload-row');
  await visit('#/due', 'due', 'due-item');
  await visit('#/settings', 'settings', 'folder-add');
  await visit('#/library/deleted', 'deleted', 'library');
  await visit('#/welcome', 'welcome', 'onboarding-step-1');
  await page.getByTestId('onboarding-next').click();
  await page.getByTestId('onboarding-step-2').waitFor();
  await shoot(page, `tour-${lang}-welcome-step2`);
  found[`${lang}-welcome-step2`] = await axeViolations(page);
  await page.getByTestId('onboarding-skip-folder').click();
  await page.getByTestId('onboarding-step-3').waitFor();
  await shoot(page, `tour-${lang}-welcome-step3`);
  found[`${lang}-welcome-step3`] = await axeViolations(page);
  await page.getByTestId('onboarding-finish').click();
  await page.getByTestId('library').waitFor();
}

/** The Document screen's tabs that do not show their whole label inside the tab list (German at 1024 px cut one). */
const cutTabs = (page: Page): Promise<string[]> =>
  page.getByRole('tablist').evaluate((list) => {
    const bounds = list.getBoundingClientRect();
    return [...list.querySelectorAll('[role=tab]')]
      .filter((tab) => {
        const box = tab.getBoundingClientRect();
        return tab.scrollWidth > tab.clientWidth || box.right > bounds.right + 0.5 || box.left < bounds.left - 0.5;
      })
      .map((tab) => tab.textContent ?? '');
  });

const focusedTestId = (page: Page): Promise<unknown> =>
  page.evaluate('document.activeElement?.dataset?.testid ?? document.activeElement?.tagName');
let ids: string[] = [];

describe('every screen at 1024×700 (browser shell, Chromium)', () => {
  it('is a grid for screen readers and keeps the keyboard where the user is', async () => {
    ids = await seed();
    const { page } = session.opened;
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(session.desktop.shell.url);
    const list = page.getByTestId('library-list');
    await page.getByTestId('library-row').nth(2).waitFor();
    // The library does not pull focus into its search box on a visit.
    expect(await focusedTestId(page)).not.toBe('library-search');
    expect(await list.getAttribute('role')).toBe('grid');
    expect(await list.getAttribute('aria-rowcount')).toBe('3');
    expect(await list.getAttribute('aria-multiselectable')).toBe('true');

    // `g l`: into the list, its first row announced as the active one.
    await page.keyboard.press('g');
    await page.keyboard.press('l');
    await expect.poll(() => focusedTestId(page)).toBe('library-list');
    expect(await list.getAttribute('aria-activedescendant')).toBe('lib-row-0');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => list.getAttribute('aria-activedescendant')).toBe('lib-row-1');
    const second = page.locator('#lib-row-1');
    expect(await second.getAttribute('role')).toBe('row');
    expect(await second.getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('x');
    await expect.poll(() => second.getAttribute('aria-selected')).toBe('true');
    // The selection's bar lies over the filters: the list does not move.
    const top = async (): Promise<number> => (await second.boundingBox())?.y ?? -1;
    const before = await top();
    await page.getByTestId('selection-bar').waitFor();
    expect(await top()).toBe(before);
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('selection-bar').count()).toBe(0);

    // Enter opens the document with focus on its title; Escape comes back to the same row, focused.
    const secondId = await second.getAttribute('data-id');
    await page.keyboard.press('Enter');
    await page.getByTestId('doc-title').waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('doc-title');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('library-list');
    expect(await list.getAttribute('aria-activedescendant')).toBe('lib-row-1');
    expect(await page.locator('#lib-row-1').getAttribute('data-id')).toBe(secondId);

    // `g` shortcuts land in each screen's main region.
    for (const [key, screen] of [
      ['d', 'due'],
      ['u', 'uploads'],
      ['s', 'settings'],
    ] as const) {
      await page.keyboard.press('g');
      await page.keyboard.press(key);
      await page.getByTestId(screen).waitFor();
      await expect
        .poll(() =>
          page.evaluate(
            'document.activeElement?.hasAttribute("data-main-region") && document.activeElement.closest("[data-testid]")?.dataset.testid',
          ),
        )
        .toBe(screen);
    }

    // Select all, with one checkbox; then none.
    await page.keyboard.press('g');
    await page.keyboard.press('l');
    await page.getByTestId('select-all').check();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('3 selected');
    await page.getByTestId('select-all').uncheck();
    await expect.poll(() => page.getByTestId('selection-bar').count()).toBe(0);
  }, 180_000);

  it('deletes with Undo instead of a confirmation, and the Deleted view says when', async () => {
    const { page } = session.opened;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const row = page.locator(`[data-testid=library-row][data-id="${ids[0]}"]`);
    await row.getByTestId('row-select').check();
    await page.getByTestId('bulk-delete').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.goto(`${shellBase(session.desktop.shell)}#/library/deleted`);
    const deletedRow = page.locator(`[data-testid=library-row][data-id="${ids[0]}"]`);
    await expect
      .poll(async () => (await deletedRow.getByTestId('row-deleted-at').textContent()) ?? '')
      .toMatch(/\d{4}/);
    await page.goto(`${shellBase(session.desktop.shell)}#/library`);
    await page.getByTestId('library-row').first().waitFor();
    await page.getByTestId('toast-action').click();
    await row.waitFor();
    expect((await session.desktop.app.handlers['documents.get']({ id: ids[0]! })).deleted_at).toBeNull();
  }, 60_000);

  it("opens the Due row's secondary actions from an overflow menu, with the keyboard", async () => {
    const { page } = session.opened;
    await page.getByTestId('nav-due').click();
    const more = page.getByTestId('due-more').first();
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('due-snooze');
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedTestId(page)).toBe('due-snooze-week');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('due-more');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
  }, 30_000);

  it("moves between the document's tabs with the arrow keys, only the open one in the Tab order", async () => {
    const { page } = session.opened;
    await page.goto(`${shellBase(session.desktop.shell)}#/document/${ids[0]}`);
    const tab = (name: string) => page.getByTestId(`tab-${name}`);
    await tab('fields').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedTestId(page)).toBe('tab-text');
    expect(await tab('text').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('doc-text').waitFor();
    expect([await tab('fields').getAttribute('tabindex'), await tab('text').getAttribute('tabindex')]).toEqual([
      '-1',
      '0',
    ]);
    await page.keyboard.press('End');
    await expect.poll(() => focusedTestId(page)).toBe('tab-events');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedTestId(page)).toBe('tab-fields');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusedTestId(page)).toBe('tab-events');
    await page.keyboard.press('Home');
    await expect.poll(() => focusedTestId(page)).toBe('tab-fields');
    expect(await tab('fields').getAttribute('aria-selected')).toBe('true');
  }, 30_000);

  it('shows search highlights at AA contrast in both themes', async () => {
    const { page } = session.opened;
    await page.getByTestId('nav-library').click();
    await page.getByTestId('library-search').fill('Gesamtbetrag');
    await page.locator('[data-testid=search-hit] mark').first().waitFor();
    await shoot(page, 'tour-en-search');
    const contrast = (await axeViolations(page)).filter((v) => v.id === 'color-contrast');
    expect(contrast.map((v) => `${v.scheme}: ${v.nodes.join(' | ')}`)).toEqual([]);
    await page.getByTestId('library-search').press('Escape');
  }, 30_000);

  it('saves a copy into a new folder only when asked, and never shows "of 0" while the preview loads', async () => {
    const { page } = session.opened;
    const base = shellBase(session.desktop.shell);
    await page.goto(`${base}#/library`);
    await page.getByTestId('library-row').first().waitFor();
    // Records every text the page count shows from here on (pdf.js takes a moment to count the pages).
    await page.evaluate(`window.__pageCounts = [];
      new MutationObserver(() => { const el = document.querySelector('[data-testid=pdf-page-count]'); if (el) window.__pageCounts.push(el.textContent); })
        .observe(document.body, { subtree: true, childList: true, characterData: true });`);
    await page.goto(`${base}#/document/${ids[0]}`);
    await expect.poll(() => page.getByTestId('pdf-page-count').textContent(), { timeout: 20_000 }).toBe('of 1');
    const counts = (await page.evaluate('window.__pageCounts')) as string[];
    expect(counts.length).toBeGreaterThan(0);
    expect(counts).not.toContain('of 0');

    const target = join(session.dir, 'Belege', '2026');
    await page.getByTestId('doc-save-as').click();
    // A relative folder is refused with a hint, not read against wherever the app was started.
    await page.getByTestId('save-dir').fill('Belege');
    await page.getByTestId('save-submit').click();
    await expect
      .poll(() => page.getByTestId('save-error').textContent())
      .toBe("Enter the folder's full path, starting with / (or a drive such as C:\\).");
    await page.getByTestId('save-dir').fill(target);
    await page.getByTestId('save-submit').click();
    await expect.poll(() => page.getByTestId('save-error').textContent()).toBe(`The folder ${target} does not exist.`);
    expect(existsSync(target)).toBe(false);
    await shoot(page, 'tour-en-save-missing-folder');
    await page.getByTestId('save-create-folder').click();
    await expect.poll(() => page.getByTestId('saved-path').textContent()).toContain(target);
    expect(readdirSync(target)).toHaveLength(1);
    await page.keyboard.press('Escape');
  }, 60_000);

  it("names the folders already watched in the welcome guide's last step", async () => {
    const { page } = session.opened;
    const folder = join(session.dir, 'Scans');
    mkdirSync(folder, { recursive: true });
    await session.desktop.app.handlers['folders.save'](parseCallInput('folders.save', { path: folder }));
    await page.goto(`${shellBase(session.desktop.shell)}#/welcome`);
    await page.getByTestId('onboarding-step-1').waitFor();
    await page.getByTestId('onboarding-local').check();
    await page.getByTestId('onboarding-next').click();
    await page.getByTestId('onboarding-skip-folder').click();
    await page.getByTestId('onboarding-step-3').waitFor();
    await expect.poll(() => page.getByTestId('onboarding-folder').first().textContent()).toContain(folder);
    expect(await page.getByTestId('onboarding-no-folder').count()).toBe(0);
    await page.getByTestId('onboarding-finish').click();
    await page.getByTestId('library').waitFor();
  }, 60_000);

  it('looks right in English and German', async () => {
    const { page } = session.opened;
    await tour(page, 'en', ids);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('language').selectOption('de');
    await until(async () => session.desktop.settings.get().ui.language === 'de', 'the language saved');
    await tour(page, 'de', ids);
    const problems = Object.entries(found).flatMap(([screen, list]) =>
      list.map((v) => `${screen} (${v.scheme}): ${v.id} ${v.help} → ${v.nodes.join(' | ')}`),
    );
    expect(problems).toEqual([]);
  }, 240_000);
});
