/**
 * A deleted document on the Document screen (UI audit of 2026-11-27): the service hides a deleted document's events,
 * so the screen says so instead of "no events", and offers no payment card for a bill that was deleted; Restore
 * brings both back. Titles the list and Due cut short are whole on hover. Local mode, browser shell, Chromium.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/archive-harness.ts';
import { e2eSession, localDay, shellBase, syncedDocuments, until } from './e2e-harness.ts';

// Names and numbers are invented; the IBAN is the registry's published example.
const session = e2eSession('deleted-document');

describe('a deleted document (browser shell, Chromium)', () => {
  it('hides the payment card and says its events are hidden until it is restored; Restore brings both back', async () => {
    const { app } = session.desktop;
    const name = 'Beispiel Rechnung.pdf';
    const file = join(session.dir, name);
    await writeFile(
      file,
      await makePdf(['Beispiel Versorgung AG', 'Rechnung 2231', 'IBAN: DE89 3704 0044 0532 0130 00']),
    );
    await app.handlers['uploads.add']({
      paths: [file],
      metadata: { event_type: 'invoice', amount: { value: 31.4, currency: 'EUR' }, due_date: localDay(20).iso },
    });
    const doc = await until(
      async () =>
        (await syncedDocuments(app, 20)).find((d) => d.original_filename === name && d.status === 'completed'),
      'the bill processed and synced',
      60_000,
    );
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('library-sync').waitFor();
    // A title the list or Due cuts with "…" is whole on hover.
    const row = page.locator(`[data-testid=library-row][data-id="${doc.id}"]`);
    expect(await row.locator('.t').getAttribute('title')).toBe(doc.title);
    await page.goto(`${shellBase(session.desktop.shell)}#/due`);
    expect(await page.getByTestId('due-item-link').first().getAttribute('title')).toBe(doc.title);
    await page.goto(`${shellBase(session.desktop.shell)}#/document/${doc.id}`);
    await page.getByTestId('doc-payment').waitFor();
    await expect.poll(() => page.getByTestId('tab-events').textContent()).toBe('Events (1)');

    await page.getByTestId('doc-delete').click();
    // Deleting goes back to the library; the deleted document is opened again, as from the Deleted view.
    await page.getByTestId('library-sync').waitFor();
    await page.goto(`${shellBase(session.desktop.shell)}#/document/${doc.id}`);
    await page.getByTestId('doc-restore').waitFor();
    await page.getByTestId('tab-events').click();
    expect((await page.getByTestId('doc-no-events').textContent())?.trim()).toBe(
      'The events of a deleted document are hidden until it is restored.',
    );
    expect(await page.getByTestId('tab-events').textContent()).toBe('Events');
    expect(await page.getByTestId('doc-payment').count()).toBe(0);

    await page.getByTestId('doc-restore').click();
    await page.getByTestId('doc-payment').waitFor();
    await expect.poll(() => page.getByTestId('tab-events').textContent()).toBe('Events (1)');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
