import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileKeyStore } from '../../main/core/keychain/file-key-store.ts';
import { KeyStoreError, profileId, type KeyStore } from '../../main/core/keychain/key-store.ts';
import { openKeyStore, type ProbedKeyStore } from '../../main/core/keychain/open-key-store.ts';
import { containsSecret, redactSecrets } from '../../main/core/keychain/redact.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import type { ChildOutput, ChildStep } from './keychain-child.ts';

const CHILD = fileURLToPath(new URL('./keychain-child.ts', import.meta.url));

/** A key of the service's shape: das_<32 hex id>_<43 base64url secret>. */
function makeKey(): string {
  return `das_${randomBytes(16).toString('hex')}_${randomBytes(32).toString('base64url')}`;
}

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'keychain-test-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('profileId', () => {
  it('gives every spelling of one service the same profile', () => {
    expect(profileId('HTTPS://Archive.Example.COM:443/')).toBe('https://archive.example.com');
    expect(profileId('https://archive.example.com')).toBe('https://archive.example.com');
    expect(profileId(' http://archive.example.com:80/api/v1// ')).toBe('http://archive.example.com/api/v1');
    expect(profileId('https://user:pw@archive.example.com/x?y=1#z')).toBe('https://archive.example.com/x');
  });

  it('keeps what distinguishes services: port, scheme, path', () => {
    expect(profileId('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(profileId('http://archive.example.com')).not.toBe(profileId('https://archive.example.com'));
    expect(profileId('https://h.example/Team-A')).not.toBe(profileId('https://h.example/team-a'));
  });

  it('rejects what is not an http(s) URL, without echoing a key pasted into it', () => {
    expect(() => profileId('ftp://archive.example.com')).toThrow(/http\(s\)/);
    const key = makeKey();
    let message = '';
    try {
      profileId(key);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/not a valid base URL/);
    expect(message).not.toContain(key.slice(37));
  });
});

describe('redactSecrets', () => {
  it('masks the secret part of every key and keeps the key id', () => {
    const key = makeKey();
    const id = key.slice(4, 36);
    const text = `upload failed for ${key}; retry with "${key}"`;
    const redacted = redactSecrets(text);
    expect(redacted).toBe(`upload failed for das_${id}_***; retry with "das_${id}_***"`);
    expect(redacted).not.toContain(key.slice(37));
    expect(redactSecrets(redacted)).toBe(redacted);
  });

  it('masks truncated keys and bearer tokens, leaves ordinary text alone', () => {
    const key = makeKey();
    expect(redactSecrets(key.slice(0, 50))).toBe(`${key.slice(0, 37)}***`);
    expect(redactSecrets('Authorization: Bearer abc.DEF-123_x=')).toBe('Authorization: Bearer ***');
    const plain = 'das_ is a prefix; 0123456789abcdef and a path /tmp/x_y';
    expect(redactSecrets(plain)).toBe(plain);
    expect(containsSecret(plain)).toBe(false);
    expect(containsSecret(`x${key}x`)).toBe(true);
  });
});

/** The behaviour every key store shares. */
async function exerciseContract(store: KeyStore): Promise<void> {
  const a = profileId('https://a.example.com');
  const b = profileId('http://127.0.0.1:4010');
  const [keyA, keyA2, keyB] = [makeKey(), makeKey(), makeKey()];
  expect(await store.get(a)).toBeNull();
  await store.set(a, keyA);
  await store.set(b, keyB);
  expect(await store.get(a)).toBe(keyA);
  expect(await store.get(b)).toBe(keyB);
  await store.set(a, keyA2);
  expect(await store.get(a)).toBe(keyA2);
  expect(await store.get(b)).toBe(keyB);
  await store.delete(b);
  expect(await store.get(b)).toBeNull();
  expect(await store.get(a)).toBe(keyA2);
  await store.delete(b);
  await expect(store.set(a, '')).rejects.toThrow(KeyStoreError);
  await expect(store.get('')).rejects.toThrow(KeyStoreError);
  expect(await store.get('constructor')).toBeNull();
}

