/**
 * A start that fails half way leaves nothing running: the embedded archive it had started is stopped (its port closed)
 * and the library cache closed. The failure is a real one: the journal's database path is taken by a directory, so
 * opening the upload journal throws after the archive is up. And a failing reminder check does not fail the call that
 * triggered it.
 */
import { mkdir, mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { DesktopCore } from '../../main/core/desktop-core.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { makePdf } from '../helpers/archive-harness.ts';

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'failed-start-'));
});

afterAll(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** An app data directory whose journal.sqlite is a directory: the journal cannot open, after the archive started. */
async function brokenJournalDir(name: string): Promise<string> {
  const appDataDir = join(tmp, name);
  await mkdir(join(appDataDir, 'journal.sqlite'), { recursive: true });
  return appDataDir;
}

/** The local archive's address, from its start-up log line. */
function archiveUrl(logs: string[]): string {
  const line = logs.find((l) => l.startsWith('local archive: http://'));
  if (!line) throw new Error(`the local archive did not start: ${logs.join('\n')}`);
  return line.split(' ')[2]!;
}

async function answers(url: string): Promise<boolean> {
  return fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) }).then(
    () => true,
    () => false,
  );
}

/** Files this process holds open under `path` (Linux: /proc/self/fd). */
async function openFilesUnder(path: string): Promise<string[]> {
  const targets = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(path));
}

const settingsIn = (dir: string): SettingsStore => new SettingsStore(openConfBackend({ cwd: join(dir, 'config') }));

describe('a start that fails after the embedded archive started', () => {
  it('DesktopCore.open stops the archive it started', async () => {
    const appDataDir = await brokenJournalDir('core');
    const logs: string[] = [];
    await expect(
      DesktopCore.open({
        appDataDir,
        settings: settingsIn(appDataDir),
        keys: new SessionKeyStore(),
        log: (l) => logs.push(l),
      }),
    ).rejects.toThrow();
    expect(await answers(archiveUrl(logs))).toBe(false);
  });

  it.runIf(process.platform === 'linux')('DesktopApp.open stops the archive and closes the library cache', async () => {
    const appDataDir = await brokenJournalDir('app');
    const logs: string[] = [];
    await expect(
      DesktopApp.open({
        appDataDir,
        settings: settingsIn(appDataDir),
        keys: new SessionKeyStore(),
        previewUrl: (id) => id,
        log: (l) => logs.push(l),
      }),
    ).rejects.toThrow();
    expect(await answers(archiveUrl(logs))).toBe(false);
    expect(await openFilesUnder(join(appDataDir, 'library.sqlite'))).toEqual([]);
  });
});

describe('a reminder check that fails', () => {
  it('is logged and does not fail the call that triggered it', async () => {
    const dir = join(tmp, 'reminders');
    const logs: string[] = [];
    const app = await DesktopApp.open({
      appDataDir: join(dir, 'data'),
      settings: settingsIn(dir),
      keys: new SessionKeyStore(),
      previewUrl: (id) => id,
      localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
      log: (l) => logs.push(l),
    });
    try {
      await app.start();
      await writeFile(join(dir, 'Rechnung.pdf'), await makePdf(['Rechnung Nr. 17', 'Gesamtbetrag 12,00 EUR']));
      const due = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await app.handlers['uploads.add']({
        paths: [join(dir, 'Rechnung.pdf')],
        metadata: { event_type: 'invoice', amount: { value: 12, currency: 'EUR' }, due_date: due },
      });
      const deadline = Date.now() + 60_000;
      let eventId: string | undefined;
      while (!eventId && Date.now() < deadline) {
        await app.handlers['library.sync'](undefined);
        eventId = (await app.handlers['events.list']({ limit: 10, offset: 0 })).items[0]?.id;
        if (!eventId) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(eventId, 'the invoice event reached the library').toBeDefined();

      // The fault: the reminders' table is gone, so every check of this due event throws.
      const db = new DatabaseSync(join(dir, 'data', 'library.sqlite'));
      db.exec('DROP TABLE reminders_fired');
      db.close();
      const edited = await app.handlers['events.update']({ id: eventId!, reference_number: 'R-17' });
      expect(edited.reference_number).toBe('R-17');
      expect(logs.some((l) => l.startsWith('reminders: check failed: ') && l.includes('reminders_fired'))).toBe(true);
    } finally {
      await app.stop();
    }
  }, 90_000);
});
