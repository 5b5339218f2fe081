/**
 * Statuses follow the service end to end (issue 14, item 2): with the library's periodic sync far away (10 minutes),
 * a file added in the Uploads screen shows in the library as Completed soon after the embedded service finished it,
 * and the document's Events tab counts its event, with nobody pressing "Sync now". Browser shell, Chromium.
 */
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/archive-harness.ts';
import { e2eSession, localDay, until } from './e2e-harness.ts';

const session = e2eSession('status-follow', { ui: { onboarded: true }, sync: { interval_ms: 600_000 } });

describe('statuses follow the service (browser shell, Chromium)', () => {
  it('shows Completed and the event soon after processing, without a sync', async () => {
    const { page, pageErrors } = session.opened;
    const { app, shell } = session.desktop;
    await page.goto(shell.url);
    await page.getByTestId('library-sync').waitFor();
    // The first sync of the app's start is over: from here only the follower can bring news.
    await until(async () => (await app.handlers['status.get'](undefined)).last_sync_at, 'the first sync');

    await page.getByTestId('nav-uploads').click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('upload-choose').click();
    await (
      await chooser
    ).setFiles([
      {
        name: 'Rechnung 9001.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from(
          await makePdf([
            'Stadtwerke Beispiel GmbH',
            'Rechnung Nr. 9001',
            'Gesamtbetrag 12,00 EUR',
            `zahlbar bis ${localDay(14).german}`,
          ]),
        ),
      },
    ]);
    await page.getByTestId('upload-submit').click();
    await page.getByTestId('nav-library').click();

    const row = page.locator('[data-testid=library-row][data-id]').filter({ hasText: 'Rechnung 9001.pdf' });
    await row.waitFor({ timeout: 30_000 });
    // Polled every 200 ms: when the row first says Completed, against when the service finished.
    const shownAt = await until(
      async () => (await row.getAttribute('data-status')) === 'completed' && Date.now(),
      'Completed in the library',
      30_000,
    );
    const id = (await row.getAttribute('data-id'))!;
    const detail = await app.handlers['documents.get']({ id });
    const lagMs = shownAt - Date.parse(detail.processed_at!);
    console.log(`status follow: the library showed Completed ${lagMs} ms after the service finished`);
    // Well below the periodic sync (here 10 minutes, by default one): the follower brought it.
    expect(lagMs).toBeLessThan(10_000);
    expect(await row.getByTestId('status-chip').textContent()).toBe('Completed');

    await row.locator('a.title').click();
    await expect.poll(() => page.getByTestId('tab-events').textContent()).toBe('Events (1)');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
