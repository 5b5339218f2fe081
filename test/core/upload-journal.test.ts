import { existsSync, rmSync, statSync, truncateSync } from 'node:fs';
import { appendFile, mkdtemp, mkdir, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchedFolderSchema, type WatchedFolder } from '../../common/settings.ts';
import { ArchiveClient, toArchiveError } from '../../main/core/client/archive-client.ts';
import { ArchiveError } from '../../main/core/client/archive-error.ts';
import { hashFile } from '../../main/core/uploads/file-check.ts';
import { JournalStore, type UploadItem } from '../../main/core/uploads/journal-store.ts';
import { UploadJournal, type UploadTransport } from '../../main/core/uploads/upload-journal.ts';
import { revokeApiKey } from '../../server/auth/api-keys.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';

const FAST = { baseMs: 20, capMs: 200 };
let h: Harness;
let dir: string;
let proxy: FaultProxy;
let client: ArchiveClient;
let store: JournalStore;
let journal: UploadJournal;
let folders: Map<string, WatchedFolder>;

// Limits raised: every test uploads with the admin key, and the spec's 10 per minute would make later tests wait.
beforeAll(async () => {
  h = await startHarness({ limits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 } });
});
afterAll(async () => {
  await h.close();
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-test-'));
  proxy = await startFaultProxy(h.url);
  // Idle probes out of the way (tests count health checks); offline probes fast.
  client = new ArchiveClient({
    baseUrl: proxy.url,
    apiKey: h.adminKey,
    backoff: FAST,
    maxAttempts: 1,
    connection: { idleProbeMs: 60_000, offlineBackoff: FAST },
  });
  client.connection.start();
  folders = new Map();
  store = new JournalStore(join(dir, 'journal.sqlite'));
  journal = makeJournal();
});

afterEach(async () => {
  await journal.stop();
  store.close();
  await client.close();
  await proxy.close();
  await rm(dir, { recursive: true, force: true });
});

function makeJournal(
  options: { transport?: UploadTransport; retryBackoff?: { baseMs: number; capMs: number } } = {},
): UploadJournal {
  return new UploadJournal({
    store,
    transport: options.transport ?? client,
    folder: (id) => folders.get(id),
    retryBackoff: options.retryBackoff ?? FAST,
  });
}

/**
 * The real client, with a fault injected where no test could time it: `touch` runs on each upload the moment its body
 * starts (after the journal's and the client's checks, before the file is read).
 */
