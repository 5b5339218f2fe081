import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CALL_NAMES, type EventName } from '../../common/ipc.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { newWebShellToken, startWebShell, webPreviewUrl, type WebShell } from '../../main/web/web-shell.ts';
import { createWebDesktop, DesktopCallError, type SocketLike } from '../../renderer/src/lib/web-desktop.ts';
import { makePdf } from '../helpers/archive-harness.ts';

let dir: string;
let app: DesktopApp;
let shell: WebShell;
let origin: string;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, not fetch: the path goes out exactly as written (no `..` normalisation) and Host can be forged. */
function raw(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: shell.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with it when open, or with the HTTP status the upgrade was refused with. */
function openSocket(url: string, socketOrigin: string | undefined): Promise<{ ws: WebSocket } | { refused: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, socketOrigin === undefined ? {} : { origin: socketOrigin });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

async function socket(): Promise<
  WebSocket & { next(predicate?: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> }
> {
  const opened = await openSocket(`ws://127.0.0.1:${shell.port}/ipc?token=${shell.token}`, origin);
  if (!('ws' in opened)) throw new Error(`refused with ${opened.refused}`);
  const frames: Array<Record<string, unknown>> = [];
  const waiting: Array<{
    predicate: (frame: Record<string, unknown>) => boolean;
    resolve: (frame: Record<string, unknown>) => void;
  }> = [];
  opened.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as Record<string, unknown>;
    const index = waiting.findIndex((w) => w.predicate(frame));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(frame);
    else frames.push(frame);
  });
  return Object.assign(opened.ws, {
    next(predicate: (frame: Record<string, unknown>) => boolean = () => true) {
      const index = frames.findIndex(predicate);
      if (index >= 0) return Promise.resolve(frames.splice(index, 1)[0]!);
      return new Promise<Record<string, unknown>>((resolve) => waiting.push({ predicate, resolve }));
    },
  });
}

const INLINE_SCRIPT = 'window.started = performance.now();';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-shell-test-'));
  const rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    `<!doctype html><title>Desktop Archive</title><script>${INLINE_SCRIPT}</script><script type="module" src="/assets/app.js"></script>`,
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  await writeFile(join(rendererDir, 'assets', 'index-Cj-JQ5on.js'), 'console.log("built");');
  await writeFile(join(dir, 'secret.txt'), 'outside the renderer');
  const token = newWebShellToken();
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings: new SettingsStore(openConfBackend({ cwd: join(dir, 'config') })),
    keys: new SessionKeyStore(),
    localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
    previewUrl: (id) => webPreviewUrl(id, token),
  });
  await app.start();
  shell = await startWebShell({ app, rendererDir, token });
  origin = `http://127.0.0.1:${shell.port}`;
});

