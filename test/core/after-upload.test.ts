import { existsSync, statSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchedFolderSchema, type AfterUploadAction, type WatchedFolder } from '../../common/settings.ts';
import { fileProblem } from '../../common/file-problems.ts';
import { applyAfterUpload, suffixedName, type AfterUploadResult } from '../../main/core/watcher/after-upload.ts';

/** Where a moved file went; undefined for any other outcome. */
const movedTo = (result: AfterUploadResult): string | undefined =>
  result.outcome === 'done' && result.action === 'move' ? result.destination : undefined;

let tmp: string;
let inbox: string;
let done: string;
const cleanups: string[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'after-upload-test-'));
  inbox = path.join(tmp, 'inbox');
  done = path.join(tmp, 'done');
  await mkdir(inbox);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
  await Promise.all(cleanups.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const folderWith = (after_upload: AfterUploadAction): WatchedFolder =>
  watchedFolderSchema.parse({ id: 'f1', path: inbox, after_upload });

async function scan(relativePath: string, content = `content of ${relativePath}`) {
  const file = path.join(inbox, ...relativePath.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  const stats = await stat(file);
  return { path: file, relativePath, size: stats.size, mtimeMs: stats.mtimeMs };
}

describe('suffixedName', () => {
  it('adds " (n)" before the extension', () => {
    expect(suffixedName('/x/name.pdf', 1)).toBe('/x/name.pdf');
    expect(suffixedName('/x/name.pdf', 2)).toBe('/x/name (2).pdf');
    expect(suffixedName('/x/archive.tar.gz', 3)).toBe('/x/archive.tar (3).gz');
    expect(suffixedName('/x/README', 2)).toBe('/x/README (2)');
  });
});

describe('applyAfterUpload', () => {
  it('keep leaves the file where it is', async () => {
    const file = await scan('a.pdf');
    expect(await applyAfterUpload(folderWith({ action: 'keep' }), file)).toEqual({ action: 'keep', outcome: 'done' });
    expect(existsSync(file.path)).toBe(true);
  });

  it('delete removes the file; a second call reports it already gone without throwing', async () => {
    const file = await scan('sub/a.pdf');
    const folder = folderWith({ action: 'delete' });
    expect(await applyAfterUpload(folder, file)).toEqual({ action: 'delete', outcome: 'done' });
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(path.dirname(file.path))).toBe(true);
    expect(await applyAfterUpload(folder, file)).toEqual({
      action: 'delete',
      outcome: 'already-gone',
      message: `File not found: ${file.path}`,
    });
  });

  it('move keeps the sub-folder structure, creates folders, and keeps the date', async () => {
    const file = await scan('2024/Invoices/a.pdf', 'the scan');
    const old = new Date('2021-05-06T07:08:09Z');
    await utimes(file.path, old, old);
    const result = await applyAfterUpload(folderWith({ action: 'move', to: done }), {
      path: file.path,
      relativePath: file.relativePath,
    });
    const destination = path.join(done, '2024', 'Invoices', 'a.pdf');
    expect(result).toEqual({ action: 'move', outcome: 'done', destination });
    expect(existsSync(file.path)).toBe(false);
    expect(await readFile(destination, 'utf8')).toBe('the scan');
    expect(statSync(destination).mtime.toISOString()).toBe(old.toISOString());
  });

  it('move never overwrites: a taken name gets " (2)", " (3)"...', async () => {
    const folder = folderWith({ action: 'move', to: done });
    await mkdir(path.join(done, 'sub'), { recursive: true });
    await writeFile(path.join(done, 'sub', 'a.pdf'), 'older scan');
    const first = await scan('sub/a.pdf', 'second scan');
    expect(movedTo(await applyAfterUpload(folder, first))).toBe(path.join(done, 'sub', 'a (2).pdf'));
    const second = await scan('sub/a.pdf', 'third scan');
    expect(movedTo(await applyAfterUpload(folder, second))).toBe(path.join(done, 'sub', 'a (3).pdf'));
    expect(await readFile(path.join(done, 'sub', 'a.pdf'), 'utf8')).toBe('older scan');
    expect(await readFile(path.join(done, 'sub', 'a (2).pdf'), 'utf8')).toBe('second scan');
    expect(await readFile(path.join(done, 'sub', 'a (3).pdf'), 'utf8')).toBe('third scan');
  });

  it('concurrent moves to the same name each get their own name', async () => {
    const folders = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const files = await Promise.all(
      folders.map(async (dir) => {
        const file = path.join(tmp, dir, 'scan.pdf');
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, `from ${dir}`);
        return file;
      }),
    );
    const folder = folderWith({ action: 'move', to: done });
    const results = await Promise.all(
      files.map((file) => applyAfterUpload(folder, { path: file, relativePath: 'scan.pdf' })),
    );
    const destinations = results.map(movedTo);
    expect(new Set(destinations).size).toBe(folders.length);
    expect((await readdir(done)).sort()).toEqual([
      'scan (2).pdf',
      'scan (3).pdf',
      'scan (4).pdf',
      'scan (5).pdf',
      'scan (6).pdf',
      'scan.pdf',
    ]);
    const contents = await Promise.all(destinations.map((d) => readFile(d!, 'utf8')));
    expect(contents.sort()).toEqual(folders.map((dir) => `from ${dir}`));
  });

  it('a move repeated after a crash between link and unlink completes without a duplicate', async () => {
    const file = await scan('sub/a.pdf');
    await mkdir(path.join(done, 'sub'), { recursive: true });
    await link(file.path, path.join(done, 'sub', 'a.pdf'));
    const result = await applyAfterUpload(folderWith({ action: 'move', to: done }), file);
    expect(result).toEqual({ action: 'move', outcome: 'done', destination: path.join(done, 'sub', 'a.pdf') });
    expect(existsSync(file.path)).toBe(false);
    expect(await readdir(path.join(done, 'sub'))).toEqual(['a.pdf']);
  });

  it('a file already gone is reported, not thrown', async () => {
    const gone = { path: path.join(inbox, 'gone.pdf'), relativePath: 'gone.pdf' };
    expect(await applyAfterUpload(folderWith({ action: 'move', to: done }), gone)).toEqual({
      action: 'move',
      outcome: 'already-gone',
      message: `File not found: ${gone.path}`,
    });
    expect(existsSync(done)).toBe(false);
  });

  it('a file that changed since the upload is left alone (it is a new scan under the same name)', async () => {
    const file = await scan('a.pdf', 'first');
    await writeFile(file.path, 'a longer second scan');
    for (const action of [{ action: 'delete' }, { action: 'move', to: done }] as const) {
      const result = await applyAfterUpload(folderWith(action), file);
      expect(result).toMatchObject({
        action: action.action,
        outcome: 'changed',
        message: fileProblem('changedSinceUpload', { path: file.path }),
      });
    }
    expect(await readFile(file.path, 'utf8')).toBe('a longer second scan');
  });

  it('refuses a relative path that would leave the move target', async () => {
    const file = await scan('a.pdf');
    await expect(
      applyAfterUpload(folderWith({ action: 'move', to: done }), { path: file.path, relativePath: '../a.pdf' }),
    ).rejects.toThrow(/^Cannot move .*a\.pdf to .*: Invalid relative path for a move: \.\.\/a\.pdf$/);
    expect(existsSync(file.path)).toBe(true);
  });

  it('reports a move that cannot be made, naming the file, and leaves the file in place', async () => {
    const file = await scan('a.pdf');
    const blocked = path.join(tmp, 'blocked');
    await writeFile(blocked, 'a file where the target folder should be');
    await expect(applyAfterUpload(folderWith({ action: 'move', to: blocked }), file)).rejects.toThrow(file.path);
    expect(existsSync(file.path)).toBe(true);
  });

  // /dev/shm is a tmpfs on Linux: another device than os.tmpdir() on most machines, so link() fails with EXDEV.
  const otherDevice =
    existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(os.tmpdir()).dev ? '/dev/shm' : undefined;
  it.skipIf(otherDevice === undefined)(
    'moves across devices by copy, flush and unlink, never overwriting',
    async () => {
      const target = await mkdtemp(path.join(otherDevice!, 'after-upload-test-'));
      cleanups.push(target);
      await mkdir(path.join(target, 'sub'));
      await writeFile(path.join(target, 'sub', 'a.pdf'), 'already there');
      const file = await scan('sub/a.pdf', 'cross-device scan');
      const old = new Date('2022-01-02T03:04:05Z');
      await utimes(file.path, old, old);
      const result = await applyAfterUpload(folderWith({ action: 'move', to: target }), {
        path: file.path,
        relativePath: file.relativePath,
      });
      expect(result).toEqual({ action: 'move', outcome: 'done', destination: path.join(target, 'sub', 'a (2).pdf') });
      expect(existsSync(file.path)).toBe(false);
      expect(await readFile(path.join(target, 'sub', 'a (2).pdf'), 'utf8')).toBe('cross-device scan');
      expect(await readFile(path.join(target, 'sub', 'a.pdf'), 'utf8')).toBe('already there');
      expect(statSync(path.join(target, 'sub', 'a (2).pdf')).mtime.toISOString()).toBe(old.toISOString());
      // No temporary copy left behind.
      expect((await readdir(path.join(target, 'sub'))).sort()).toEqual(['a (2).pdf', 'a.pdf']);
    },
  );

  it.skipIf(otherDevice === undefined)(
    'a cross-device move interrupted after the copy was placed finishes without a second copy',
    async () => {
      const target = await mkdtemp(path.join(otherDevice!, 'after-upload-test-'));
      cleanups.push(target);
      const file = await scan('b.pdf', 'interrupted cross-device move');
      // The state a crash leaves: the copy has its final name (with the source's date), the source is still there.
      await writeFile(path.join(target, 'b.pdf'), 'interrupted cross-device move');
      const stats = statSync(file.path);
      await utimes(path.join(target, 'b.pdf'), stats.atime, stats.mtime);
      const result = await applyAfterUpload(folderWith({ action: 'move', to: target }), {
        path: file.path,
        relativePath: file.relativePath,
      });
      expect(result).toEqual({ action: 'move', outcome: 'done', destination: path.join(target, 'b.pdf') });
      expect(existsSync(file.path)).toBe(false);
      expect(await readdir(target)).toEqual(['b.pdf']);
    },
  );
});
