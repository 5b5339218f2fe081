import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, SETTINGS_VERSION, type Settings } from '../../common/settings.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { migrateSettings, SETTINGS_MIGRATIONS, SettingsMigrationError } from '../../main/core/settings/migrations.ts';
import type { SettingsBackend } from '../../main/core/settings/settings-backend.ts';
import { SettingsStore, SettingsValidationError } from '../../main/core/settings/settings-store.ts';

const NOW = new Date('2030-01-02T03:04:05.678Z');
const STAMP = '2030-01-02T03-04-05-678Z';
const SPACE = '0b9f4c2e-6a4d-4c55-9a1e-3f0d2b7c8e11';

function makeKey(): string {
  return `das_${randomBytes(16).toString('hex')}_${randomBytes(32).toString('base64url')}`;
}

let dir: string;
let file: string;
let logs: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'settings-test-'));
  file = join(dir, 'settings.json');
  logs = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function open(backend: SettingsBackend = openConfBackend({ cwd: dir })): SettingsStore {
  return new SettingsStore(backend, { log: (line) => logs.push(line), now: () => NOW });
}

/** The error an update rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected the update to be rejected');
    },
    (error: unknown) => error as Error,
  );
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

/** Every file in the settings directory, with its content: where a key could have ended up. */
async function everything(): Promise<string> {
  const names = await readdir(dir);
  const parts = await Promise.all(names.map(async (name) => `${name}\n${await readFile(join(dir, name), 'utf8')}`));
  return parts.join('\n');
}

