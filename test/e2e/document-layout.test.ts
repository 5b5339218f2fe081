/**
 * The Document screen in a narrow and a wide window, in English and German (UI audit of 2026-11-27): the extracted
 * fields stay readable (no word cut by a line break, the table inside its card), a contract's terms are worded in the
 * UI's language and its notice deadline is named as Due names it, pdf.js's hidden canvas does not make the page
 * scroll, and leaving a document while its preview renders again raises no error. Local mode, browser shell.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { isValidIban } from '../../common/payment-codes.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { e2eSession, localDay, shellBase, shoot, syncedDocuments, until } from './e2e-harness.ts';

// Names and numbers are invented; the IBAN only has valid check digits.
const IBAN = 'DE24 2004 1617 0738 0092 15';

const session = e2eSession('document-layout');
const base = () => shellBase(session.desktop.shell);
let invoiceId = '';
let contractId = '';

/** Uploads a PDF of these lines and waits until its document is processed and synced; returns its id. */
async function addDocument(name: string, lines: string[], metadata?: Record<string, unknown>): Promise<string> {
  const { app } = session.desktop;
  const file = join(session.dir, name);
  await writeFile(file, await makePdf(lines));
  await app.handlers['uploads.add']({ paths: [file], ...(metadata ? { metadata } : {}) });
  const doc = await until(
    async () => (await syncedDocuments(app, 20)).find((d) => d.original_filename === name && d.status === 'completed'),
    `${name} processed and synced`,
    60_000,
  );
  return doc.id;
}

async function setLanguage(page: Page, language: 'en' | 'de'): Promise<void> {
  await page.goto(`${base()}#/settings`);
  await page.getByTestId('language').selectOption(language);
  await until(async () => session.desktop.settings.get().ui.language === language, `the language ${language} saved`);
}

/** Opens a document and waits until its preview has drawn its text layer (which is what appends pdf.js's canvas). */
async function openDocument(page: Page, id: string): Promise<void> {
  await page.goto(`${base()}#/document/${id}`);
  await page.getByTestId('doc-title').waitFor();
  await page.locator('[data-testid=pdf-viewport] .textLayer span').first().waitFor();
}

/**
 * The words (split at spaces and hyphens) of each shown value that a line break cuts in two, and how far the table
 * sticks out of its card on the right. (A script, as the page's DOM is not in these files' types.)
 */
const fieldsLayout = (page: Page): Promise<{ cut: string[]; overflow: number; values: number }> =>
  page.evaluate(`(() => {
    const table = document.querySelector('[data-testid=doc-fields]');
    const card = table.closest('.card');
    const style = getComputedStyle(card);
    const inner = card.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
    const cut = [];
    const cells = table.querySelectorAll('[data-testid=doc-field] td:nth-child(2)');
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/[^\\s\\-–]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) cut.push(word[0]);
        }
      }
    }
    return { cut, overflow: Math.max(0, table.getBoundingClientRect().right - inner), values: cells.length };
  })()`) as Promise<{ cut: string[]; overflow: number; values: number }>;

/** How much taller than the window the page is, and whether pdf.js's measuring canvas is on <body> at all. */
const pageOverflow = (page: Page): Promise<{ extra: number; canvas: boolean }> =>
  page.evaluate(`({
    extra: document.scrollingElement.scrollHeight - window.innerHeight,
    canvas: document.querySelector('body > canvas.hiddenCanvasElement') !== null,
  })`) as Promise<{ extra: number; canvas: boolean }>;

beforeAll(async () => {
  invoiceId = await addDocument(
    'Rechnung Versorgung.pdf',
    [
      'Versorgungsbetriebe Lindenhausen-Birkenfeld GmbH',
      'Rechnung Nr. VL-4471-2093',
      'Gesamtbetrag 213,48 EUR',
      'Verwendungszweck: Kundennummer 77310 Rechnung VL-4471-2093',
      `IBAN: ${IBAN}`,
    ],
    {
      event_type: 'invoice',
      // From the upload details: their source is the longest ("Angaben beim Upload").
      sender_name: 'Versorgungsbetriebe Lindenhausen-Birkenfeld GmbH',
      reference_number: 'VL-4471-2093',
      amount: { value: 213.48, currency: 'EUR' },
      due_date: localDay(20).iso,
    },
  );
  contractId = await addDocument('Wartungsvertrag.pdf', [
    'Wartungsvertrag für eine Heizungsanlage',
    'Zwischen der Wärmetechnik Birkenau GmbH und Herrn Jonas Beispiel',
    'Vertragsbeginn: 01.02.2097',
    'Das Vertragsverhältnis endet am 31.01.2099.',
    'Kündigungsfrist: 3 Monate zum Vertragsende.',
  ]);
  const { page } = session.opened;
  await page.goto(session.desktop.shell.url); // the token comes in the first URL's query
  await page.getByTestId('library-sync').waitFor();
}, 150_000);

