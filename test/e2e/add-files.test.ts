/**
 * Adding files end to end (issue 14, item 7), in the browser shell, which is never told where a file lives: files chosen
 * with "Choose files…" and files dropped on the window are streamed to the shell's upload route and queued in the real
 * journal, then uploaded to the embedded service; a file the service cannot read fails with its message; "Browse…"
 * for a watched folder opens the app's own browser of the home folder, which chooses a folder that is then watched.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCallInput } from '../../common/ipc.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { axeViolations, e2eSession, inGerman, recordedToasts, shoot, until } from './e2e-harness.ts';

const session = e2eSession('add-files', { ui: { onboarded: true } }, { homeFolders: ['Scans/Inbox', 'Documents'] });

/** The names of the copies of chosen files the app keeps (one folder each). */
async function keptCopies(): Promise<string[]> {
  const root = join(session.dir, 'data', 'chosen-files');
  const folders = await readdir(root).catch(() => []);
  return (await Promise.all(folders.map((folder) => readdir(join(root, folder))))).flat().sort();
}

const toasted = async (start: string): Promise<boolean> =>
  (await recordedToasts(session.opened.page)).some((toast) => toast.startsWith(start));

/** The queue row of a file once it is done (or failed), with the document it became. */
async function finished(
  fileName: string,
): Promise<{ state: string; document_id: string | null; last_error: string | null }> {
  return until(
    async () => {
      const item = session.desktop.app.core.journal.list({ limit: 50 }).items.find((i) => i.file_name === fileName);
      return item && (item.state === 'done' || item.state === 'failed') ? item : undefined;
    },
    `${fileName} uploaded`,
    60_000,
  );
}

