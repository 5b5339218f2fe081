import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCallInput } from '../../common/ipc.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { profileId } from '../../main/core/keychain/key-store.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { LEARNABLE_HIGH_LIMITS, makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';

/**
 * After an upload or a reprocess the library follows the documents to a final state: the embedded service pushes its
 * status changes to the app, a hosted one is polled with backoff. The interval sync is set to ten minutes here, and
 * its follow-up of unfinished documents comes after 15 s, so only following explains a status within the wait.
 */
const WAIT_MS = 8_000;
let dir: string;
let hosted: Harness;
let proxy: FaultProxy;
const apps: DesktopApp[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'status-follow-'));
  hosted = await startHarness({ limits: LEARNABLE_HIGH_LIMITS });
  proxy = await startFaultProxy(hosted.url);
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
});

afterAll(async () => {
  await proxy.close();
  await hosted.close();
  await rm(dir, { recursive: true, force: true });
});

async function openApp(mode: 'local' | 'hosted'): Promise<DesktopApp> {
  const base = await mkdtemp(join(dir, `${mode}-`));
  const settings = new SettingsStore(openConfBackend({ cwd: join(base, 'config') }));
  await settings.update({
    sync: { interval_ms: 600_000, full_reconcile_interval_ms: 3_600_000 },
    connection: mode === 'local' ? { mode } : { mode, base_url: proxy.url },
  });
  const keys = new SessionKeyStore();
  await keys.set(profileId(proxy.url), hosted.adminKey);
  const app = await DesktopApp.open({
    appDataDir: join(base, 'data'),
    settings,
    keys,
    previewUrl: (id) => `preview://document/${id}`,
    localLimits: LEARNABLE_HIGH_LIMITS,
  });
  apps.push(app);
  await app.start();
  return app;
}

async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Uploads an invoice through the app's journal; resolves with the document's id once the service accepted it. */
async function uploadInvoice(app: DesktopApp, name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, await makePdf([`Rechnung ${name}`, 'Rechnungsbetrag: 120,50 EUR', 'Fällig am 15.12.2026']));
  await app.handlers['uploads.add']({
    paths: [path],
    metadata: { event_type: 'invoice', amount: { value: 120.5, currency: 'EUR' }, due_date: '2026-12-15' },
  });
  return until(
    async () => {
      const { items } = await app.handlers['uploads.list'](parseCallInput('uploads.list', {}));
      return items.find((item) => item.file_name === name && item.state === 'done')?.document_id;
    },
    `the upload of ${name}`,
    30_000,
  );
}

const statusIn = async (app: DesktopApp, id: string): Promise<string | undefined> =>
  (await app.handlers['library.list'](parseCallInput('library.list', {}))).items.find((d) => d.id === id)?.status;

const eventsOf = async (app: DesktopApp, id: string): Promise<number> =>
  (await app.handlers['events.list'](parseCallInput('events.list', {}))).items.filter((e) => e.document_id === id)
    .length;

describe('following documents to a final state', () => {
  it('local mode: the embedded service pushes the status; the library shows Completed and the event', async () => {
    const app = await openApp('local');
    const id = await uploadInvoice(app, 'local.pdf');
    await until(async () => (await statusIn(app, id)) === 'completed', 'Completed in the library');
    await until(async () => (await eventsOf(app, id)) > 0, 'the event in the library');
  }, 60_000);

  it('hosted mode: polled with backoff until final, then no more polls of it', async () => {
    const app = await openApp('hosted');
    const id = await uploadInvoice(app, 'hosted.pdf');
    await until(async () => (await statusIn(app, id)) === 'completed', 'Completed in the library');
    await until(async () => (await eventsOf(app, id)) > 0, 'the event in the library');
    const polls = () =>
      proxy.requests.filter((r) => r.method === 'GET' && r.path.startsWith(`/v1/documents/${id}`)).length;
    const before = polls();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(polls()).toBe(before);

    // A reprocess is followed the same way: the document is asked for by id (the interval sync lists).
    expect((await app.handlers['documents.reprocess']({ ids: [id] })).queued).toEqual([id]);
    await until(async () => polls() > before, 'a poll after the reprocess');
    await until(async () => (await statusIn(app, id)) === 'completed', 'Completed after the reprocess');
  }, 60_000);
});
