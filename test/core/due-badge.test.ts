import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../common/ipc.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { makePdf } from '../helpers/archive-harness.ts';

let dir: string;
let app: DesktopApp;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'due-badge-test-'));
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings: new SettingsStore(openConfBackend({ cwd: join(dir, 'config') })),
    keys: new SessionKeyStore(),
    previewUrl: (id) => `preview://document/${id}`,
  });
  await app.start();
});

afterAll(async () => {
  await app.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the due count in the status', () => {
  it('goes out with every change that brings events, not only after a full sync (the badge and the tray read it)', async () => {
    const statuses: ConnectionStatus[] = [];
    app.on('status.changed', (status) => statuses.push(status));
    // For each change that carries events: did a status follow in the same turn, and with which count?
    const followed: Array<number | null> = [];
    app.on('library.changed', (change) => {
      if (change.event_ids.length === 0) return;
      const before = statuses.length;
      setImmediate(() => followed.push(statuses.length > before ? statuses.at(-1)!.due_count : null));
    });
    const file = join(dir, 'bill.pdf');
    await writeFile(file, await makePdf(['Invoice 4711', 'Amount due: 12.50 EUR']));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(app.status().due_count).toBe(0);
    await app.handlers['uploads.add']({
      paths: [file],
      metadata: { event_type: 'invoice', amount: { value: 12.5, currency: 'EUR' }, due_date: tomorrow },
    });
    const deadline = Date.now() + 50_000;
    while (followed.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(followed.length).toBeGreaterThan(0);
    expect(followed.every((count) => count === 1)).toBe(true);

    // Which path brought the event above depends on timing (a full sync after the upload also sends a status). The
    // follower's path is a change with no sync around it: one such change must send the status by itself.
    const before = statuses.length;
    app['sync'].emit('changed', { documents: [], events: ['00000000-0000-4000-8000-000000000001'] });
    expect(statuses.length).toBe(before + 1);
    expect(statuses.at(-1)!.due_count).toBe(1);
  }, 60_000);
});