describe('adding files (browser shell, Chromium)', () => {
  it('"Choose files…" streams the chosen files into the queue, with the form\'s metadata', async () => {
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('nav-uploads').click();
    const choose = page.getByTestId('upload-choose');
    await choose.waitFor();
    // The button opens the page's file dialog (in Electron the system's own); here Playwright answers it.
    const chooser = page.waitForEvent('filechooser');
    await choose.click();
    await (
      await chooser
    ).setFiles([
      {
        name: 'Rechnung Strom.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(await makePdf(['Stadtwerke', 'Rechnung Strom'])),
      },
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just text, not a PDF') },
    ]);
    expect(await page.getByTestId('upload-chosen-count').textContent()).toBe('2 files chosen');
    expect(await page.getByTestId('upload-chosen-file').count()).toBe(2);
    await page.locator('details.meta summary').click();
    await page.getByLabel('Title', { exact: true }).fill('Strom Oktober');
    await shoot(page, 'uploads-chosen-files');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('upload-submit').click();
    await until(() => toasted('2 files added to the queue.'), 'the toast');
    expect(await page.getByTestId('upload-chosen-file').count()).toBe(0);

    const good = await finished('Rechnung Strom.pdf');
    expect(good.state).toBe('done');
    const doc = await session.desktop.app.handlers['documents.get']({ id: good.document_id! });
    expect(doc).toMatchObject({ original_filename: 'Rechnung Strom.pdf', title: 'Strom Oktober' });
    // A file the service would refuse fails in the queue with its message, before it spends an upload.
    const bad = await finished('notes.pdf');
    expect(bad).toMatchObject({ state: 'failed', last_error: 'File content does not match any supported format' });
    const badRow = page.locator('[data-testid=upload-row][data-state=failed]');
    // In the UI's words, the service's original on hover.
    await expect
      .poll(async () => (await badRow.getByTestId('upload-error-message').textContent())?.trim())
      .toBe('The file is not in a supported format (PDF, JPEG, PNG, TIFF or Office).');
    expect(await badRow.getByTestId('upload-error-message').getAttribute('title')).toBe(
      'File content does not match any supported format',
    );
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('files dropped on the window wait in the form and go the same way', async () => {
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('library-sync').waitFor();
    const pdf = Buffer.from(await makePdf(['Versicherung', 'Beitragsrechnung'])).toString('base64');
    // A drop as Chromium delivers it: a DataTransfer holding a File, and no path anywhere (the test's tsconfig has no
    // DOM types, so the page's script is a string).
    await page.evaluate(`(() => {
      const bytes = Uint8Array.from(atob('${pdf}'), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.pdf', { type: 'application/pdf' }));
      window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    })()`);
    await page.getByTestId('uploads').waitFor();
    expect(await page.getByTestId('upload-chosen-file').allTextContents()).toEqual([
      expect.stringContaining('dropped.pdf'),
    ]);
    await page.getByTestId('upload-submit').click();
    const item = await finished('dropped.pdf');
    expect(item.state).toBe('done');
    expect((await session.desktop.app.handlers['documents.get']({ id: item.document_id! })).original_filename).toBe(
      'dropped.pdf',
    );
    // The copies the shell kept while the uploads were under way are gone once they are done; the failed one's stays
    // (a retry needs it) until it is removed from the queue.
    await expect.poll(keptCopies).toEqual(['notes.pdf']);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('a typed path that is missing queues nothing: the chosen file waits in the form with the error, then goes once', async () => {
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('nav-uploads').click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('upload-choose').click();
    await (
      await chooser
    ).setFiles([{ name: 'mixed.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await makePdf(['Mixed'])) }]);
    const missing = join(session.dir, 'not-there.pdf');
    await page.getByTestId('upload-paths').fill(missing);
    const queued = (): number =>
      session.desktop.app.core.journal.list({ limit: 200 }).items.filter((i) => i.file_name === 'mixed.pdf').length;
    await page.getByTestId('upload-submit').click();
    await expect.poll(async () => (await page.getByTestId('upload-error').textContent())?.trim()).toContain(missing);
    // Nothing went: the form still holds both parts, so the error is the whole story.
    expect(queued()).toBe(0);
    expect(await page.getByTestId('upload-chosen-file').count()).toBe(1);
    await page.getByTestId('upload-paths').fill('');
    await page.getByTestId('upload-submit').click();
    expect((await finished('mixed.pdf')).state).toBe('done');
    expect(await page.getByTestId('upload-chosen-file').count()).toBe(0);
    expect(queued()).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('"Browse…" opens the app\'s browser of the home folder, and the chosen folder is watched', async () => {
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('folder-add').click();
    await page.getByTestId('folder-browse').click();
    const browserDialog = page.getByTestId('folder-browser');
    await browserDialog.waitFor();
    await expect
      .poll(() => browserDialog.getByTestId('folder-browser-path').textContent())
      .toBe(join(session.dir, 'home'));
    expect(await browserDialog.getByTestId('folder-browser-entry').allTextContents()).toEqual(['Documents', 'Scans']);
    // At the home folder there is nothing above to go to.
    expect(await browserDialog.getByTestId('folder-browser-up').isDisabled()).toBe(true);
    await browserDialog.getByTestId('folder-browser-entry').filter({ hasText: 'Scans' }).click();
    await expect
      .poll(() => browserDialog.getByTestId('folder-browser-path').textContent())
      .toBe(join(session.dir, 'home', 'Scans'));
    await shoot(page, 'settings-folder-browser');
    expect(await axeViolations(page)).toEqual([]);
    await browserDialog.getByTestId('folder-browser-choose').click();
    await expect.poll(() => page.getByTestId('folder-path').inputValue()).toBe(join(session.dir, 'home', 'Scans'));
    await page.getByTestId('folder-save').click();
    await expect
      .poll(async () => (await session.desktop.app.handlers['folders.list'](undefined)).folders.map((f) => f.path))
      .toEqual([join(session.dir, 'home', 'Scans')]);
    await until(() => toasted('Folder saved'), 'the toast');
    // Cancelled: nothing changes.
    await page.getByTestId('folder-add').click();
    await page.getByTestId('folder-browse').click();
    await browserDialog.waitFor();
    await page.keyboard.press('Escape');
    await browserDialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('folder-path').inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("an uploaded file of a watched folder says where it went, or why it is still there, in the UI's language", async () => {
    const { page, pageErrors } = session.opened;
    const { app, shell } = session.desktop;
    /** A new folder of the home folder, watched, whose files are moved to `to` once uploaded. */
    const watchMovingTo = async (name: string, to: string): Promise<{ path: string; id: string }> => {
      const path = join(session.dir, 'home', name);
      await mkdir(path);
      const folder = await app.handlers['folders.save'](
        parseCallInput('folders.save', { path, stability_window_ms: 200, after_upload: { action: 'move', to } }),
      );
      return { path, id: folder.id };
    };
    // Folders of their own: ~/Scans is watched by the test before.
    const archive = join(session.dir, 'home', 'Archiv');
    // The move target's parent is a file: the move cannot happen, whoever runs the test (root passes any permission).
    const blocked = join(session.dir, 'home', 'not-a-folder');
    await writeFile(blocked, 'a file');
    const moving = await watchMovingTo('Incoming', archive);
    const stuck = await watchMovingTo('Stuck', join(blocked, 'Archiv'));
    try {
      await inGerman(app, async () => {
        await writeFile(join(moving.path, 'moved.pdf'), await makePdf('moved by the folder'));
        await writeFile(join(stuck.path, 'stuck.pdf'), await makePdf('left where it was'));
        expect((await finished('moved.pdf')).state).toBe('done');
        expect((await finished('stuck.pdf')).state).toBe('done');
        await page.goto(shell.url);
        await page.getByTestId('nav-uploads').click();
        const after = (name: string) =>
          page.getByTestId('upload-row').filter({ hasText: name }).getByTestId('upload-after');
        expect(await after('moved.pdf').textContent()).toBe(`Verschoben nach ${join(archive, 'moved.pdf')}`);
        const warning = after('stuck.pdf');
        expect(await warning.textContent()).toBe(
          `Hochgeladen, aber die Datei ließ sich nicht nach ${join(blocked, 'Archiv')} verschieben; sie liegt noch am alten Ort`,
        );
        expect(await warning.getAttribute('title')).toMatch(/^Cannot move .*stuck\.pdf to .*: ENOTDIR/);
        await shoot(page, 'uploads-after-de');
        expect(pageErrors).toEqual([]);
      });
    } finally {
      await app.handlers['folders.remove']({ id: moving.id });
      await app.handlers['folders.remove']({ id: stuck.id });
    }
  }, 90_000);

  it("the folder browser's problems are shown in the UI's language", async () => {
    const { page, pageErrors } = session.opened;
    const { app, shell } = session.desktop;
    const gone = join(session.dir, 'home', 'Leaving');
    await mkdir(gone);
    await inGerman(app, async () => {
      await page.goto(shell.url);
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('folder-add').click();
      await page.getByTestId('folder-browse').click();
      const browserDialog = page.getByTestId('folder-browser');
      const entry = browserDialog.getByTestId('folder-browser-entry').filter({ hasText: 'Leaving' });
      await entry.waitFor();
      // The folder goes away between the listing and the click.
      await rm(gone, { recursive: true });
      await entry.click();
      expect(await browserDialog.getByTestId('folder-browser-error').textContent()).toBe(
        `Ordner nicht gefunden: ${gone}`,
      );
      await page.keyboard.press('Escape');
      await browserDialog.waitFor({ state: 'detached' });
      expect(pageErrors).toEqual([]);
    });
  }, 60_000);
});
