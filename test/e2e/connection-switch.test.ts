/**
 * Switching the connection in Settings end to end (issue 14, item 1): local → hosted is tried with its key before it is
 * saved (a wrong key saves nothing and says why), a good one is saved with the key reaching the hosted service (no
 * "refused the key" banner while the sidebar says Online), and local → hosted → local → hosted in a row ends where the
 * last save said. The hosted service is a real Archive Service on loopback; browser shell, Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { e2eSession, recordedToasts, shoot, until } from './e2e-harness.ts';

const session = e2eSession('connection-switch');
let hosted: Harness;

beforeAll(async () => {
  hosted = await startHarness();
  const upload = await hosted.upload(
    { bytes: await makePdf(['Hosted only', 'Rechnung 77']), name: 'hosted-only.pdf' },
    { metadata: { title: 'Only on the hosted service' } },
  );
  expect(upload.status).toBe(202);
}, 60_000);

afterAll(async () => {
  await hosted?.close();
});

describe('switching the connection in Settings (browser shell, Chromium)', () => {
  it('tests a hosted service before saving it, saves it with its key, and switches back and forth', async () => {
    const { page, pageErrors } = session.opened;
    const { app } = session.desktop;
    const sidebar = page.getByTestId('connection-state');
    await page.goto(session.desktop.shell.url);
    await page.getByTestId('nav-settings').click();
    await expect.poll(() => sidebar.textContent()).toMatch(/Online\s*Local archive/);

    /** Without a key: the one stored for this service before. */
    const toHosted = async (key?: string): Promise<void> => {
      await page.getByTestId('mode-hosted').check();
      await page.getByTestId('base-url').fill(hosted.url);
      if (key) await page.getByTestId('api-key').fill(key);
      await page.getByTestId('connection-save').click();
    };
    const toLocal = async (): Promise<void> => {
      await page.getByTestId('mode-local').check();
      await page.getByTestId('connection-save').click();
    };

    // An address that is not http(s): a plain sentence, the schema's words ("base_url: …") only on hover.
    await page.getByTestId('mode-hosted').check();
    await page.getByTestId('base-url').fill('ftp://archive.invalid');
    await page.getByTestId('connection-save').click();
    const urlError = page.getByTestId('connection-test-error');
    await expect.poll(() => urlError.textContent()).toBe('Enter the service URL, starting with http:// or https://');
    expect(await urlError.getAttribute('title')).toBe('base_url: base_url must be an http(s) URL');
    expect((await app.handlers['settings.get'](undefined)).connection.mode).toBe('local');

    // A wrong key: the test before saving fails, and nothing is saved.
    await toHosted('ak_wrong');
    await page.getByTestId('connection-test-error').waitFor();
    // The service's message in the UI's words (renderer/src/lib/service-messages.ts).
    expect(await page.getByTestId('connection-test-error').textContent()).toBe('The API key is missing or not valid.');
    expect((await app.handlers['settings.get'](undefined)).connection.mode).toBe('local');
    expect(await sidebar.textContent()).toMatch(/Local archive/);
    await shoot(page, 'settings-hosted-wrong-key');

    // The right one: tried, saved, the key stored for the new service, online, no refused-key banner.
    await toHosted(hosted.adminKey);
    await until(
      async () => (await recordedToasts(page)).some((toast) => toast.startsWith('The key is stored')),
      'the key saved',
    );
    await expect.poll(() => sidebar.textContent()).toMatch(/Online\s*Hosted service/);
    expect(await page.getByTestId('auth-banner').count()).toBe(0);
    expect(await app.handlers['status.get'](undefined)).toMatchObject({
      mode: 'hosted',
      base_url: hosted.url,
      online: true,
      auth_required: false,
    });
    await shoot(page, 'settings-hosted-saved');

    // Its library is the hosted service's.
    await page.getByTestId('nav-library').click();
    await expect
      .poll(
        async () => {
          await page.getByTestId('library-sync').click();
          return page.locator('[data-testid=library-row][data-id]').allTextContents();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual([expect.stringContaining('Only on the hosted service')]);

    // Back and forth: local, hosted (the key is remembered for it), local, hosted; each save waits for the switch.
    await page.getByTestId('nav-settings').click();
    for (let round = 0; round < 2; round++) {
      await toLocal();
      await expect.poll(() => sidebar.textContent()).toMatch(/Online\s*Local archive/);
      await toHosted();
      await expect.poll(() => sidebar.textContent()).toMatch(/Online\s*Hosted service/);
    }
    expect(await app.handlers['status.get'](undefined)).toMatchObject({
      mode: 'hosted',
      online: true,
      auth_required: false,
      reason: null,
    });
    expect(await page.getByTestId('auth-banner').count()).toBe(0);
    expect(session.desktop.logs.filter((line) => /database is not open/i.test(line))).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