describe('SettingsStore: reading and writing', () => {
  it('starts from defaults without a file and writes the full settings atomically on the first update', async () => {
    const store = open();
    expect(store.path).toBe(file);
    expect(store.get()).toEqual(defaultSettings());
    expect(store.problems).toEqual([]);
    expect(existsSync(file)).toBe(false);

    const next = await store.update({ ui: { close_to_tray: false }, reminders: { days_before: 7 } });
    expect(next.ui).toEqual({
      close_to_tray: false,
      start_at_login: false,
      notify_failed_uploads: true,
      appearance: 'system',
      language: null,
      onboarded: false,
      library_view: 'list',
    });
    expect(next.reminders).toEqual({ ...defaultSettings().reminders, days_before: 7 });
    expect(await readJson(file)).toEqual(next);
    expect(await readdir(dir)).toEqual(['settings.json']);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    expect(open().get()).toEqual(next);
  });

  it('replaces folders and the connection whole, filling folder defaults', async () => {
    const store = open();
    await store.update({ connection: { mode: 'hosted', base_url: 'https://archive.example.com' } });
    const next = await store.update({ folders: [{ id: 'f1', path: '/scans', space_id: SPACE }] });
    expect(next.connection).toEqual({ mode: 'hosted', base_url: 'https://archive.example.com' });
    expect(next.folders).toEqual([
      expect.objectContaining({
        id: 'f1',
        path: '/scans',
        space_id: SPACE,
        enabled: true,
        recursive: true,
        after_upload: { action: 'keep' },
        file_types: [],
      }),
    ]);
    const back = await store.update({ connection: { mode: 'local' } });
    expect(back.connection).toEqual({ mode: 'local' });
  });

  it('accepts an update function working on a copy', async () => {
    const store = open();
    const before = store.get();
    const next = await store.update((s) => {
      s.uploads.paused = true;
      s.folders.push({ ...s.folders[0], id: 'f1', path: '/in' } as Settings['folders'][number]);
      return s;
    });
    expect(before.uploads.paused).toBe(false);
    expect(next.uploads.paused).toBe(true);
    expect(next.folders.map((f) => f.path)).toEqual(['/in']);
  });

  it('hands out frozen settings so nobody changes them behind the store', () => {
    const settings = open().get();
    expect(() => {
      (settings.ui as { close_to_tray: boolean }).close_to_tray = false;
    }).toThrow(TypeError);
  });

  it('rejects an invalid update with the field named, leaving file and settings unchanged', async () => {
    const store = open();
    await store.update({ folders: [{ id: 'f1', path: '/scans' }] });
    const bytes = await readFile(file);
    const before = store.get();
    const events: Settings[] = [];
    store.onChange((next) => events.push(next));

    await expect(store.update({ folders: [{ id: 'f1', path: '' }] })).rejects.toThrow(
      'Invalid settings: folders.0.path: the folder path must not be empty',
    );
    await expect(store.update({ reminders: { digest_time: '25:00' } })).rejects.toThrow(
      'Invalid settings: reminders.digest_time: digest_time must be HH:MM',
    );
    await expect(store.update({ folders: [{ id: 'f1', path: '/scans', space_id: 'not-a-uuid' }] })).rejects.toThrow(
      'folders.0.space_id: space_id must be a uuid',
    );
    const error = await rejection(store.update({ sync: { interval_ms: 10 } }));
    expect(error).toBeInstanceOf(SettingsValidationError);
    expect((error as SettingsValidationError).issues.map((i) => i.path)).toEqual(['sync.interval_ms']);
    await expect(store.update({ colour: 'blue' } as never)).rejects.toThrow(/settings: .*colour/);

    expect(await readFile(file)).toEqual(bytes);
    expect(store.get()).toBe(before);
    expect(events).toEqual([]);
  });

  it('refuses an API key anywhere in the settings; it never reaches the file or the error', async () => {
    const store = open();
    await store.update({ ui: { start_at_login: true } });
    const bytes = await readFile(file);
    const key = makeKey();

    const asField = await rejection(store.update({ api_key: key } as never));
    expect(asField).toBeInstanceOf(SettingsValidationError);
    expect(asField.message).toMatch(/^Invalid settings: api_key: an API key must not be stored in settings/);

    const pasted = await rejection(store.update({ folders: [{ id: 'f1', path: '/scans', metadata: { title: key } }] }));
    expect(pasted.message).toMatch(/folders\.0\.metadata\.title: an API key must not be stored/);

    const inUrl = await rejection(
      store.update({ connection: { mode: 'hosted', base_url: `https://x.example/${key}` } }),
    );
    expect(inUrl.message).toMatch(/connection\.base_url/);

    for (const error of [asField, pasted, inUrl]) expect(error.message).not.toContain(key.slice(37));
    expect(await readFile(file)).toEqual(bytes);
    expect(await everything()).not.toContain(key.slice(37));
    expect(logs.join('\n')).not.toContain(key.slice(37));
  });

  it('tells listeners about every change until they unsubscribe', async () => {
    const store = open();
    const seen: [boolean, boolean][] = [];
    const unsubscribe = store.onChange((next, previous) => seen.push([previous.uploads.paused, next.uploads.paused]));
    store.onChange(() => {
      throw new Error('a broken listener');
    });
    await store.update({ uploads: { paused: true } });
    await store.update({ uploads: { paused: true } }); // no change, no event
    unsubscribe();
    await store.update({ uploads: { paused: false } });
    expect(seen).toEqual([[false, true]]);
    expect(store.get().uploads.paused).toBe(false);
    expect(logs.filter((line) => line.includes('a broken listener'))).toHaveLength(2);
  });

  it('keeps the settings unchanged when the write fails', async () => {
    const real = openConfBackend({ cwd: dir });
    let fail = false;
    const backend: SettingsBackend = {
      path: real.path,
      read: () => real.read(),
      write: (value) => {
        if (fail) throw new Error('ENOSPC: no space left on device');
        real.write(value);
      },
    };
    const store = open(backend);
    await store.update({ ui: { start_at_login: true } });
    const events: Settings[] = [];
    store.onChange((next) => events.push(next));
    fail = true;
    await expect(store.update({ ui: { start_at_login: false } })).rejects.toThrow(/ENOSPC/);
    expect(store.get().ui.start_at_login).toBe(true);
    expect(events).toEqual([]);
    expect(((await readJson(file)) as Settings).ui.start_at_login).toBe(true);
  });
});