describe('SessionKeyStore', () => {
  it('keeps keys per profile in memory', async () => {
    const store = new SessionKeyStore();
    expect(store.kind).toBe('session');
    await exerciseContract(store);
  });
});

describe('FileKeyStore', () => {
  it('keeps keys per profile in a file only the user can read', async () => {
    const path = join(tmp, 'data', 'keys.json');
    const logs: string[] = [];
    const store = new FileKeyStore({ path, log: (line) => logs.push(line) });
    expect(store.kind).toBe('file');
    await exerciseContract(store);

    const again = new FileKeyStore({ path });
    const a = profileId('https://a.example.com');
    const remembered = await again.get(a);
    expect(remembered).toMatch(/^das_/);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, keys: { [a]: remembered } });
    if (process.platform !== 'win32') {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(tmp, 'data'))).mode & 0o777).toBe(0o700);
    }
    expect(await readdir(join(tmp, 'data'))).toEqual(['keys.json']);
    expect(logs).toEqual([]);

    await again.delete(a);
    expect(await readdir(join(tmp, 'data'))).toEqual([]);
  });

  it('loses no key when several are set at once', async () => {
    const store = new FileKeyStore({ path: join(tmp, 'keys.json') });
    const keys = Array.from({ length: 8 }, (_, i) => [`https://s${i}.example.com`, makeKey()] as const);
    await Promise.all(keys.map(([profile, key]) => store.set(profile, key)));
    for (const [profile, key] of keys) expect(await store.get(profile)).toBe(key);
  });

  it('moves a damaged key file aside and starts empty, saying so without the key', async () => {
    const path = join(tmp, 'keys.json');
    const key = makeKey();
    const damaged = `{"version":1,"keys":{"https://a.example.com":"${key}"`;
    await writeFile(path, damaged, { mode: 0o600 });
    const logs: string[] = [];
    const store = new FileKeyStore({
      path,
      log: (line) => logs.push(line),
      now: () => new Date('2030-01-02T03:04:05.678Z'),
    });
    expect(await store.get('https://a.example.com')).toBeNull();
    const aside = `${path}.corrupt-2030-01-02T03-04-05-678Z`;
    expect(await readFile(aside, 'utf8')).toBe(damaged);
    expect(logs.join('\n')).toContain(aside);
    expect(logs.join('\n')).not.toContain(key.slice(37));
  });

  it.skipIf(process.platform === 'win32')('takes a key file readable by others back to mode 0600', async () => {
    const path = join(tmp, 'keys.json');
    await writeFile(path, JSON.stringify({ version: 1, keys: { 'https://a.example.com': makeKey() } }));
    await chmod(path, 0o644);
    const logs: string[] = [];
    await new FileKeyStore({ path, log: (line) => logs.push(line) }).get('https://a.example.com');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(logs.join('\n')).toMatch(/mode is now 0600/);
  });
});

/** A keychain double, only for faults the real one cannot be made to show on demand. */
function fakeKeychain(probe: (signal?: AbortSignal) => Promise<void>): ProbedKeyStore {
  const memory = new SessionKeyStore();
  return {
    kind: 'keychain',
    probe,
    get: (p) => memory.get(p),
    set: (p, k) => memory.set(p, k),
    delete: (p) => memory.delete(p),
  };
}