function touchingTransport(touch: (path: string) => void): UploadTransport {
  return {
    connection: client.connection,
    health: (signal) => client.health(signal),
    getDocument: (id, signal) => client.getDocument(id, signal),
    upload: (request) => {
      let started = false;
      return client.upload({
        ...request,
        onProgress: (sent, total) => {
          if (!started) {
            started = true;
            touch(request.path);
          }
          request.onProgress?.(sent, total);
        },
      });
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const healthChecks = () => proxy.requests.filter((r) => r.path === '/v1/health').length;

async function pdf(name: string, text = `${name} ${Math.random()}`): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, await makePdf(text));
  return path;
}

async function until<T>(probe: () => T | undefined | false, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A watched folder `<dir>/<id>` that deletes its files after the upload. */
function deletingFolder(id: string, stabilityWindowMs: number): void {
  folders.set(
    id,
    watchedFolderSchema.parse({
      id,
      path: join(dir, id),
      stability_window_ms: stabilityWindowMs,
      after_upload: { action: 'delete' },
    }),
  );
}

/** A new PDF in a watched folder (`<folderId>/<name>` under the test's directory), handed to the journal as the watcher would. */
async function handFolderFile(
  folderId: string,
  name: string,
): Promise<{ item: UploadItem; path: string; mtimeMs: number }> {
  const path = await pdf(`${folderId}/${name}`);
  const info = await stat(path);
  const item = journal.addFolderFile({
    folderId,
    path,
    relativePath: name,
    size: info.size,
    mtimeMs: info.mtimeMs,
    subfolderTags: [],
  })!;
  return { item, path, mtimeMs: info.mtimeMs };
}

const settled = (id: number) => () => {
  const item = store.get(id);
  return item && (item.state === 'done' || item.state === 'failed') ? item : undefined;
};
const posts = () => proxy.requests.filter((r) => r.method === 'POST' && r.path === '/v1/documents').length;

describe('upload journal', () => {
  it('uploads a dropped file with its metadata and records the document id', async () => {
    await journal.start();
    const states: string[] = [];
    journal.on('item', (item) => states.push(item.state));
    const progress: number[] = [];
    journal.on('progress', (p) => progress.push(p.sent));
    const [item] = await journal.addFiles([await pdf('invoice.pdf')], {
      metadata: { event_type: 'invoice', tags: ['bills'] },
    });
    const done = await until(settled(item!.id), 'upload');
    expect(done).toMatchObject({ state: 'done', last_error: null, source: 'manual' });
    expect(done.document_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(states).toEqual(['queued', 'hashing', 'waiting', 'uploading', 'accepted', 'done']);
    expect(progress.at(-1)).toBe(done.size);
    const res = await h.api(`/v1/documents/${done.document_id}`);
    expect(((await res.json()) as { document: { metadata: unknown } }).document.metadata).toEqual({
      event_type: 'invoice',
      tags: ['bills'],
    });
  });

  it('rejects what the service would reject before spending a request, with the service message', async () => {
    await journal.start();
    const text = join(dir, 'notes.pdf');
    await writeFile(text, 'plain text pretending to be a PDF');
    const huge = join(dir, 'huge.pdf');
    await writeFile(huge, '%PDF-1.4\n');
    await truncate(huge, 50 * 1024 * 1024 + 1);
    const items = await journal.addFiles([text, huge]);
    const [a, b] = await Promise.all(items.map((i) => until(settled(i.id), 'precheck')));
    expect(a).toMatchObject({ state: 'failed', last_error: 'File content does not match any supported format' });
    expect(b).toMatchObject({ state: 'failed', last_error: 'File exceeds the 50 MB limit' });
    expect(posts()).toBe(0);
    await expect(journal.addFiles([text], { metadata: { tags: ['1', '2', '3', '4', '5', '6'] } })).rejects.toThrow(
      'Invalid metadata: tags may have at most 5 entries',
    );
    await expect(journal.addFiles([join(dir, 'missing.pdf')])).rejects.toThrow('File not found');
  });

  it('dedupes by content across folders locally: the second copy is never uploaded', async () => {
    await journal.start();
    const bytes = await makePdf('same content twice');
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'a', 'scan.pdf'), bytes);
    await writeFile(join(dir, 'b', 'copy.pdf'), bytes);
    const [first] = await journal.addFiles([join(dir, 'a', 'scan.pdf')]);
    const one = await until(settled(first!.id), 'first');
    const [second] = await journal.addFiles([join(dir, 'b', 'copy.pdf')]);
    const two = await until(settled(second!.id), 'second');
    expect(two).toMatchObject({ state: 'done', document_id: one.document_id, duplicate_of: one.document_id });
    expect(posts()).toBe(1);
  });

  it('goes offline on a dead network, keeps everything, and uploads by itself once the service is back', async () => {
    await journal.start();
    await proxy.offline();
    const connectivity: boolean[] = [];
    journal.on('connectivity', (c) => connectivity.push(c.online));
    const items = await journal.addFiles([await pdf('o1.pdf'), await pdf('o2.pdf')]);
    await until(() => !journal.connectivity.online, 'offline');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(items.map((i) => store.get(i.id)!.state)).toEqual(['waiting', 'waiting']);
    expect(items.map((i) => store.get(i.id)!.attempts)).toEqual([0, 0]);
    await proxy.online();
    const done = await Promise.all(items.map((i) => until(settled(i.id), 'after reconnect')));
    expect(done.map((d) => d.state)).toEqual(['done', 'done']);
    expect(connectivity).toEqual([false, true]);
  });

  it('resumes uploads within 2 s of any request that reached the service, without waiting for its own probe', async () => {
    // Offline probes as slow as after a long outage: only another request can bring the queue back in time.
    const slowProbes = new ArchiveClient({
      baseUrl: proxy.url,
      apiKey: h.adminKey,
      maxAttempts: 1,
      connection: { idleProbeMs: 60_000, offlineBackoff: { baseMs: 60_000, capMs: 60_000 } },
    });
    await journal.stop();
    journal = new UploadJournal({ store, transport: slowProbes, folder: (id) => folders.get(id), retryBackoff: FAST });
    slowProbes.connection.start();
    try {
      await journal.start();
      await proxy.offline();
      const [item] = await journal.addFiles([await pdf('after-outage.pdf')]);
      await until(() => !journal.connectivity.online, 'offline');
      await proxy.online();
      const probes = healthChecks();
      await slowProbes.listEvents({ limit: 1 }); // the library sync reaching the service, say
      expect(await until(settled(item!.id), 'the upload after the request', 2_000)).toMatchObject({ state: 'done' });
      expect(healthChecks()).toBe(probes);
    } finally {
      await journal.stop();
      await slowProbes.close();
    }
  });

  it('checks the connection on request instead of assuming online, and recovers by itself', async () => {
    await journal.start();
    expect(await journal.checkConnection()).toBe(true);
    await proxy.offline();
    expect(await journal.checkConnection()).toBe(false);
    expect(journal.connectivity).toMatchObject({
      online: false,
      reason: expect.stringMatching(/^Cannot reach the service/),
    });
    await proxy.online();
    await until(() => journal.connectivity.online, 'online again after probing');
  });

  it('counts a service that never answers the check as unreachable, not as online', async () => {
    await journal.start();
    proxy.plan = ({ path }) => (path.startsWith('/v1/health') ? { kind: 'stall' } : { kind: 'pass' });
    try {
      expect(await journal.checkConnection(AbortSignal.timeout(300))).toBe(false);
      expect(journal.connectivity.online).toBe(false);
    } finally {
      proxy.plan = () => ({ kind: 'pass' });
    }
    await until(() => journal.connectivity.online, 'online again once the service answers');
  });

  it('retries a 503 with backoff and fails a permanent 4xx with the service message', async () => {
    await journal.start();
    let failures = 2;
    proxy.plan = ({ method }) =>
      method === 'POST' && failures-- > 0 ? { kind: 'status', status: 503 } : { kind: 'pass' };
    const [item] = await journal.addFiles([await pdf('retry.pdf')]);
    const done = await until(settled(item!.id), 'retried upload');
    expect(done).toMatchObject({ state: 'done', attempts: 2 });

    const other = await h.createSpace('Other');
    const viewer = await h.createKey({ role: 'viewer' });
    client.setApiKey(viewer);
    const [denied] = await journal.addFiles([await pdf('denied.pdf')], { spaceId: other });
    expect(await until(settled(denied!.id), 'denied')).toMatchObject({
      state: 'failed',
      last_error: 'Access denied to this space',
    });
  });

  it('a revoked key pauses the queue until a new key is given', async () => {
    const key = await h.createKey({ name: 'revoked-in-test' });
    client.setApiKey(key);
    await revokeApiKey(h.service.db, key.split('_')[1]!);
    await journal.start();
    const [item] = await journal.addFiles([await pdf('auth.pdf')]);
    await until(() => journal.connectivity.authRequired, 'auth required');
    const sent = posts();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posts()).toBe(sent);
    expect(store.get(item!.id)).toMatchObject({ state: 'waiting', last_error: 'Invalid or missing API key' });
    client.setApiKey(h.adminKey);
    journal.authRenewed();
    expect(await until(settled(item!.id), 'after new key')).toMatchObject({ state: 'done' });
  });

  it('pauses and resumes on the user’s word', async () => {
    await journal.start();
    journal.pause();
    const [item] = await journal.addFiles([await pdf('paused.pdf')]);
    await until(() => store.get(item!.id)!.state === 'waiting', 'hashed while paused');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(posts()).toBe(0);
    journal.resume();
    expect(await until(settled(item!.id), 'after resume')).toMatchObject({ state: 'done' });
  });

  it('deletes a file only once it was left alone for twice its window; one written again meanwhile stays', async () => {
    deletingFolder('scans', 1000);
    await journal.start();
    const hand = (name: string) => handFolderFile('scans', name);
    // A scanner that pauses between pages: the first page is uploaded, then the second arrives.
    const paused = await hand('paused.pdf');
    await until(() => store.get(paused.item.id)!.state === 'accepted', 'the first page accepted');
    await appendFile(paused.path, '\n% the second page\n');
    const kept = await until(settled(paused.item.id), 'the paused scan settled');
    expect(kept.after_upload).toBe(`delete: File changed since it was uploaded, left in place: ${paused.path}`);
    expect(statSync(paused.path).size).toBeGreaterThan(kept.size);

    // A scan left alone goes, but not before two windows have passed since its last write.
    const quiet = await hand('quiet.pdf');
    await until(() => store.get(quiet.item.id)!.state === 'accepted', 'the quiet scan accepted');
    await until(() => !existsSync(quiet.path), 'the quiet scan deleted', 10_000);
    expect(Date.now() - quiet.mtimeMs).toBeGreaterThanOrEqual(2 * 1000 - 50);
    expect(await until(settled(quiet.item.id), 'done')).toMatchObject({ state: 'done', after_upload: 'deleted' });
  });

  it('stops without waiting for a file to settle; the next start finishes its action', async () => {
    deletingFolder('slow', 30_000);
    await journal.start();
    const { item, path } = await handFolderFile('slow', 'a.pdf');
    await until(() => store.get(item.id)!.state === 'accepted', 'accepted');
    const stopping = Date.now();
    await journal.stop();
    expect(Date.now() - stopping).toBeLessThan(2_000);
    expect(store.get(item.id)!.state).toBe('accepted');
    expect(existsSync(path)).toBe(true);
    // Next start (the window since shortened): the accepted row finishes its action.
    deletingFolder('slow', 100);
    journal = makeJournal();
    await journal.start();
    expect(await until(settled(item.id), 'finished after the restart')).toMatchObject({ state: 'done' });
    expect(existsSync(path)).toBe(false);
  });

  it('resumes after a crash: half-done steps restart, an accepted item only finishes its action', async () => {
    const moveTo = join(dir, 'archived');
    const folder = watchedFolderSchema.parse({
      id: 'f1',
      path: join(dir, 'in'),
      after_upload: { action: 'move', to: moveTo },
    });
    folders.set('f1', folder);
    const paths = [await pdf('in/a.pdf'), await pdf('in/b.pdf'), await pdf('in/sub/c.pdf')];
    const items: UploadItem[] = [];
    for (const path of paths) {
      const info = await stat(path);
      items.push(
        journal.addFolderFile({
          folderId: 'f1',
          path,
          relativePath: path.slice(folder.path.length + 1),
          size: info.size,
          mtimeMs: info.mtimeMs,
          subfolderTags: [],
        })!,
      );
    }
    // Simulate a crash: a uploaded in a previous life (accepted), b mid-upload, c mid-hash.
    const accepted = (await (
      await h.upload({
        bytes: new Uint8Array(await import('node:fs/promises').then((fs) => fs.readFile(paths[0]!))),
        name: 'a.pdf',
      })
    ).json()) as { id: string };
    store.update(items[0]!.id, { state: 'accepted', document_id: accepted.id }, Date.now());
    store.update(items[1]!.id, { state: 'uploading' }, Date.now());
    store.update(items[2]!.id, { state: 'hashing' }, Date.now());
    journal = makeJournal();
    await journal.start();
    const done = await Promise.all(items.map((i) => until(settled(i.id), 'recovery')));
    expect(done.map((d) => d.state)).toEqual(['done', 'done', 'done']);
    expect(done[0]!.document_id).toBe(accepted.id);
    expect(posts()).toBe(2); // a was not uploaded again
    expect((await readdir(moveTo, { recursive: true })).sort()).toEqual(['a.pdf', 'b.pdf', 'sub', 'sub/c.pdf']);
    expect(done[2]!.after_upload).toBe(`moved to ${join(moveTo, 'sub', 'c.pdf')}`);
  });

  it('ignores a known version of a folder file and re-queues a failed file once it changes', async () => {
    const folder = watchedFolderSchema.parse({ id: 'f2', path: dir });
    folders.set('f2', folder);
    await journal.start();
    const path = join(dir, 'broken.pdf');
    await writeFile(path, 'not yet a pdf');
    const ready = async () => {
      const info = await stat(path);
      return {
        folderId: 'f2',
        path,
        relativePath: 'broken.pdf',
        size: info.size,
        mtimeMs: info.mtimeMs,
        subfolderTags: ['2026', 'Steuer'],
      };
    };
    const first = journal.addFolderFile(await ready())!;
    expect(journal.addFolderFile(await ready())).toBeNull();
    expect(await until(settled(first.id), 'failure')).toMatchObject({
      state: 'failed',
      last_error: 'File content does not match any supported format',
    });
    expect(journal.addFolderFile(await ready())).toBeNull();
    await writeFile(path, await makePdf('fixed now'));
    const again = journal.addFolderFile(await ready())!;
    expect(again.id).toBe(first.id);
    expect(again.metadata.tags).toEqual(['2026', 'Steuer']);
    expect(await until(settled(first.id), 'fixed')).toMatchObject({ state: 'done', last_error: null });
  });

  it('a copy of an uploaded file whose document was deleted in the archive is uploaded, not trusted to the journal', async () => {
    await journal.start();
    const bytes = await makePdf('deleted in the archive since');
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'a', 'scan.pdf'), bytes);
    await writeFile(join(dir, 'b', 'copy.pdf'), bytes);
    const [first] = await journal.addFiles([join(dir, 'a', 'scan.pdf')]);
    const one = await until(settled(first!.id), 'first');
    expect((await h.api(`/v1/documents/${one.document_id}`, { method: 'DELETE' })).status).toBe(200);
    const [second] = await journal.addFiles([join(dir, 'b', 'copy.pdf')]);
    const two = await until(settled(second!.id), 'second');
    expect(posts()).toBe(2);
    expect(two.state).toBe('done');
    expect(two.document_id).not.toBe(one.document_id);
    expect(two.duplicate_of).toBeNull(); // the deleted original does not count: the copy is the archive's original now
  });
});

