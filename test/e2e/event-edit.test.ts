/**
 * Hand edits of an event end to end: an invoice uploaded without an amount is in needs_input; on the Document screen's
 * Events tab its prompt opens the edit form, the amount and due date typed there are saved through events.update,
 * and the event is open at once, in the document and in Due. Local mode, browser shell.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/archive-harness.ts';
import { axeViolations, e2eSession, localDay, shoot, syncedDocuments, until, shellBase } from './e2e-harness.ts';

const session = e2eSession('event-edit');

describe('editing an event (browser shell, Chromium)', () => {
  it('gives a needs_input invoice its amount: open at once, listed as due', async () => {
    const { app } = session.desktop;
    const file = join(session.dir, 'Rechnung ohne Betrag.pdf');
    await writeFile(
      file,
      await makePdf(['Stadtwerke Beispiel GmbH', 'Rechnung Nr. 815', 'Bitte überweisen Sie den Betrag.']),
    );
    await app.handlers['uploads.add']({ paths: [file], metadata: { event_type: 'invoice' } });
    const event = await until(
      async () => {
        const doc = (await syncedDocuments(app, 10)).find(
          (d) => d.original_filename === 'Rechnung ohne Betrag.pdf' && d.status === 'completed',
        );
        if (!doc) return undefined;
        return (await app.handlers['events.list']({ document_id: doc.id, limit: 10, offset: 0 })).items[0];
      },
      'the invoice processed and synced',
      60_000,
    );
    expect(event.state).toBe('needs_input');

    const { page } = session.opened;
    await page.goto(session.desktop.shell.url); // the token comes in the first URL's hash
    await page.getByTestId('library-sync').waitFor();
    await page.goto(`${shellBase(session.desktop.shell)}#/document/${event.document_id}`);
    await page.getByTestId('tab-events').click();
    const row = page.locator(`[data-testid=doc-event][data-event-id="${event.id}"]`);
    await expect.poll(() => row.getByTestId('doc-event-state').textContent()).toBe('Needs input');
    const prompt = row.getByTestId('doc-event-prompt');
    expect(await prompt.textContent()).toBe('Amount missing — add it');
    await shoot(page, 'document-event-needs-input');
    expect(await axeViolations(page)).toEqual([]);
    await prompt.click();

    // The form opens with the cursor in the amount, prefilled from the event (EUR as the currency to start with).
    const form = row.getByTestId('event-form');
    await form.waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.dataset.testid')).toBe(
      'event-form-amount',
    );
    expect(await form.getByTestId('event-form-type').inputValue()).toBe('invoice');
    expect(await form.getByTestId('event-form-currency').inputValue()).toBe('EUR');

    // Checked in the renderer before anything is sent: the message stands next to its field.
    await form.getByLabel('Amount').fill('zwölf');
    await form.getByLabel('Currency').fill('E1');
    await form.getByTestId('event-form-save').click();
    await expect
      .poll(() => form.locator('#ev-' + event.id + '-amount-err').textContent())
      .toBe('Enter a number, e.g. 89.50.');
    expect(await form.locator('#ev-' + event.id + '-currency-err').textContent()).toBe(
      'Use a three-letter code such as EUR.',
    );
    expect(await form.getByLabel('Amount').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);

    const due = localDay(10);
    await form.getByLabel('Amount').fill('42,50');
    await form.getByLabel('Currency').fill('eur');
    await form.getByLabel('Due date').fill(due.iso);
    await form.getByLabel('Reference number').fill('R-815');
    expect(await form.locator('.error').count()).toBe(0); // each message went with its field's new value
    await shoot(page, 'document-event-edit');
    await form.getByLabel('Reference number').press('Enter');

    await expect.poll(() => row.getByTestId('doc-event-state').textContent()).toBe('Open');
    expect(await row.getByTestId('doc-event-amount').textContent()).toMatch(/42\.50/);
    expect(await row.getByTestId('doc-event-prompt').count()).toBe(0);
    expect(await row.getByTestId('event-form').count()).toBe(0);
    // Focus returns to the event's Edit button (keyboard users stay where they were).
    expect(await page.evaluate('document.activeElement && document.activeElement.dataset.testid')).toBe(
      'doc-event-edit',
    );
    await shoot(page, 'document-event-edited');

    // Escape closes a reopened form without leaving the document.
    await row.getByTestId('doc-event-edit').press('Enter');
    await form.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => row.getByTestId('event-form').count()).toBe(0);
    expect(page.url()).toContain(`#/document/${event.document_id}`);

    // Due lists it with the amount, without a sync in between.
    await page.goto(`${shellBase(session.desktop.shell)}#/due`);
    const item = page.locator(`[data-testid=due-item][data-id="${event.id}"]`);
    await item.waitFor();
    expect(await item.getAttribute('data-state')).toBe('open');
    expect(await item.textContent()).toMatch(/42\.50/);

    // What the service refuses is shown in the form, which stays open with what was typed: here the document was
    // deleted elsewhere meanwhile (no sync in between, so the event is still listed).
    await page.goto(`${shellBase(session.desktop.shell)}#/document/${event.document_id}`);
    await page.getByTestId('tab-events').click();
    await row.getByTestId('doc-event-edit').click();
    await form.waitFor();
    // Straight through the client, as another device would: the app hears of it only at its next sync.
    await app.core.client.deleteDocument(event.document_id);
    await form.getByLabel('Amount').fill('50');
    await form.getByTestId('event-form-save').click();
    await expect
      .poll(() => form.getByTestId('event-form-error').textContent())
      .toBe('The archive did not save the change: The event does not exist or is not accessible.');
    expect(await form.getByLabel('Amount').inputValue()).toBe('50');
    expect(session.opened.pageErrors).toEqual([]);
  }, 150_000);
});