describe('openKeyStore', () => {
  it('uses the keychain when its round trip works', async () => {
    const keychain = fakeKeychain(async () => {});
    const opened = await openKeyStore({
      storage: 'keychain',
      filePath: join(tmp, 'keys.json'),
      keychain: () => keychain,
    });
    expect(opened.store).toBe(keychain);
    expect(opened.warning).toBeUndefined();
  });

  it('falls back to this session only, never to a file, and says why', async () => {
    const logs: string[] = [];
    const filePath = join(tmp, 'keys.json');
    const opened = await openKeyStore({
      storage: 'keychain',
      filePath,
      log: (line) => logs.push(line),
      keychain: () =>
        fakeKeychain(async () => {
          throw new Error('Platform failure: DBus error: The name org.freedesktop.secrets was not provided');
        }),
    });
    expect(opened.store.kind).toBe('session');
    expect(opened.warning).toBe(
      'No OS keychain is available (Platform failure: DBus error: The name org.freedesktop.secrets ' +
        'was not provided); the API key is kept for this session only. Enable the file key store in settings to remember it.',
    );
    expect(logs.join('\n')).toContain(opened.warning);
    const key = makeKey();
    await opened.store.set('https://a.example.com', key);
    expect(await opened.store.get('https://a.example.com')).toBe(key);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('treats a keychain that does not answer in time as unavailable', async () => {
    const opened = await openKeyStore({
      storage: 'keychain',
      filePath: join(tmp, 'keys.json'),
      probeTimeoutMs: 50,
      keychain: () => fakeKeychain(() => new Promise(() => {})),
    });
    expect(opened.store.kind).toBe('session');
    expect(opened.warning).toMatch(/did not answer within 50 ms/);
  });

  it('uses the key file only when the user opted in, without touching the keychain', async () => {
    const filePath = join(tmp, 'keys.json');
    const opened = await openKeyStore({
      storage: 'file',
      filePath,
      keychain: () => {
        throw new Error('the keychain must not be consulted');
      },
    });
    expect(opened.store.kind).toBe('file');
    expect(opened.warning).toBeUndefined();
    const key = makeKey();
    await opened.store.set('https://a.example.com', key);
    expect(await readFile(filePath, 'utf8')).toContain(key);
  });
});

// ---- The real OS keychain: gnome-keyring's Secret Service on a private D-Bus session ----

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, binary), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const REQUIRED = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'];
const missing = process.platform === 'linux' ? REQUIRED.filter((binary) => !onPath(binary)) : REQUIRED;
const skipReason =
  process.platform !== 'linux'
    ? 'skipped: gnome-keyring runs on Linux only'
    : `skipped: ${missing.join(', ')} not installed (apt-get install dbus gnome-keyring)`;
// Said out loud: a skipped suite's title alone is easy to miss in a run's summary (CI installs both, so they run there).
if (missing.length > 0) console.warn(`OsKeychain against a real gnome-keyring: ${skipReason}`);

/**
 * Runs inside `dbus-run-session`: starts gnome-keyring in the foreground (so `$!` is its pid), unlocks or creates the
 * login keyring with the password on stdin, waits until it owns org.freedesktop.secrets, runs the child, stops the
 * daemon. The daemon does not reliably exit when the session bus goes away, hence the explicit kill.
 */
const SESSION_SCRIPT = `
printf '%s' "$KEYRING_PASSWORD" | gnome-keyring-daemon --foreground --unlock --components=secrets >"$DAEMON_LOG" 2>&1 &
daemon=$!
echo "$daemon" >"$PID_FILE"
tries=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do
  tries=$((tries + 1))
  if [ "$tries" -ge 100 ]; then echo "gnome-keyring-daemon did not register on D-Bus" >&2; kill "$daemon"; exit 97; fi
  sleep 0.1
done
"$NODE" "$CHILD" "$STEPS"
status=$?
kill "$daemon"
wait "$daemon"
exit $status
`;

const daemonPids: number[] = [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return true;
}

afterAll(() => {
  // Only if a run was cut short by its timeout; normally the script already stopped its daemon.
  for (const pid of daemonPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout: 30_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

function parseOutput(stdout: string): ChildOutput {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as ChildOutput;
}

/** One app start against the keyring in `home`: a fresh D-Bus session and a fresh daemon each time. */
async function inKeyringSession(home: string, steps: ChildStep[]): Promise<ChildOutput> {
  await mkdir(join(home, 'run'), { recursive: true, mode: 0o700 });
  const pidFile = join(home, 'daemon.pid');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_RUNTIME_DIR: join(home, 'run'),
    KEYRING_PASSWORD: 'test keyring password',
    DAEMON_LOG: join(home, 'daemon.log'),
    PID_FILE: pidFile,
    NODE: process.execPath,
    CHILD,
    STEPS: JSON.stringify(steps),
  };
  let result: { stdout: string };
  try {
    result = await run('dbus-run-session', ['--', 'sh', '-c', SESSION_SCRIPT], env);
  } finally {
    const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (pid > 0) {
      daemonPids.push(pid);
      const deadline = Date.now() + 5_000;
      while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(isAlive(pid), 'gnome-keyring-daemon still running after the session').toBe(false);
    }
  }
  return parseOutput(result.stdout);
}

describe.skipIf(missing.length > 0)(
  `OsKeychain against a real gnome-keyring${missing.length > 0 ? ` (${skipReason})` : ''}`,
  () => {
    it('stores, replaces, reads and deletes keys per profile, and remembers them after a restart', async () => {
      const a = profileId('https://archive.example.com/');
      const b = profileId('http://127.0.0.1:4010');
      const [keyA, keyA2, keyB] = [makeKey(), makeKey(), makeKey()];
      const filePath = join(tmp, 'keys.json');

      const first = await inKeyringSession(tmp, [
        { op: 'open', storage: 'keychain', filePath },
        { op: 'get', profile: a },
        { op: 'set', profile: a, key: keyA },
        { op: 'set', profile: b, key: keyB },
        { op: 'get', profile: a },
        { op: 'get', profile: b },
        { op: 'set', profile: a, key: keyA2 },
        { op: 'get', profile: a },
        { op: 'delete', profile: b },
        { op: 'get', profile: b },
        { op: 'delete', profile: b },
      ]);
      expect(first.results).toEqual([
        { op: 'open', kind: 'keychain', warning: null },
        { op: 'get', value: null },
        { op: 'set', ok: true },
        { op: 'set', ok: true },
        { op: 'get', value: keyA },
        { op: 'get', value: keyB },
        { op: 'set', ok: true },
        { op: 'get', value: keyA2 },
        { op: 'delete', ok: true },
        { op: 'get', value: null },
        { op: 'delete', ok: true },
      ]);
      expect(first.logs).toEqual(['API keys: OS keychain']);

      // The keyring on disk is encrypted: the key is in no file in plain text, and no key file was created.
      const keyrings = join(tmp, 'data', 'keyrings');
      const files = await readdir(keyrings);
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) {
        const bytes = await readFile(join(keyrings, name));
        expect(bytes.includes(keyA2.slice(37)), `${name} holds the key in plain text`).toBe(false);
      }
      await expect(stat(filePath)).rejects.toMatchObject({ code: 'ENOENT' });

      // A new daemon reading the same keyring: what the next start of the app sees.
      const second = await inKeyringSession(tmp, [
        { op: 'open', storage: 'keychain', filePath },
        { op: 'get', profile: a },
        { op: 'get', profile: b },
        { op: 'delete', profile: a },
        { op: 'get', profile: a },
      ]);
      expect(second.results).toEqual([
        { op: 'open', kind: 'keychain', warning: null },
        { op: 'get', value: keyA2 },
        { op: 'get', value: null },
        { op: 'delete', ok: true },
        { op: 'get', value: null },
      ]);
    });
  },
);

describe.skipIf(process.platform !== 'linux')('OsKeychain without a Secret Service', () => {
  it('is reported as unavailable and the key stays in this session, not in the kernel keyring or a file', async () => {
    const key = makeKey();
    const filePath = join(tmp, 'keys.json');
    const { stdout } = await run(
      process.execPath,
      [
        CHILD,
        JSON.stringify([
          { op: 'open', storage: 'keychain', filePath },
          { op: 'set', profile: 'https://a.example.com', key },
          { op: 'get', profile: 'https://a.example.com' },
        ] satisfies ChildStep[]),
      ],
      { PATH: process.env.PATH, HOME: tmp, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(tmp, 'no-bus')}` },
    );
    const output = parseOutput(stdout);
    const [open, set, get] = output.results;
    expect(open).toMatchObject({ op: 'open', kind: 'session' });
    const warning = open && 'warning' in open ? open.warning : null;
    expect(warning).toMatch(
      /^No OS keychain is available \(.*no-bus.*\); the API key is kept for this session only\. Enable the file key store in settings to remember it\.$/,
    );
    expect(set).toEqual({ op: 'set', ok: true });
    expect(get).toEqual({ op: 'get', value: key });
    expect(await readdir(tmp)).toEqual([]);
    expect(stdout.split(key).length - 1).toBe(1); // only in the get result, never in a log line or the warning
  });
});
