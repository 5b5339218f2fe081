/**
 * Offline and back, end to end: the app in hosted mode talks to a real Archive Service through a fault proxy. With
 * the proxy down, a file added in the Uploads screen waits in the queue and the window says so; when the proxy is
 * back, the upload goes out by itself and the document reaches the library.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';
import {
  axeViolations,
  ensureRenderer,
  launchChromium,
  openPage,
  shoot,
  startDesktop,
  type DesktopUnderTest,
  type OpenedPage,
} from './e2e-harness.ts';

let dir: string;
let service: Harness;
let proxy: FaultProxy;
let desktop: DesktopUnderTest;
let browser: Browser;
let opened: OpenedPage;

beforeAll(async () => {
  await ensureRenderer();
  dir = await mkdtemp(join(tmpdir(), 'e2e-offline-'));
  service = await startHarness();
  proxy = await startFaultProxy(service.url);
  desktop = await startDesktop({
    dir,
    apiKeyOverride: service.adminKey,
    settings: { connection: { mode: 'hosted', base_url: proxy.url }, sync: { interval_ms: 5_000 } },
  });
  browser = await launchChromium();
  opened = await openPage(browser, { onboarded: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await desktop?.close();
  await proxy?.close();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (opened?.consoleProblems.length) console.log(`browser console (offline):\n${opened.consoleProblems.join('\n')}`);
});

describe('offline uploads in hosted mode (browser shell, Chromium, fault proxy)', () => {
  it('queues an upload while the service is unreachable and sends it when it is back', async () => {
    const { page } = opened;
    await page.goto(desktop.shell.url);
    const connection = page.getByTestId('connection-state');
    await connection.locator('.dot.on').waitFor();
    await expect(connection.textContent()).resolves.toMatch(/Online.*Hosted service/s);

    await proxy.offline();
    const file = join(dir, 'Angebot-2026-07.pdf');
    await writeFile(
      file,
      await makePdf(['Beispiel Handwerk GmbH', 'Angebot Nr. 2026-07', 'Gesamtbetrag 1.250,00 EUR']),
    );
    await page.getByTestId('nav-uploads').click();
    await page.getByTestId('upload-paths').fill(file);
    await page.getByTestId('upload-submit').click();

    const banner = page.getByTestId('offline-banner');
    await banner.waitFor({ timeout: 30_000 });
    await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toMatch(/^Offline — .+\. 1 upload queued\.$/);
    const row = page.getByTestId('upload-row');
    await expect.poll(() => row.first().getAttribute('data-state'), { timeout: 15_000 }).toBe('waiting');
    await expect(row.first().textContent()).resolves.toContain('Angebot-2026-07.pdf');
    await expect.poll(() => page.getByTestId('nav-uploads-count').textContent(), { timeout: 10_000 }).toBe('1');
    await expect(connection.textContent()).resolves.toContain('Offline');
    expect((await service.api('/v1/documents').then((r) => r.json())) as { total: number }).toMatchObject({ total: 0 });
    expect((await axeViolations(page)).map((v) => `${v.scheme}: ${v.id} ${v.nodes.join(' | ')}`)).toEqual([]);
    await shoot(page, 'uploads-offline');

    await proxy.online();
    // The journal probes the service with growing pauses (1 s, 2 s, 4 s, …): the upload goes out within one of them.
    await expect.poll(() => row.first().getAttribute('data-state'), { timeout: 45_000, interval: 250 }).toBe('done');
    await banner.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => page.getByTestId('nav-uploads-count').count(), { timeout: 10_000 }).toBe(0);
    await shoot(page, 'uploads-back-online');

    const listed = (await service.api('/v1/documents').then((r) => r.json())) as {
      total: number;
      items: Array<{ original_filename: string }>;
    };
    expect(listed.total).toBe(1);
    expect(listed.items[0]!.original_filename).toBe('Angebot-2026-07.pdf');
    await page.getByTestId('nav-library').click();
    await page.locator('[data-testid=library-row][data-id]').first().waitFor({ timeout: 20_000 });
    await expect(page.locator('[data-testid=library-row][data-id]').first().textContent()).resolves.toContain(
      'Angebot-2026-07.pdf',
    );
  }, 120_000);

  it('raised no uncaught error in the page', () => {
    expect(opened.pageErrors).toEqual([]);
  });
});
