import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALLS, parseCallInput, type CallInput, type CallName, type CallOutput } from '../../common/ipc.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { revokeApiKey } from '../../server/auth/api-keys.ts';
import { profileId } from '../../main/core/keychain/key-store.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';

/**
 * Switching the connection in Settings: each save rebuilds the core (local archive ↔ hosted client), and the calls
 * the renderer makes right after a save (the key, the library) must reach the new core, never the one being stopped.
 */
let dir: string;
let hosted: Harness;
/** In front of the hosted service: counts what reaches it. */
let proxy: FaultProxy;
let app: DesktopApp | undefined;
let keys: SessionKeyStore;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reconnect-test-'));
  hosted = await startHarness();
  proxy = await startFaultProxy(hosted.url);
  process.on('unhandledRejection', onUnhandled);
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await proxy.close();
  await hosted.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  unhandled.length = 0;
  keys = new SessionKeyStore();
  const base = await mkdtemp(join(dir, 'app-'));
  app = await DesktopApp.open({
    appDataDir: join(base, 'data'),
    settings: new SettingsStore(openConfBackend({ cwd: join(base, 'config') })),
    keys,
    previewUrl: (id) => `preview://document/${id}`,
  });
  await app.start();
});

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Calls as a shell does: input and output through the contract's schemas. */
async function call<C extends CallName>(
  name: C,
  ...input: CallInput<C> extends undefined ? [] : [CallInput<C>]
): Promise<CallOutput<C>> {
  if (!app) throw new Error('no app');
  const handler = app.handlers[name] as (input: unknown) => Promise<unknown>;
  return CALLS[name].output.parse(await handler(parseCallInput(name, input[0]))) as CallOutput<C>;
}

const toHosted = () => call('settings.update', { connection: { mode: 'hosted', base_url: proxy.url } });
const toLocal = () => call('settings.update', { connection: { mode: 'local' } });

describe('switching the connection', () => {
  it('local → hosted → local → hosted with saves in quick succession: the key reaches the hosted service', async () => {
    // What Settings does on save (the settings, then the key), each save right after the one before.
    const saveHosted = async (): Promise<void> => {
      await toHosted();
      await call('connection.setKey', { api_key: hosted.adminKey });
    };
    await saveHosted();
    await toLocal();
    await saveHosted();

    expect(await keys.get(profileId(proxy.url))).toBe(hosted.adminKey);
    const status = await call('status.get');
    expect(status).toMatchObject({ mode: 'hosted', base_url: proxy.url, auth_required: false });
    // The library of the hosted service, through the new core.
    expect((await call('library.list', {})).total).toBe(0);
    expect(unhandled).toEqual([]);
  });

  it('a save right after another runs after it, and a call made meanwhile waits for the new core', async () => {
    const saves = [toHosted(), toLocal(), toHosted(), toLocal()];
    const listed = call('uploads.list', {});
    await Promise.all([...saves, listed]);
    expect((await call('status.get')).mode).toBe('local');
    expect(await call('connection.test', { mode: 'local' })).toMatchObject({ ok: true });
    expect(unhandled).toEqual([]);
  });

  it('stop() during a reconnect waits for it and starts nothing after', async () => {
    await call('connection.setKey', { api_key: 'not-used-in-local-mode' });
    await keys.set(profileId(proxy.url), hosted.adminKey);
    const saving = toHosted();
    const stopped = app!.stop();
    await Promise.all([saving, stopped]);
    app = undefined;
    // A core started after stop would sync and probe the hosted service.
    const before = proxy.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(proxy.requests.length).toBe(before);
    expect(unhandled).toEqual([]);
  });

  it('a key revoked while nothing is uploaded shows as needed once any call meets the 401, and a new key lifts it', async () => {
    const key = await hosted.createKey({ name: 'revoked while idle' });
    await toHosted();
    await call('connection.setKey', { api_key: key });
    expect(await call('status.get')).toMatchObject({ online: true, auth_required: false });
    await revokeApiKey(hosted.db, key.split('_')[1]!);
    // No upload is waiting: the library sync is what meets the 401.
    await expect(call('library.sync')).rejects.toThrow('Invalid or missing API key');
    expect(await call('status.get')).toMatchObject({ auth_required: true, reason: 'Invalid or missing API key' });
    await call('connection.setKey', { api_key: hosted.adminKey });
    expect(await call('status.get')).toMatchObject({ auth_required: false, reason: null });
  });

  it('a reconnect that fails shows in the status, calls say why, and the next save recovers', async () => {
    const notADirectory = join(dir, 'a-file');
    await writeFile(notADirectory, 'not a directory');
    await call('settings.update', { connection: { mode: 'local', data_dir: join(notADirectory, 'archive') } });
    const status = await call('status.get');
    expect(status.online).toBe(false);
    expect(status.reason).toMatch(/^Cannot connect: .*(ENOTDIR|not a directory)/i);
    await expect(call('uploads.list', {})).rejects.toThrow(
      /^Not connected to the archive service: .*Check the connection in Settings\.$/,
    );

    await toHosted();
    await call('connection.setKey', { api_key: hosted.adminKey });
    expect(await call('status.get')).toMatchObject({ mode: 'hosted', reason: null, auth_required: false });
    expect((await call('library.list', {})).total).toBe(0);
    expect(unhandled).toEqual([]);
  });
});