describe('SettingsStore: files it cannot use are moved aside and reported', () => {
  it('moves a file that is not JSON aside, content intact, and starts from defaults', async () => {
    const content = '{"version": 1, "ui": {"close_to_tray": fal';
    await writeFile(file, content);
    const store = open();
    const aside = `${file}.corrupt-${STAMP}`;
    expect(store.get()).toEqual(defaultSettings());
    expect(store.problems).toEqual([
      {
        kind: 'corrupt',
        path: file,
        movedTo: aside,
        reason: expect.stringMatching(/^not valid JSON/),
        message: expect.stringContaining(`It was moved to ${aside}; default settings are in use.`),
      },
    ]);
    expect(await readFile(aside, 'utf8')).toBe(content);
    expect(existsSync(file)).toBe(false);
    expect(logs).toEqual([store.problems[0]!.message]);

    await store.update({ uploads: { paused: true } });
    expect(((await readJson(file)) as Settings).uploads.paused).toBe(true);
    expect(await readFile(aside, 'utf8')).toBe(content);
  });

  it('moves an empty file aside too (a crash during a non-atomic write elsewhere)', async () => {
    await writeFile(file, '');
    const store = open();
    expect(store.problems).toMatchObject([{ kind: 'corrupt', reason: 'the file is empty' }]);
    expect(await readFile(`${file}.corrupt-${STAMP}`, 'utf8')).toBe('');
  });

  it('moves aside a file that fails the schema, naming the field, never overwriting an earlier one', async () => {
    const content = JSON.stringify({ version: 1, reminders: { digest_time: "9 o'clock" } });
    await writeFile(`${file}.corrupt-${STAMP}`, 'an earlier casualty');
    await writeFile(file, content);
    const store = open();
    expect(store.problems).toMatchObject([
      {
        kind: 'corrupt',
        movedTo: `${file}.corrupt-${STAMP}-2`,
        reason: 'invalid settings (reminders.digest_time: digest_time must be HH:MM)',
      },
    ]);
    expect(await readFile(`${file}.corrupt-${STAMP}-2`, 'utf8')).toBe(content);
    expect(await readFile(`${file}.corrupt-${STAMP}`, 'utf8')).toBe('an earlier casualty');
    expect(store.get()).toEqual(defaultSettings());
  });

  it('moves aside a file of a newer app version instead of misreading it', async () => {
    const content = JSON.stringify({ version: SETTINGS_VERSION + 1, something_new: true });
    await writeFile(file, content);
    const store = open();
    const aside = `${file}.v${SETTINGS_VERSION + 1}-${STAMP}`;
    expect(store.problems).toMatchObject([
      { kind: 'newer-version', movedTo: aside, reason: expect.stringMatching(/newer version of the app/) },
    ]);
    expect(await readFile(aside, 'utf8')).toBe(content);
  });

  it('removes an API key found in the settings file, keeps the rest, and reports it', async () => {
    const key = makeKey();
    await writeFile(file, JSON.stringify({ version: 1, api_key: key, ui: { close_to_tray: false } }));
    const store = open();
    expect(store.problems).toEqual([
      {
        kind: 'secret-removed',
        path: file,
        reason: 'credentials found in api_key',
        message: expect.stringMatching(/contained an API key or other credential \(api_key\); it was removed/),
      },
    ]);
    expect(store.get().ui.close_to_tray).toBe(false);
    expect(store.get()).not.toHaveProperty('api_key');
    expect(await readJson(file)).toEqual(store.get());
    expect(await readdir(dir)).toEqual(['settings.json']);
    expect(await everything()).not.toContain(key.slice(37));
    expect(logs.join('\n')).not.toContain(key.slice(37));
  });

  it('keeps no API key in a copy moved aside', async () => {
    const key = makeKey();
    await writeFile(file, JSON.stringify({ version: 1, token: key, ui: { close_to_tray: 'no' } }));
    const store = open();
    expect(store.problems.map((p) => p.kind)).toEqual(['secret-removed', 'corrupt']);
    const aside = `${file}.corrupt-${STAMP}`;
    expect(await readJson(aside)).toEqual({ version: 1, ui: { close_to_tray: 'no' } });

    await rm(aside);
    const broken = `{"version":1,"note":"${key}",`;
    await writeFile(file, broken);
    const again = open();
    expect(again.problems).toMatchObject([{ kind: 'corrupt', movedTo: aside }]);
    expect(await readFile(aside, 'utf8')).toBe(broken.replace(key, `${key.slice(0, 37)}***`));
    expect(await everything()).not.toContain(key.slice(37));
    expect(JSON.stringify(again.problems)).not.toContain(key.slice(37));
  });
});