describe('upload journal: problems with the file on this computer', () => {
  it('classes file-system errors as local, never as the network', () => {
    const fsError = (code: string) =>
      Object.assign(new Error(`${code}: something, open '/x/y.pdf'`), { code, syscall: 'open', path: '/x/y.pdf' });
    for (const code of ['ENOENT', 'EACCES', 'EISDIR', 'EPERM', 'EMFILE', 'ENOTDIR']) {
      const error = toArchiveError(fsError(code));
      expect([code, error.kind, error.offline, error.transient]).toEqual([code, 'local', false, false]);
    }
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EPIPE']) {
      expect([code, toArchiveError(Object.assign(new Error(code), { code })).kind]).toEqual([code, 'network']);
    }
  });

  it('a file deleted while it waits fails with a clear reason: no offline flip, no request, no upload token', async () => {
    await journal.start();
    journal.pause();
    const online: boolean[] = [];
    journal.on('connectivity', (c) => online.push(c.online));
    const path = await pdf('vanishing.pdf');
    const [item] = await journal.addFiles([path]);
    await until(() => store.get(item!.id)!.state === 'waiting', 'hashed while paused');
    await rm(path);
    const tokens = client.rateLimits.uploads.remaining;
    journal.resume();
    expect(await until(settled(item!.id), 'the vanished file')).toMatchObject({
      state: 'failed',
      last_error: `File no longer exists: ${path}`,
    });
    await sleep(200);
    expect(store.get(item!.id)!.state).toBe('failed'); // final: not retried behind our back
    expect(online.every(Boolean)).toBe(true);
    expect(journal.connectivity).toMatchObject({ online: true, reason: null });
    expect(posts()).toBe(0);
    expect(healthChecks()).toBe(0);
    expect(client.rateLimits.uploads.remaining).toBe(tokens);

    // Comes back (same name): queued again, although it has the very size and mtime the failed row knows.
    folders.set('f3', watchedFolderSchema.parse({ id: 'f3', path: dir }));
    await writeFile(path, await makePdf('back again'));
    const info = await stat(path);
    const ready = {
      folderId: 'f3',
      path,
      relativePath: 'vanishing.pdf',
      size: info.size,
      mtimeMs: info.mtimeMs,
      subfolderTags: [],
    };
    store.update(item!.id, { size: info.size, mtime_ms: info.mtimeMs }, Date.now());
    expect(journal.addFolderFile(ready)?.id).toBe(item!.id);
    expect(await until(settled(item!.id), 'the file that came back')).toMatchObject({
      state: 'done',
      last_error: null,
    });
  });

  it('the client refuses a vanished file before sending and gives its tokens back', async () => {
    const before = client.rateLimits;
    const error = await client
      .upload({ path: join(dir, 'never-there.pdf'), fileName: 'never-there.pdf', size: 1000, maxAttempts: 1 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).kind).toBe('local');
    expect((error as ArchiveError).offline).toBe(false);
    expect(client.rateLimits.uploads.remaining).toBe(before.uploads.remaining);
    expect(client.rateLimits.requests.remaining).toBe(before.requests.remaining);
    expect(posts()).toBe(0);
  });

  it('a file deleted in the middle of its upload fails with the clear reason and leaves the journal online', async () => {
    await journal.stop();
    journal = makeJournal({ transport: touchingTransport((path) => rmSync(path)) });
    await journal.start();
    const path = await pdf('deleted-mid-upload.pdf');
    const [item] = await journal.addFiles([path]);
    expect(await until(settled(item!.id), 'the deleted file')).toMatchObject({
      state: 'failed',
      last_error: `File no longer exists: ${path}`,
    });
    await sleep(200);
    expect(journal.connectivity.online).toBe(true);
    expect(healthChecks()).toBe(0);
    expect(posts()).toBe(1);
  });

  it('a file that keeps changing during its upload is hashed again with backoff, not retried in a tight loop', async () => {
    await journal.stop();
    // Bigger than one read so a shorter file is noticed mid-body; the padding after %%EOF keeps every truncation a PDF.
    const path = join(dir, 'changing.pdf');
    await writeFile(
      path,
      Buffer.concat([Buffer.from(await makePdf('changing while sent')), Buffer.alloc(600_000, 0x20)]),
    );
    let changing = true;
    journal = makeJournal({
      retryBackoff: { baseMs: 100, capMs: 400 },
      transport: touchingTransport((p) => {
        if (changing) truncateSync(p, statSyncSize(p) - 1000);
      }),
    });
    await journal.start();
    const online: boolean[] = [];
    journal.on('connectivity', (c) => online.push(c.online));
    // Every error the row showed: sampled once, it may be between a re-hash (which clears it) and the next try.
    const errors: string[] = [];
    journal.on('item', (changed) => {
      if (changed.path === path && changed.last_error) errors.push(changed.last_error);
    });
    const [item] = await journal.addFiles([path]);
    await sleep(1500);
    const during = posts();
    expect(during).toBeGreaterThanOrEqual(2);
    expect(during).toBeLessThanOrEqual(10); // backoff 50+100+200+200+200+200… ms; without it, hundreds
    const current = store.get(item!.id)!;
    expect(current.attempts).toBeGreaterThanOrEqual(2);
    expect(errors.filter((error) => error.startsWith('File changed while uploading: ')).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(online).toEqual([]);
    changing = false;
    const done = await until(settled(item!.id), 'the file once it stopped changing');
    expect(done).toMatchObject({ state: 'done', sha256: await hashFile(path), size: (await stat(path)).size });
  });
});

function statSyncSize(path: string): number {
  return statSync(path).size;
}