afterAll(async () => {
  await shell?.close();
  await app?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('browser shell: static files', () => {
  it('prints a loopback URL carrying the token in the query (the page gets the first paint with it)', () => {
    expect(shell.url).toBe(`http://127.0.0.1:${shell.port}/?token=${shell.token}`);
    expect(shell.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves index.html with a strict CSP, and falls back to it for client routes', async () => {
    for (const path of ['/', '/index.html', '/library/some-route']) {
      const res = await raw(path, { Host: `127.0.0.1:${shell.port}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // The page's own inline script (the renderer's early start) runs by its hash, and no other does.
      const hash = createHash('sha256').update(INLINE_SCRIPT).digest('base64');
      expect(/script-src [^;]*/.exec(csp)?.[0]).toBe(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`);
      expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${shell.port}`);
      expect(csp).toContain("img-src 'self' blob: data:");
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // No opener policy: it would make every new tab start a second renderer process once the page has answered
      // (renderer-files.ts rendererHeaders), and the page opens no other window for it to guard.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
    const js = await raw('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw('/assets/missing.js')).status).toBe(404);
  });

  it("lets the browser keep a built asset (its name holds its contents' hash) and revalidate everything else", async () => {
    const built = await raw('/assets/index-Cj-JQ5on.js');
    expect(built.status).toBe(200);
    expect(built.headers['cache-control']).toBe('max-age=31536000, immutable');
    // A name without a build's hash, the page and a file beside the assets may change under the same name.
    expect((await raw('/assets/app.js')).headers['cache-control']).toBe('no-cache');
    expect((await raw('/')).headers['cache-control']).toBe('no-cache');
    // The page opened with the token holds the user's settings (and could hold the first paint): never kept.
    expect((await raw(`/?token=${shell.token}`)).headers['cache-control']).toBe('no-store');
  });

  it('refuses directory traversal, other hosts and other methods', async () => {
    for (const path of [
      '/../package.json',
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/assets%5c..%5c..%5csecret.txt',
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(403);
      expect(res.body.toString()).not.toContain('outside the renderer');
    }
    expect((await raw('/', { Host: 'evil.example:80' })).status).toBe(403);
    expect((await raw('/', { Host: `localhost:${shell.port}` })).status).toBe(403);
    const post = await fetch(`${origin}/`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('browser shell: the socket', () => {
  it('refuses a missing or wrong token, a foreign or missing Origin, and other paths', async () => {
    const base = `ws://127.0.0.1:${shell.port}`;
    expect(await openSocket(`${base}/ipc`, origin)).toEqual({ refused: 403 });
    expect(await openSocket(`${base}/ipc?token=${newWebShellToken()}`, origin)).toEqual({ refused: 403 });
    expect(await openSocket(`${base}/ipc?token=${shell.token.slice(1)}`, origin)).toEqual({ refused: 403 });
    expect(await openSocket(`${base}/ipc?token=${shell.token}`, 'http://evil.example')).toEqual({ refused: 403 });
    expect(await openSocket(`${base}/ipc?token=${shell.token}`, `http://localhost:${shell.port}`)).toEqual({
      refused: 403,
    });
    expect(await openSocket(`${base}/ipc?token=${shell.token}`, undefined)).toEqual({ refused: 403 });
    expect(await openSocket(`${base}/other?token=${shell.token}`, origin)).toEqual({ refused: 403 });
  });

  it('answers a good call, and an error naming the field for a bad payload or an unknown call', async () => {
    const ws = await socket();
    ws.send(JSON.stringify({ id: 1, call: 'status.get' }));
    const status = await ws.next((f) => f.id === 1);
    expect(status).toMatchObject({ id: 1, ok: true, result: { mode: 'local', online: true } });
    expect(JSON.stringify(status)).not.toMatch(/das_[0-9a-f]{32}_[A-Za-z0-9_-]{10}/);

    ws.send(JSON.stringify({ id: 2, call: 'library.list', input: {} }));
    expect(await ws.next((f) => f.id === 2)).toMatchObject({ ok: true, result: { items: [], total: 0 } });

    ws.send(JSON.stringify({ id: 3, call: 'documents.get', input: { id: 'nope' } }));
    expect(await ws.next((f) => f.id === 3)).toEqual({
      id: 3,
      ok: false,
      error: { message: 'documents.get: id: expected a uuid', issues: ['id: expected a uuid'] },
    });

    ws.send(JSON.stringify({ id: 4, call: 'library.list', input: { limit: 'all', extra: true } }));
    const bad = await ws.next((f) => f.id === 4);
    expect(bad).toMatchObject({ ok: false });
    expect((bad.error as { message: string }).message).toMatch(/^library\.list: .*limit: /);

    // The browser shell (as the tests start it) has no system opener and no folder picker: it says so.
    ws.send(JSON.stringify({ id: 9, call: 'dialogs.pickFolder', input: { title: 'Choose a folder' } }));
    expect(await ws.next((f) => f.id === 9)).toEqual({ id: 9, ok: true, result: { path: null, supported: false } });
    ws.send(JSON.stringify({ id: 10, call: 'documents.open', input: { id: crypto.randomUUID() } }));
    expect(await ws.next((f) => f.id === 10)).toEqual({ id: 10, ok: true, result: { opened: false } });

    ws.send(JSON.stringify({ id: 5, call: 'shell.exec', input: { command: 'rm -rf /' } }));
    expect(await ws.next((f) => f.id === 5)).toEqual({
      id: 5,
      ok: false,
      error: { message: 'Unknown call: shell.exec' },
    });

    ws.send(JSON.stringify({ id: 6, call: '__proto__' }));
    expect(await ws.next((f) => f.id === 6)).toMatchObject({
      ok: false,
      error: { message: 'Unknown call: __proto__' },
    });

    ws.send(JSON.stringify({ id: 7, call: 'status.get', input: { unexpected: 1 } }));
    expect(await ws.next((f) => f.id === 7)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^status\.get: /) },
    });

    // A handler's own error comes back with the service's status and no stack.
    ws.send(JSON.stringify({ id: 8, call: 'uploads.add', input: { paths: [join(dir, 'missing.pdf')] } }));
    expect(await ws.next((f) => f.id === 8)).toEqual({
      id: 8,
      ok: false,
      error: { message: `File not found: ${join(dir, 'missing.pdf')}`, status: 400 },
    });
    ws.close();
  });

  it('closes the socket on a frame that is not JSON or has no id', async () => {
    for (const frame of ['{not json', JSON.stringify({ call: 'status.get' })]) {
      const ws = await socket();
      const code = await new Promise<number>((resolve) => {
        ws.once('close', (closeCode) => resolve(closeCode));
        ws.send(frame);
      });
      expect(code).toBe(1003);
    }
  });
});

describe('browser shell: the renderer bridge (web-desktop) end to end', () => {
  const connect = (url: string): SocketLike => new WebSocket(url, { origin }) as unknown as SocketLike;

  it('implements every call of the contract, forwards events, and streams previews with ranges', async () => {
    const stored = new Map<string, string>();
    const replaced: string[] = [];
    const later: Array<() => void> = [];
    const desktop = createWebDesktop(
      { host: `127.0.0.1:${shell.port}`, hash: `#token=${shell.token}`, pathname: '/', search: '' },
      {
        connect,
        storage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) },
        history: { replaceState: (_d, _u, url) => void replaced.push(url) },
        later: (task) => void later.push(task),
      },
    );
    try {
      // The token in the address is used at once; keeping it and clearing the address bar wait for an idle moment.
      expect(await desktop['settings.get']()).toMatchObject({ version: expect.any(Number) });
      expect([replaced, [...stored.values()]]).toEqual([[], []]);
      expect(later).toHaveLength(1);
      later[0]!();
      expect(replaced).toEqual(['/']);
      expect([...stored.values()]).toEqual([shell.token]);
      for (const name of CALL_NAMES) expect(typeof desktop[name], name).toBe('function');
      // A web page is never told where a dropped file lives.
      expect(desktop.pathForFile(new File(['x'], 'scan.pdf'))).toBeNull();
      expect(await desktop['dialogs.pickFolder']({})).toEqual({ path: null, supported: false });

      expect(await desktop['status.get']()).toMatchObject({ mode: 'local' });
      const failure = await desktop['documents.get']({ id: 'nope' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DesktopCallError);
      expect(failure).toMatchObject({ message: 'documents.get: id: expected a uuid', issues: ['id: expected a uuid'] });

      const seen: EventName[] = [];
      const counts: Array<Record<string, number>> = [];
      const stopCounts = desktop.on('uploads.counts', (payload) => void counts.push(payload));
      const stopItems = desktop.on('uploads.item', () => void seen.push('uploads.item'));
      expect(() => desktop.on('no.such.event' as EventName, () => {})).toThrow('Unknown event: no.such.event');

      const pdf = await makePdf(['Stadtwerke Beispiel GmbH', 'Rechnung Nr. 4711']);
      await writeFile(join(dir, 'Rechnung.pdf'), pdf);
      const [item] = await desktop['uploads.add']({ paths: [join(dir, 'Rechnung.pdf')] });
      expect(item).toMatchObject({ file_name: 'Rechnung.pdf' });
      const documentId = await waitFor(async () => {
        const list = await desktop['uploads.list']({});
        return list.items[0]?.document_id ?? undefined;
      }, 'the upload accepted');
      expect(counts.length).toBeGreaterThan(0);
      expect(seen).toContain('uploads.item');
      stopCounts();
      stopItems();

      const preview = await desktop['documents.preview']({ id: documentId });
      expect(preview).toEqual({
        url: webPreviewUrl(documentId, shell.token),
        mime_type: 'application/pdf',
        file_name: 'Rechnung.pdf',
        size: pdf.length,
      });

      const whole = await raw(preview.url);
      expect(whole.status).toBe(200);
      expect(whole.headers).toMatchObject({
        'content-type': 'application/pdf',
        'cache-control': 'no-store',
        'accept-ranges': 'bytes',
        'content-length': String(pdf.length),
        'content-disposition': "inline; filename*=UTF-8''Rechnung.pdf",
      });
      expect(whole.body.equals(Buffer.from(pdf))).toBe(true);

      const part = await raw(preview.url, { Range: 'bytes=10-109' });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-109/${pdf.length}`);
      expect(part.body.equals(Buffer.from(pdf).subarray(10, 110))).toBe(true);
      const tail = await raw(preview.url, { Range: 'bytes=-5' });
      expect(tail.body.toString('latin1')).toBe(Buffer.from(pdf).subarray(-5).toString('latin1'));
      expect((await raw(preview.url, { Range: `bytes=${pdf.length}-` })).status).toBe(416);

      expect((await raw(`/preview/${documentId}`)).status).toBe(403);
      expect((await raw(`/preview/${documentId}?token=${newWebShellToken()}`)).status).toBe(403);
      expect((await raw(`/preview/not-a-uuid?token=${shell.token}`)).status).toBe(404);
      expect((await raw(`/preview/${crypto.randomUUID()}?token=${shell.token}`)).status).toBe(404);
      expect(await readFile(join(dir, 'Rechnung.pdf'))).toEqual(Buffer.from(pdf));
    } finally {
      desktop.close();
    }
  }, 60_000);

  it('rejects calls in flight when the socket drops, and reconnects by itself', async () => {
    const opened: WebSocket[] = [];
    const desktop = createWebDesktop(
      { host: `127.0.0.1:${shell.port}`, hash: `#token=${shell.token}`, pathname: '/', search: '' },
      {
        connect: (url) => {
          const ws = new WebSocket(url, { origin });
          opened.push(ws);
          return ws as unknown as SocketLike;
        },
        storage: null,
        history: null,
        retryMs: { first: 20, max: 100 },
      },
    );
    try {
      await desktop['status.get']();
      const statuses: unknown[] = [];
      desktop.on('status.changed', (status) => void statuses.push(status));
      // The connection breaks while a call is in flight.
      const inFlight = desktop['library.sync']();
      opened.at(-1)!.terminate();
      await expect(inFlight).rejects.toThrow('The connection to the desktop app was lost');
      expect(await desktop['status.get']()).toMatchObject({ mode: 'local' });
      expect(opened.length).toBeGreaterThanOrEqual(2);
      await waitFor(async () => statuses.length > 0 || undefined, 'a fresh status after reconnecting');
    } finally {
      desktop.close();
    }
  });

  it('fails clearly without a token', async () => {
    const desktop = createWebDesktop(
      { host: `127.0.0.1:${shell.port}`, hash: '', pathname: '/', search: '' },
      { connect, storage: null, history: null },
    );
    await expect(desktop['status.get']()).rejects.toThrow('No access token');
    desktop.close();
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
