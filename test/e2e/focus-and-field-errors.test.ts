/**
 * Keyboard focus after actions that remove what had it, and messages under the field they are about (a UI audit,
 * findings 8 and 13): the welcome guide's Next, the library's Reset filters, Undo on the delete toast and Due's Mark
 * paid keep focus on a control instead of dropping it to the page; a relative Move to is marked on Move to; a message
 * goes once its field was changed (Browse… in the guide, the local archive chosen again in Settings). Local mode,
 * browser shell, Chromium. Names and numbers are invented.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseCallInput, type EventView } from '../../common/ipc.ts';
import { addBill, e2eSession, localDay, shellBase } from './e2e-harness.ts';

const session = e2eSession('focus-errors', { ui: { onboarded: true } }, { homeFolders: ['Papers', 'Letters'] });
const base = () => shellBase(session.desktop.shell);

/** What has focus: its test id, else its id, else its tag (BODY when focus fell back to the page). */
const focused = (page: Page): Promise<unknown> =>
  page.evaluate(
    'document.activeElement?.dataset?.testid || document.activeElement?.id || document.activeElement?.tagName',
  );

/** Uploads a PDF as an invoice due on `due` and waits until its event is synced. */
const addInvoice = (name: string, lines: string[], due: string): Promise<EventView> =>
  addBill(
    session,
    name,
    lines,
    { event_type: 'invoice', amount: { value: 42.5, currency: 'EUR' }, due_date: due },
    90_000,
  );

describe('focus after actions, and messages under their fields (browser shell, Chromium)', () => {
  it('the welcome guide focuses each new step, and a folder picked with Browse… clears the message', async () => {
    const { page, pageErrors } = session.opened;
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('library-sync').waitFor();
    await page.goto(`${base()}#/welcome`);
    await page.getByTestId('onboarding-next').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('onboarding-step-2').waitFor();
    await expect.poll(() => focused(page)).toBe('w2');

    const path = page.getByTestId('folder-path');
    await path.fill('/nonexistent/quillfield-scans');
    await page.getByTestId('folder-save').click();
    await expect
      .poll(() => page.getByTestId('folder-error').textContent())
      .toBe('Folder not found: /nonexistent/quillfield-scans');
    expect(await path.getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('folder-browse').click();
    const browserDialog = page.getByTestId('folder-browser');
    await browserDialog.getByTestId('folder-browser-entry').filter({ hasText: 'Papers' }).click();
    await expect
      .poll(() => browserDialog.getByTestId('folder-browser-path').textContent())
      .toBe(join(session.dir, 'home', 'Papers'));
    await browserDialog.getByTestId('folder-browser-choose').click();
    await expect.poll(() => path.inputValue()).toBe(join(session.dir, 'home', 'Papers'));
    await expect.poll(() => page.getByTestId('folder-error').count()).toBe(0);
    expect(await path.getAttribute('aria-invalid')).toBe('false');

    await page.getByTestId('folder-save').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('onboarding-step-3').waitFor();
    await expect.poll(() => focused(page)).toBe('w3');
    await page.getByTestId('onboarding-finish').click();
    await page.getByTestId('library').waitFor();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it("marks a relative Move to on Move to, and drops a connection test's message once the local archive is chosen", async () => {
    const { page, pageErrors } = session.opened;
    const letters = await session.desktop.app.handlers['folders.save'](
      parseCallInput('folders.save', { path: join(session.dir, 'home', 'Letters') }),
    );
    await page.goto(`${base()}#/settings`);
    const row = page.locator(`[data-testid=folder-row][data-id="${letters.id}"]`);
    await row.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByTestId('folder-after').selectOption('move');
    const moveTo = page.getByTestId('folder-move-to');
    await moveTo.fill('Filed');
    await page.getByTestId('folder-save').click();
    await expect.poll(() => page.getByTestId('folder-move-error').textContent()).toMatch(/full path/);
    expect(await moveTo.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('folder-path').getAttribute('aria-invalid')).toBe('false');
    expect(await page.getByTestId('folder-error').count()).toBe(0);
    await moveTo.fill(join(session.dir, 'home', 'Filed'));
    await expect.poll(() => page.getByTestId('folder-move-error').count()).toBe(0);
    expect(await moveTo.getAttribute('aria-invalid')).toBe('false');
    await page.getByTestId('folder-form').getByRole('button', { name: 'Cancel', exact: true }).click();

    await page.getByTestId('mode-hosted').check();
    await page.getByTestId('base-url').fill('');
    await page.getByTestId('connection-test').click();
    await page.getByTestId('connection-test-error').waitFor();
    await page.getByTestId('mode-local').check();
    await expect.poll(() => page.getByTestId('connection-test-error').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('keeps focus on a control after Reset filters, Undo on the delete toast and Mark paid', async () => {
    const { page, pageErrors } = session.opened;
    const bills = [
      await addInvoice(
        'quillfield-water.pdf',
        ['Quillfield Water Ltd', 'Invoice QW-1001', 'Total 42.50 EUR'],
        localDay(3).iso,
      ),
      await addInvoice(
        'brightpeak-gym.pdf',
        ['Brightpeak Fitness', 'Invoice BF-2002', 'Total 42.50 EUR'],
        localDay(5).iso,
      ),
      await addInvoice(
        'northwind-fibre.pdf',
        ['Northwind Fibre', 'Invoice NF-3003', 'Total 42.50 EUR'],
        localDay(6).iso,
      ),
    ];

    await page.goto(`${base()}#/library`);
    await expect
      .poll(async () => {
        await page.getByTestId('library-sync').click();
        return page.locator('[data-testid=library-row][data-id]').count();
      })
      .toBe(3);
    await page.getByTestId('filter-toggle').click();
    await page.getByTestId('filter-status').selectOption('completed');
    await page.getByTestId('filter-reset').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('filter-reset').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('filter-toggle');

    // Delete from the list with the keyboard, Tab to Undo: focus comes back to the list.
    await page.getByTestId('library-list').focus();
    await page.keyboard.press('x');
    await page.keyboard.press('Delete');
    await expect.poll(() => page.locator('[data-testid=library-row][data-id]').count()).toBe(2);
    for (let i = 0; i < 30 && (await focused(page)) !== 'toast-action'; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('toast-action');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid=library-row][data-id]').count()).toBe(3);
    await expect.poll(() => focused(page)).toBe('library-list');

    // Mark paid: the next row's button, then the previous row's, then the list once nothing is left.
    await page.goto(`${base()}#/due`);
    const item = (bill: EventView) => page.locator(`[data-testid=due-item][data-id="${bill.id}"]`);
    const [first, second, third] = bills as [EventView, EventView, EventView];
    await item(third).waitFor();
    await item(first).getByTestId('due-mark-paid').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item(first).count()).toBe(0);
    await expect
      .poll(() => page.evaluate('document.activeElement?.closest("[data-testid=due-item]")?.dataset.id'))
      .toBe(second.id);
    expect(await focused(page)).toBe('due-mark-paid');
    await item(third).getByTestId('due-mark-paid').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => item(third).count()).toBe(0);
    await expect
      .poll(() => page.evaluate('document.activeElement?.closest("[data-testid=due-item]")?.dataset.id'))
      .toBe(second.id);
    await page.keyboard.press('Enter');
    await page.getByTestId('due-empty').waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.hasAttribute("data-main-region")')).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 300_000);
});
