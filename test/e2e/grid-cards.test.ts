/**
 * The library's grid cards (issue 14, item 17): each shows sender, date and amount, in the UI's locale, at 1024×700,
 * with the amount whole inside its card; photographed in English and German, light and dark
 * (test-results/e2e/grid-cards-*).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ArchiveEvent } from '../../common/archive-types.ts';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { syntheticDocuments, syntheticEvents } from '../helpers/synthetic-documents.ts';
import {
  ensureRenderer,
  launchChromium,
  openPage,
  shoot,
  startDesktop,
  until,
  type DesktopUnderTest,
  type OpenedPage,
} from './e2e-harness.ts';

let dir: string;
let desktop: DesktopUnderTest;
let browser: Browser;
let opened: OpenedPage;
let documents: ArchiveDocument[];
let events: ArchiveEvent[];

beforeAll(async () => {
  await ensureRenderer();
  dir = await mkdtemp(join(tmpdir(), 'e2e-grid-cards-'));
  await mkdir(join(dir, 'data'), { recursive: true });
  documents = syntheticDocuments(12);
  const newest = documents[11]!;
  // A sender long enough to be cut: the amount must still show whole.
  documents[11] = { ...newest, sender_name: 'Stadtwerke Beispielstadt Energie- und Wasserversorgung GmbH' };
  // Every second document has an invoice (the odd ones, the newest among them, none); amounts set where asserted.
  events = syntheticEvents(documents).map((e) =>
    e.document_id === documents[10]!.id ? { ...e, amount: { value: 24.91, currency: 'EUR' } } : e,
  );
  const invoice = { ...events[0]!, document_id: newest.id, title: newest.title, created_at: newest.created_at };
  events.push(
    { ...invoice, id: crypto.randomUUID(), amount: { value: 1584.79, currency: 'EUR' } },
    // A later event of the same document: the card shows the first one's amount.
    {
      ...invoice,
      id: crypto.randomUUID(),
      amount: { value: 1, currency: 'USD' },
      created_at: '2030-01-01T00:00:00.000Z',
    },
  );
  const cache = new LibraryCache(join(dir, 'data', 'library.sqlite'));
  cache.upsertDocuments(documents, Date.now());
  cache.upsertEvents(events);
  cache.close();
  // Not started: a sync against the empty embedded archive would empty the seeded cache.
  desktop = await startDesktop({ dir, start: false, settings: { ui: { onboarded: true, language: 'en' } } });
  browser = await launchChromium();
  opened = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await opened?.context.close();
  await browser?.close();
  await desktop?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The card of a document: its sender, date and amount as shown, and whether the amount lies whole inside the card. */
async function card(page: Page, id: string) {
  const cell = page.locator(`[data-testid=library-cell][data-id="${id}"]`);
  await cell.waitFor();
  const amount = cell.getByTestId('card-amount');
  const [cellBox, amountBox] = [
    await cell.boundingBox(),
    (await amount.count()) > 0 ? await amount.boundingBox() : null,
  ];
  return {
    sender: await cell.getByTestId('card-sender').textContent(),
    date: await cell.getByTestId('card-date').textContent(),
    amount: amountBox ? await amount.textContent() : null,
    amountInside:
      !!cellBox &&
      !!amountBox &&
      amountBox.x >= cellBox.x &&
      amountBox.x + amountBox.width <= cellBox.x + cellBox.width &&
      (await amount.evaluate((el) => el.scrollWidth <= el.clientWidth)),
  };
}

// Intl writes a no-break space in German amounts; compared with plain spaces.
const plain = (s: string | null): string | null => s?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

describe('grid cards (browser shell, Chromium, 1024×700)', () => {
  it('show sender, date and amount in the UI language, the amount whole, and none where no event has one', async () => {
    const { page, pageErrors } = opened;
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(desktop.shell.url);
    await page.getByTestId('view-grid').click();
    // Newest first: the last document seeded is the first card.
    const [newest, withInvoice, letter] = [documents[11]!, documents[10]!, documents[9]!];
    expect(await card(page, newest.id)).toEqual({
      sender: newest.sender_name,
      date: 'Jan 1, 2024',
      amount: '€1,584.79',
      amountInside: true,
    });
    expect((await card(page, withInvoice.id)).amount).toBe('€24.91');
    // A document without an event has no amount; its sender and date still show.
    expect(await card(page, letter.id)).toMatchObject({
      sender: letter.sender_name,
      date: 'Jan 1, 2024',
      amount: null,
    });
    await page.waitForTimeout(300);
    await shoot(page, 'grid-cards-en');

    await desktop.settings.update({ ui: { language: 'de' } });
    await page.reload();
    await until(async () => plain((await card(page, newest.id)).amount) === '1.584,79 €', 'the German amount', 15_000);
    expect(await card(page, newest.id)).toMatchObject({ date: '1. Jan. 2024', amountInside: true });
    expect(plain((await card(page, withInvoice.id)).amount)).toBe('24,91 €');
    await page.waitForTimeout(300);
    await shoot(page, 'grid-cards-de');
    expect(pageErrors).toEqual([]);
  });
});
