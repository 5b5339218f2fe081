/**
 * A browser-shell tab from an earlier start of the app (a restart, a bookmark): its token is refused. The bridge asks
 * the shell why its socket was refused, stops retrying, and every call fails with a message that says what to do,
 * instead of "Loading…" while the socket knocks forever.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { newWebShellToken, startWebShell, webPreviewUrl, type WebShell } from '../../main/web/web-shell.ts';
import { createWebDesktop, SessionEndedError, type SocketLike } from '../../renderer/src/lib/web-desktop.ts';

let dir: string;
let app: DesktopApp;
let shell: WebShell;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stale-tab-test-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Desktop Archive</title>');
  const token = newWebShellToken();
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings: new SettingsStore(openConfBackend({ cwd: join(dir, 'config') })),
    keys: new SessionKeyStore(),
    previewUrl: (id) => webPreviewUrl(id, token),
  });
  await app.start();
  shell = await startWebShell({ app, rendererDir, token });
});

afterAll(async () => {
  await shell?.close();
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

const base = () => `http://127.0.0.1:${shell.port}`;

describe('a stale browser-shell tab', () => {
  it('GET /session answers 204 for the token of this start and 403 with what to do for any other', async () => {
    expect((await fetch(`${base()}/session?token=${shell.token}`)).status).toBe(204);
    const stale = await fetch(`${base()}/session?token=${newWebShellToken()}`);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toBe(
      'This address is from an earlier start of the app: open the address npm start printed this time.',
    );
    expect((await fetch(`${base()}/session`)).status).toBe(403);
  });

  it('the bridge stops retrying a refused token and every call says the app was restarted', async () => {
    let attempts = 0;
    const connect = (url: string): SocketLike => {
      attempts += 1;
      return new WebSocket(url, { origin: base() }) as unknown as SocketLike;
    };
    const desktop = createWebDesktop(
      { host: `127.0.0.1:${shell.port}`, hash: `#token=${newWebShellToken()}`, pathname: '/', search: '' },
      {
        connect,
        storage: null,
        history: null,
        connectTimeoutMs: 60_000,
        retryMs: { first: 20, max: 40 },
        sessionEndedMessage: () => 'Neu gestartet',
      },
    );
    try {
      const started = Date.now();
      const failure = await desktop['status.get']().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SessionEndedError);
      expect((failure as Error).message).toBe('Neu gestartet');
      // Told at once, not after the connect timeout.
      expect(Date.now() - started).toBeLessThan(30_000);
      const seen = attempts;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(attempts).toBe(seen);
      await expect(desktop['settings.get']()).rejects.toThrow('Neu gestartet');
    } finally {
      desktop.close();
    }
  });
});
