/**
 * Settings → Key storage on a real DesktopApp (local mode, the embedded service): the key moves into the chosen store
 * and still opens the service; the keychain is refused with its reason where it does not work. The OS keychain cannot
 * run here, so an in-memory one stands in for it, with a switch to make its probe fail like a missing D-Bus service.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import type { ProbedKeyStore } from '../../main/core/keychain/open-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';

const DBUS_ERROR = 'Cannot autolaunch D-Bus without X11 $DISPLAY';
let keychainWorks = false;
const keychainEntries = new Map<string, string>();
const keychain = (): ProbedKeyStore => ({
  kind: 'keychain',
  async probe() {
    if (!keychainWorks) throw new Error(DBUS_ERROR);
  },
  async get(profile) {
    return keychainEntries.get(profile) ?? null;
  },
  async set(profile, key) {
    keychainEntries.set(profile, key);
  },
  async delete(profile) {
    keychainEntries.delete(profile);
  },
});

let dir: string;
let app: DesktopApp;
let settings: SettingsStore;
const keyFile = (): string => join(dir, 'data', 'api-keys.json');
const storedInFile = async (): Promise<number> => {
  const text = await readFile(keyFile(), 'utf8').catch(() => '{"keys":{}}');
  return Object.keys((JSON.parse(text) as { keys: Record<string, string> }).keys).length;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'key-storage-test-'));
  settings = new SettingsStore(openConfBackend({ cwd: join(dir, 'config') }));
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings,
    keychain,
    previewUrl: (id) => `preview://document/${id}`,
    localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
  });
  await app.start();
});

afterAll(async () => {
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Settings → Key storage', () => {
  it("starts on the session store with the keychain's own error as the warning", async () => {
    const status = await app.handlers['status.get'](undefined);
    expect(status.key_storage).toBe('session');
    expect(status.key_warning).toContain(DBUS_ERROR);
  });

  it('moves the key into the key file, which then opens the service', async () => {
    await app.handlers['settings.update']({ key_storage: 'file' });
    const status = await app.handlers['status.get'](undefined);
    expect(status).toMatchObject({ key_storage: 'file', key_warning: null });
    expect(settings.get().key_storage).toBe('file');
    expect(await storedInFile()).toBe(1);
    expect((await app.handlers['connection.test']({ mode: 'local' })).ok).toBe(true);
  });

  it('refuses the keychain where it does not work, with its reason, and changes nothing', async () => {
    await expect(app.handlers['settings.update']({ key_storage: 'keychain' })).rejects.toThrow(
      /system keychain is not available.*D-Bus/,
    );
    expect(settings.get().key_storage).toBe('file');
    expect((await app.handlers['status.get'](undefined)).key_storage).toBe('file');
    expect(await storedInFile()).toBe(1);
  });

  it('moves the key into a working keychain and leaves no plaintext copy behind', async () => {
    keychainWorks = true;
    await app.handlers['settings.update']({ key_storage: 'keychain' });
    expect((await app.handlers['status.get'](undefined)).key_storage).toBe('keychain');
    expect(keychainEntries.size).toBe(1);
    expect(await storedInFile()).toBe(0);
  });

  it('keeps the key for this session only when asked, removed from the keychain', async () => {
    await app.handlers['settings.update']({ key_storage: 'session' });
    const status = await app.handlers['status.get'](undefined);
    expect(status).toMatchObject({ key_storage: 'session', key_warning: null });
    expect(keychainEntries.size).toBe(0);
    expect((await app.handlers['connection.test']({ mode: 'local' })).ok).toBe(true);
  });
});