describe('migrations', () => {
  const v0 = {
    server_url: 'https://archive.example.com/',
    paused: true,
    folders: [
      { path: '/home/ann/Scans', space: SPACE, enabled: false },
      { path: '/home/ann/Receipts', recursive: false },
    ],
    ui: { close_to_tray: false },
  };

  it('are ordered, one step per version, up to the current version', () => {
    expect(SETTINGS_MIGRATIONS.map((m) => m.from)).toEqual(Array.from({ length: SETTINGS_VERSION }, (_, i) => i));
  });

  it('bring a version 0 file (no version, server_url, folders with path + space) to the current shape', async () => {
    await writeFile(file, JSON.stringify(v0));
    const store = open();
    const settings = store.get();
    expect(store.problems).toEqual([]);
    expect(store.migrated).toHaveLength(2);
    expect(store.migrated[0]).toMatch(/^v0 → v1/);
    expect(store.migrated[1]).toMatch(/^v1 → v2/);
    expect(settings.version).toBe(SETTINGS_VERSION);
    expect(settings.connection).toEqual({ mode: 'hosted', base_url: 'https://archive.example.com/' });
    expect(settings.uploads).toEqual({ paused: true, rescan_interval_ms: 300_000 });
    expect(settings.ui.close_to_tray).toBe(false);
    expect(settings.ui.onboarded).toBe(true);
    const [scans, receipts] = settings.folders;
    expect(scans).toMatchObject({ path: '/home/ann/Scans', space_id: SPACE, enabled: false, recursive: true });
    expect(scans).not.toHaveProperty('space');
    expect(receipts).toMatchObject({ path: '/home/ann/Receipts', enabled: true, recursive: false });
    expect(receipts!.space_id).toBeUndefined();
    expect(scans!.id).not.toBe('');
    expect(scans!.id).not.toBe(receipts!.id);
    expect(logs.join('\n')).toMatch(/migrated v0 → v1/);

    // Written back: the next start reads the current version and keeps the same folder ids.
    expect(await readJson(file)).toEqual(settings);
    const next = open();
    expect(next.migrated).toEqual([]);
    expect(next.get()).toEqual(settings);
  });

  it('map a version 0 file without server_url to the embedded service', () => {
    const { value, from } = migrateSettings({ folders: [] });
    expect(from).toBe(0);
    expect(value).toEqual({ version: 2, connection: { mode: 'local' }, folders: [] });
  });

  it('bring a version 1 file to version 2: appearance and language from the defaults, onboarded when it was set up', async () => {
    const v1 = { version: 1, ui: { close_to_tray: false }, folders: [{ id: 'f1', path: '/home/ann/Scans' }] };
    await writeFile(file, JSON.stringify(v1));
    const store = open();
    expect(store.problems).toEqual([]);
    expect(store.migrated).toEqual([expect.stringMatching(/^v1 → v2/)]);
    expect(store.get().version).toBe(2);
    expect(store.get().ui).toEqual({
      close_to_tray: false,
      start_at_login: false,
      notify_failed_uploads: true,
      appearance: 'system',
      language: null,
      onboarded: true,
      library_view: 'list',
    });
    expect(((await readJson(file)) as Settings).version).toBe(2);

    // Nothing set up yet (local mode, no folders): the welcome guide still comes.
    expect(migrateSettings({ version: 1, connection: { mode: 'local' } }).value).toEqual({
      version: 2,
      connection: { mode: 'local' },
    });
    expect(
      migrateSettings({ version: 1, connection: { mode: 'hosted', base_url: 'https://a.example' } }).value,
    ).toEqual({ version: 2, connection: { mode: 'hosted', base_url: 'https://a.example' }, ui: { onboarded: true } });
  });

  it('store appearance, language and onboarded, and reject values the UI does not offer', async () => {
    const store = open();
    const next = await store.update({ ui: { appearance: 'dark', language: 'de', onboarded: true } });
    expect(next.ui).toMatchObject({ appearance: 'dark', language: 'de', onboarded: true, close_to_tray: true });
    expect(open().get().ui).toMatchObject({ appearance: 'dark', language: 'de', onboarded: true });
    await expect(store.update({ ui: { language: 'fr' as 'de' } })).rejects.toThrow(/ui\.language/);
    expect((await store.update({ ui: { language: null } })).ui.language).toBeNull();
  });

  it('keep fields they do not know, so the file is moved aside rather than silently losing them', async () => {
    await writeFile(file, JSON.stringify({ ...v0, theme: 'dark' }));
    const store = open();
    expect(store.problems).toMatchObject([{ kind: 'corrupt', reason: expect.stringContaining('theme') }]);
    expect(await readJson(`${file}.corrupt-${STAMP}`)).toEqual({ ...v0, theme: 'dark' });
  });

  it('refuse what is not a settings object or has a nonsense version', () => {
    expect(() => migrateSettings([1, 2])).toThrow(SettingsMigrationError);
    expect(() => migrateSettings({ version: '1' })).toThrow(/version must be a whole number/);
    expect(() => migrateSettings({ version: 0 }, [])).toThrow(/no migration from settings version 0/);
    expect(migrateSettings({ version: SETTINGS_VERSION, ui: {} })).toEqual({
      value: { version: SETTINGS_VERSION, ui: {} },
      from: SETTINGS_VERSION,
      applied: [],
    });
  });
});
