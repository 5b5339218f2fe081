/**
 * TIFF scans end to end: Chromium cannot show TIFF, so the renderer decodes the first page (utif2) and shows it as a
 * PNG, in the document preview and as the grid thumbnail. Local mode, browser shell, a real scan from the corpus.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eSession, openFirstDocument, ROOT, shoot, shellBase } from './e2e-harness.ts';

/** What an <img> knows of its decoded picture (the DOM types are not part of the Node test program). */
interface Pixels {
  naturalWidth: number;
  naturalHeight: number;
}

const session = e2eSession('tiff');

describe('TIFF scans (browser shell, Chromium)', () => {
  it('preview their first page and have a grid thumbnail', async () => {
    const scan = join(session.dir, 'Scan-0027.tif');
    await copyFile(join(ROOT, 'test', 'fixtures', 'corpus', 'doc-27.tif'), scan);
    await session.desktop.app.handlers['uploads.add']({ paths: [scan] });
    const { page } = session.opened;
    await openFirstDocument(page, session.desktop.shell.url);
    const image = page.getByTestId('doc-image');
    await image.waitFor();
    await expect
      .poll(() =>
        image.evaluate((img) => [(img as unknown as Pixels).naturalWidth, (img as unknown as Pixels).naturalHeight]),
      )
      .toEqual([1654, 2339]);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    await shoot(page, 'document-tiff');

    await page.goto(`${shellBase(session.desktop.shell)}#/library`);
    await page.getByTestId('view-grid').click();
    const thumb = page.locator('[data-testid=thumb] img');
    await thumb.first().waitFor();
    await expect.poll(() => thumb.first().evaluate((img) => (img as unknown as Pixels).naturalWidth)).toBe(320);
    await shoot(page, 'library-grid-tiff');
    expect(session.opened.pageErrors).toEqual([]);
  }, 120_000);
});
