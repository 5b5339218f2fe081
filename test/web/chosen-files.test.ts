import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { ChosenFiles, keptFileName } from '../../main/core/uploads/chosen-files.ts';
import { newWebShellToken, startWebShell, webPreviewUrl, type WebShell } from '../../main/web/web-shell.ts';
import { createWebDesktop, DesktopCallError, type SocketLike } from '../../renderer/src/lib/web-desktop.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { WebSocket } from 'ws';

/**
 * Files chosen in the browser shell's page: streamed to POST /files, kept under the app's data directory, queued in the
 * real journal and uploaded to the real embedded service; the copy goes once the upload is done.
 */
let dir: string;
let home: string;
let app: DesktopApp;
let shell: WebShell;
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chosen-files-test-'));
  home = join(dir, 'home');
  const rendererDir = join(dir, 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Desktop Archive</title>');
  const token = newWebShellToken();
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings: new SettingsStore(openConfBackend({ cwd: join(dir, 'config') })),
    keys: new SessionKeyStore(),
    localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
    previewUrl: (id) => webPreviewUrl(id, token),
    homeDir: home,
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

/** The page's bridge, its socket and its fetch carrying the page's Origin (a browser adds it to every POST). */
function bridge(token = shell.token) {
  return createWebDesktop(
    { host: `127.0.0.1:${shell.port}`, hash: `#token=${token}`, pathname: '/', search: '' },
    {
      connect: (url) => new WebSocket(url, { origin }) as unknown as SocketLike,
      storage: null,
      history: null,
      fetch: (url, init) => fetch(url, { ...init, headers: { Origin: origin } }),
      checkToken: async () => 'refused',
    },
  );
}

const keptCopies = async (): Promise<string[]> => readdir(join(dir, 'data', 'chosen-files')).catch(() => []);

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('browser shell: chosen files', () => {
  it("queues chosen files with the form's metadata, uploads them, and deletes the copy once done", async () => {
    const api = bridge();
    try {
      const pdf = await makePdf('Chosen in the browser');
      const file = new File([pdf], 'Rechnung März.pdf', { type: 'application/pdf' });
      const added = await api.addFiles([file], { metadata: { title: 'Chosen invoice', tags: ['chosen'] } });
      expect(added).toHaveLength(1);
      expect(added[0]!.file_name).toBe('Rechnung März.pdf');
      expect(added[0]!.metadata).toEqual({ title: 'Chosen invoice', tags: ['chosen'] });
      const done = await waitFor('the upload', () => {
        const item = app.core.journal.list({ limit: 10 }).items.find((i) => i.id === added[0]!.id);
        return item?.state === 'done' ? item : undefined;
      });
      const document = await app.handlers['documents.get']({ id: done.document_id! });
      expect(document.original_filename).toBe('Rechnung März.pdf');
      expect(document.title).toBe('Chosen invoice');
      await waitFor('the copy to go', async () => ((await keptCopies()).length === 0 ? true : undefined));
    } finally {
      api.close();
    }
  });

  it('refuses bad metadata with the field named, and keeps nothing', async () => {
    const api = bridge();
    try {
      const file = new File([await makePdf('x')], 'a.pdf');
      const error = await api.addFiles([file], { metadata: { due_date: '2026-13-45' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DesktopCallError);
      expect((error as Error).message).toMatch(/due_date/);
      expect(await keptCopies()).toEqual([]);
    } finally {
      api.close();
    }
  });

  it('refuses a file above 50 MB before sending it', async () => {
    const api = bridge();
    try {
      const big = { name: 'huge.pdf', size: 50 * 1024 * 1024 + 1 } as File;
      await expect(api.addFiles([big], {})).rejects.toThrow('File exceeds the 50 MB limit: huge.pdf');
    } finally {
      api.close();
    }
  });

  it('refuses another token, another origin and other methods, reading nothing', async () => {
    const body = new FormData();
    body.append('options', '{}');
    body.append('file', new File([await makePdf('x')], 'a.pdf'));
    const post = (query: string, headers: Record<string, string>) =>
      fetch(`${origin}/files${query}`, { method: 'POST', body, headers });
    expect((await post(`?token=${newWebShellToken()}`, { Origin: origin })).status).toBe(403);
    expect((await post(`?token=${shell.token}`, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(`?token=${shell.token}`, {})).status).toBe(403);
    expect((await fetch(`${origin}/files?token=${shell.token}`)).status).toBe(405);
    expect(await keptCopies()).toEqual([]);
    // The page's bridge takes a refused token for a restarted app: it says so instead of a bare 403.
    const stale = bridge(newWebShellToken());
    try {
      await expect(stale.addFiles([new File(['x'], 'a.pdf')], {})).rejects.toThrow(/restarted/);
    } finally {
      stale.close();
    }
  });

  it('refuses files before the options and a body that is not multipart', async () => {
    const body = new FormData();
    body.append('file', new File([await makePdf('x')], 'a.pdf'));
    body.append('options', '{}');
    const early = await fetch(`${origin}/files?token=${shell.token}`, {
      method: 'POST',
      body,
      headers: { Origin: origin },
    });
    expect(early.status).toBe(400);
    expect(await early.json()).toEqual({
      ok: false,
      error: { message: 'The options field must come before the files', status: 400 },
    });
    const json = await fetch(`${origin}/files?token=${shell.token}`, {
      method: 'POST',
      body: '{}',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
    });
    expect(json.status).toBe(415);
    expect(await keptCopies()).toEqual([]);
  });
});

describe('ChosenFiles', () => {
  it('keeps a file under its own name in a folder of its own, and refuses one above the limit keeping nothing', async () => {
    const chosen = new ChosenFiles(join(dir, 'kept'), 10);
    const path = await chosen.receive('../../etc/passwd', Readable.from([Buffer.from('0123456789')]));
    expect(path.startsWith(join(dir, 'kept'))).toBe(true);
    expect(path.endsWith('/passwd')).toBe(true);
    expect(chosen.owns(path)).toBe(true);
    expect(chosen.owns(join(dir, 'kept'))).toBe(false);
    await expect(
      chosen.receive('big.pdf', Readable.from([Buffer.from('01234'), Buffer.from('567890')])),
    ).rejects.toMatchObject({ status: 413, message: 'File exceeds the 50 MB limit' });
    expect(await readdir(join(dir, 'kept'))).toHaveLength(1);
    // What the journal still needs stays; the rest goes.
    const other = await chosen.receive('b.pdf', Readable.from([Buffer.from('x')]));
    expect(await chosen.sweep(new Set([other]))).toBe(1);
    expect(await readdir(join(dir, 'kept'))).toHaveLength(1);
    await chosen.discard(other);
    expect(await readdir(join(dir, 'kept'))).toHaveLength(0);
  });

  it('names a kept file without paths or unsafe characters', () => {
    expect(keptFileName('C:\\Users\\me\\scan.pdf')).toBe('scan.pdf');
    expect(keptFileName('a\u202ecod.exe.pdf')).toBe('acod.exe.pdf');
    expect(keptFileName('..')).toBe('file');
    expect(keptFileName('')).toBe('file');
  });
});

describe('folders.browse', () => {
  it('lists the visible folders of the home folder and below, and nothing outside it', async () => {
    await mkdir(join(home, 'Scans', '2026'), { recursive: true });
    await mkdir(join(home, '.cache'), { recursive: true });
    await mkdir(join(home, 'Documents'), { recursive: true });
    await writeFile(join(home, 'notes.txt'), 'a file, not a folder');
    await symlink(dir, join(home, 'escape'));
    const top = await app.handlers['folders.browse']({});
    expect(top).toMatchObject({ path: home, parent: null, home, truncated: false });
    expect(top.folders).toEqual([
      { name: 'Documents', path: join(home, 'Documents') },
      { name: 'Scans', path: join(home, 'Scans') },
    ]);
    const scans = await app.handlers['folders.browse']({ path: join(home, 'Scans') });
    expect(scans).toMatchObject({ parent: home, folders: [{ name: '2026', path: join(home, 'Scans', '2026') }] });
    await expect(app.handlers['folders.browse']({ path: dir })).rejects.toMatchObject({ status: 403 });
    await expect(app.handlers['folders.browse']({ path: join(home, '..') })).rejects.toMatchObject({ status: 403 });
    await expect(app.handlers['folders.browse']({ path: join(home, 'escape') })).rejects.toMatchObject({ status: 403 });
    await expect(app.handlers['folders.browse']({ path: join(home, 'missing') })).rejects.toThrow(
      `Folder not found: ${join(home, 'missing')}`,
    );
    await expect(app.handlers['folders.browse']({ path: join(home, 'notes.txt') })).rejects.toThrow('Not a folder');
  });
});
