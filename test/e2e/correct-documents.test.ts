/**
 * Correcting documents end to end (issue 14, item 6): on the Document screen the details form changes title, sender,
 * date, type, category and tags (as chips), the change goes to the service (PATCH) and shows at once; in the library a
 * selection is edited in bulk, one PATCH per document, with its progress and the documents that could not be changed
 * named. Local mode, browser shell, Chromium; the embedded service and its learning are the real ones.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/archive-harness.ts';
import { corruptEntry } from '../pipeline/pipeline-fixtures.ts';
import {
  axeViolations,
  e2eSession,
  inGerman,
  recordedToasts,
  shoot,
  syncedDocuments,
  until,
  shellBase,
} from './e2e-harness.ts';

const session = e2eSession('correct-documents');

const billOf = (name: string): Promise<Uint8Array> =>
  makePdf([`Stadtwerke Beispiel GmbH`, `Rechnung ${name}`, 'Betrag 42,00 EUR']);

/** Uploads files (a small bill by default) through the journal and waits until the library has each one completed. */
async function completedDocuments(
  names: string[],
  metadata: { event_type?: 'invoice' } = {},
  contentOf: (name: string) => Promise<Uint8Array> = billOf,
): Promise<Map<string, string>> {
  const { app } = session.desktop;
  const paths: string[] = [];
  for (const name of names) {
    const path = join(session.dir, name);
    await writeFile(path, await contentOf(name));
    paths.push(path);
  }
  await app.handlers['uploads.add']({ paths, metadata });
  return until(
    async () => {
      const items = await syncedDocuments(app);
      const done = new Map(items.filter((d) => d.status === 'completed').map((d) => [d.original_filename, d.id]));
      return names.every((name) => done.has(name)) ? done : undefined;
    },
    `${names.join(', ')} processed`,
    90_000,
  );
}