describe('the Document screen in a narrow and a wide window (browser shell, Chromium)', () => {
  it('shows every extracted value readable, in its card, and the page never scrolls', async () => {
    expect(isValidIban(IBAN.replaceAll(' ', ''))).toBe(true);
    const { page, pageErrors } = session.opened;

    for (const language of ['en', 'de'] as const) {
      await setLanguage(page, language);
      for (const [width, height] of [
        [1024, 700],
        [1280, 800],
        // Wide enough for the three columns.
        [1440, 900],
      ] as const) {
        await page.setViewportSize({ width, height });
        await openDocument(page, invoiceId);
        const where = `${language} ${width}×${height}`;
        const iban = page.locator('[data-testid=doc-field][data-field=iban] td:nth-child(2)');
        expect(await iban.textContent(), where).toBe(IBAN);
        const layout = await fieldsLayout(page);
        expect(layout.values, where).toBeGreaterThan(5);
        expect({ where, cut: layout.cut }).toEqual({ where, cut: [] });
        expect(layout.overflow, where).toBeLessThan(0.5);
        // pdf.js's canvas is there, and out of the page's flow: the window shows the whole app, nothing to scroll.
        expect(await pageOverflow(page), where).toEqual({ extra: 0, canvas: true });
        await shoot(page, `document-fields-${language}-${width}`);
      }
    }
    await page.setViewportSize({ width: 1360, height: 860 });
    expect(pageErrors).toEqual([]);
  }, 150_000);

  it("words a contract's terms and names its notice deadline as Due does, in German", async () => {
    const { page, pageErrors } = session.opened;
    const field = (name: string) => page.locator(`[data-testid=doc-field][data-field=${name}] td`);

    await setLanguage(page, 'en');
    await openDocument(page, contractId);
    expect((await field('notice_period').allTextContents()).slice(0, 2)).toEqual(['Notice period', '3 months']);
    await setLanguage(page, 'de');
    await page.setViewportSize({ width: 1024, height: 700 });
    await openDocument(page, contractId);
    expect((await field('notice_period').allTextContents()).slice(0, 2)).toEqual(['Kündigungsfrist', '3 Monate']);
    expect((await field('contract_end').allTextContents()).slice(0, 2)).toEqual(['Vertragsende', '31. Jan. 2099']);
    expect((await field('contract_start').allTextContents()).slice(0, 2)).toEqual(['Vertragsbeginn', '1. Feb. 2097']);
    expect(await page.getByTestId('doc-fields').textContent()).not.toContain('{');

    await page.getByTestId('tab-events').click();
    const notice = page.getByTestId('doc-event').filter({ hasText: '31. Okt. 2098' });
    expect(await notice.locator('strong').textContent()).toBe('Kündigungsfrist');
    expect(await notice.textContent()).toContain('Letzter Tag für die Kündigung: 31. Okt. 2098');
    expect(await page.getByTestId('doc-events').textContent()).not.toContain('Bescheid');
    await shoot(page, 'document-contract-events-de');
    await page.setViewportSize({ width: 1360, height: 860 });
    await setLanguage(page, 'en');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('leaves a document while its preview renders again without an error', async () => {
    const { page, pageErrors } = session.opened;
    await page.setViewportSize({ width: 1024, height: 700 });
    // A new size renders the page again (fit width); leaving at once destroys the document under that render. Some
    // of these land while pdf.js is drawing: its render task is cancelled, which is no error.
    for (const delay of [0, 0, 2, 5, 10, 15, 20, 30, 40, 60]) {
      await openDocument(page, invoiceId);
      await page.setViewportSize({ width: 1024, height: 1400 });
      await page.setViewportSize({ width: 1024, height: 700 });
      await page.waitForTimeout(delay);
      await page.evaluate("location.hash = '#/library/deleted'");
      await page.getByTestId('library').waitFor();
    }
    await page.waitForTimeout(500);
    await page.setViewportSize({ width: 1360, height: 860 });
    expect(pageErrors).toEqual([]);
  }, 90_000);
});