describe('correcting documents (browser shell, Chromium)', () => {
  it('corrects one document on its screen: shown at once, sent to the service, kept as hand edits', async () => {
    const { app, shell } = session.desktop;
    const ids = await completedDocuments(['scan_0001.pdf']);
    const id = ids.get('scan_0001.pdf')!;
    const before = await app.handlers['documents.get']({ id });
    const { page, pageErrors } = session.opened;
    await page.goto(shell.url);
    await page.getByTestId('library-sync').waitFor();
    await page.goto(`${shellBase(shell)}#/document/${id}`);
    await page.getByTestId('doc-edit-open').click();
    const form = page.getByTestId('doc-edit-form');
    await form.waitFor();
    // The keyboard starts in the title.
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('doc-edit-title');

    // Checked before anything is sent, next to the field.
    await form.getByTestId('doc-edit-title').fill('   ');
    await form.getByTestId('doc-edit-save').click();
    await expect.poll(() => form.getByTestId('doc-edit-title-error').textContent()).toBe('Enter a title.');

    await form.getByTestId('doc-edit-title').fill('Strom November 2026');
    expect(await form.getByTestId('doc-edit-title-error').count()).toBe(0);
    await form.getByTestId('doc-edit-sender').fill('Stadtwerke Musterstadt');
    // The date as the UI's language writes it (not the browser's date input, which follows the OS's locale).
    const dateField = form.getByTestId('doc-edit-date');
    await dateField.fill('11/31/2026');
    await form.getByTestId('doc-edit-save').click();
    await expect
      .poll(() => form.getByTestId('doc-edit-document_date-error').textContent())
      .toBe('Enter the date as MM/DD/YYYY.');
    expect(await dateField.getAttribute('aria-invalid')).toBe('true');
    await dateField.fill('11/3/26');
    await dateField.blur();
    expect(await dateField.inputValue()).toBe('11/03/2026');
    await form.getByTestId('doc-edit-type').selectOption('contract');
    // Tags as chips: Enter adds one, a comma separates two, × takes one away.
    const tagInput = form.getByTestId('doc-edit-tags-input');
    await tagInput.fill('Strom');
    await tagInput.press('Enter');
    await tagInput.fill('Haus, Keller');
    await tagInput.press('Enter');
    const chips = form.locator('[data-testid=tag-chip] > span');
    expect(await chips.allTextContents()).toEqual([...before.tags, 'Strom', 'Haus', 'Keller']);
    await form.getByRole('button', { name: 'Remove the tag Keller' }).click();
    for (const tag of before.tags) await form.getByRole('button', { name: `Remove the tag ${tag}` }).click();
    // Backspace in the empty field takes back the last chip; typed again, it is back.
    await tagInput.press('Backspace');
    expect(await chips.allTextContents()).toEqual(['Strom']);
    await tagInput.fill('Haus');
    await tagInput.press('Enter');
    expect(await chips.allTextContents()).toEqual(['Strom', 'Haus']);
    await shoot(page, 'document-edit-form');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByTestId('doc-edit-save').click();

    // Shown at once: the answer of the PATCH, no sync in between.
    await expect.poll(() => page.getByTestId('doc-title').textContent()).toBe('Strom November 2026');
    expect(await page.getByTestId('doc-sender').textContent()).toBe('Stadtwerke Musterstadt');
    expect(await page.getByTestId('doc-type').textContent()).toBe('Contract');
    expect(await page.getByTestId('doc-date').textContent()).toBe('Nov 3, 2026');
    expect(await page.getByTestId('doc-tag').allTextContents()).toEqual(['Haus', 'Strom']);
    expect(
      (await recordedToasts(page)).some((toast) =>
        toast.startsWith('Saved. Later documents from this sender learn from the correction.'),
      ),
    ).toBe(true);
    // Focus goes back to the button that opened the form.
    expect(await page.evaluate('document.activeElement && document.activeElement.dataset.testid')).toBe(
      'doc-edit-open',
    );

    // The service has them, as hand edits (what reprocessing keeps and the learning reads).
    const detail = await app.handlers['documents.get']({ id });
    expect(detail).toMatchObject({
      title: 'Strom November 2026',
      sender_name: 'Stadtwerke Musterstadt',
      document_date: '2026-11-03',
      tags: ['Haus', 'Strom'],
    });
    expect(detail.extracted_data).toMatchObject({
      title: { source: 'edit' },
      sender_name: { value: 'Stadtwerke Musterstadt', source: 'edit' },
      event_type: { value: 'contract', source: 'edit' },
    });

    // In German the same date reads and is typed day first.
    await app.handlers['settings.update']({ ui: { language: 'de' } });
    await page.reload();
    await page.getByTestId('doc-edit-open').click();
    const german = page.getByTestId('doc-edit-date');
    await expect.poll(() => german.inputValue()).toBe('03.11.2026');
    expect(await german.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    await german.fill('4.11.2026');
    await page.getByTestId('doc-edit-save').click();
    await expect.poll(async () => (await app.handlers['documents.get']({ id })).document_date).toBe('2026-11-04');
    await app.handlers['settings.update']({ ui: { language: 'en' } });
    await page.reload();
    await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('edits a selection in bulk: one PATCH per document, progress, and the one that could not be changed named', async () => {
    const { app, shell } = session.desktop;
    const ids = await completedDocuments(['bulk_a.pdf', 'bulk_b.pdf', 'bulk_c.pdf'], { event_type: 'invoice' });
    // The correction above was learned for its sender: these later bills of the same sender came with its tags.
    const before = new Map<string, string[]>();
    for (const [name, id] of ids) before.set(name, (await app.handlers['documents.get']({ id })).tags);
    for (const tags of before.values()) expect(tags).toEqual(expect.arrayContaining(['Haus', 'Strom']));
    const { page, pageErrors } = session.opened;
    await page.goto(shell.url);
    const rowOf = (name: string) => page.locator(`[data-testid=library-row][data-id="${ids.get(name)}"]`);
    await rowOf('bulk_c.pdf').waitFor();
    for (const name of ['bulk_a.pdf', 'bulk_b.pdf', 'bulk_c.pdf']) await rowOf(name).getByTestId('row-select').check();
    // One of them is deleted behind the library's back: its PATCH answers 404, the others go through.
    await app.handlers['documents.delete']({ ids: [ids.get('bulk_b.pdf')!] });

    await page.getByTestId('bulk-edit-open').click();
    const dialog = page.getByTestId('bulk-edit');
    await dialog.waitFor();
    // Nothing asked for: nothing sent.
    await dialog.getByTestId('bulk-edit-apply').click();
    await expect.poll(() => dialog.getByTestId('bulk-edit-error').textContent()).toBe('Choose at least one change.');
    await dialog.getByTestId('bulk-edit-type').selectOption('receipt');
    await dialog.getByTestId('bulk-add-tags-input').fill('Bulk');
    await dialog.getByTestId('bulk-add-tags-input').press('Enter');
    await shoot(page, 'library-bulk-edit');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByTestId('bulk-edit-apply').click();

    await expect.poll(() => dialog.getByTestId('bulk-edit-progress').textContent()).toContain('3 of 3 documents');
    const failed = dialog.getByTestId('bulk-edit-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toMatch(
      /^1 document could not be changed:.*\(bulk_b\.pdf\): The document does not exist or is not accessible\.$/,
    );
    expect((await recordedToasts(page)).some((toast) => toast.startsWith('2 documents updated.'))).toBe(true);
    await shoot(page, 'library-bulk-edit-result');

    for (const name of ['bulk_a.pdf', 'bulk_c.pdf']) {
      const detail = await app.handlers['documents.get']({ id: ids.get(name)! });
      // Added to each document's own tags, which it keeps.
      expect(detail.tags).toEqual([...before.get(name)!, 'Bulk'].sort());
      expect(detail.extracted_data).toMatchObject({ event_type: { value: 'receipt', source: 'edit' } });
    }
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it("shows the service's processing notes and failure reasons in the UI's language, the service's words on hover", async () => {
    const { app, shell } = session.desktop;
    const docx = await readFile(resolve(import.meta.dirname, '../fixtures/formats/sample.docx'));
    const ids = await completedDocuments(['kaputt.docx'], {}, async () => corruptEntry(docx, 'word/document.xml'));
    await inGerman(app, async () => {
      const { page, pageErrors } = session.opened;
      await page.goto(`${shellBase(shell)}#/document/${ids.get('kaputt.docx')}`);
      await page.reload();
      const note = page.getByTestId('doc-processing-note').locator('p');
      expect(await note.textContent()).toMatch(
        /^Die DOCX-Datei ließ sich nicht lesen \(.+\); es wurde kein Text entnommen\.$/,
      );
      expect(await note.getAttribute('title')).toMatch(
        /^The DOCX file could not be read \(.+\); no text was extracted\.$/,
      );
      await shoot(page, 'document-processing-note-de');

      // A PDF that pdf.js cannot read fails; the screen names the reason, without repeating that it failed.
      const broken = join(session.dir, 'kaputt.pdf');
      await writeFile(broken, '%PDF-1.4\nnothing a PDF reader could use\n');
      await app.handlers['uploads.add']({ paths: [broken] });
      const failedId = await until(
        async () =>
          (await syncedDocuments(app)).find((d) => d.original_filename === 'kaputt.pdf' && d.status === 'failed')?.id,
        'kaputt.pdf failed',
        90_000,
      );
      await page.goto(`${shellBase(shell)}#/document/${failedId}`);
      const failure = page.getByTestId('doc-processing-error');
      expect(await failure.textContent()).toMatch(/^Das PDF ließ sich nicht lesen \(.+\)$/);
      expect(await failure.getAttribute('title')).toMatch(/^Processing failed: The PDF could not be read \(.+\)$/);
      expect(pageErrors).toEqual([]);
    });
  }, 120_000);
});
