import {
  appendFile,
  chmod,
  mkdir,
  mkdtemp,
  open,
  readFile,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchedFolderSchema, type WatchedFolder, type WatchedFolderInput } from '../../common/settings.ts';
import { applyAfterUpload } from '../../main/core/watcher/after-upload.ts';
import {
  FolderWatcher,
  type FolderStatus,
  type FolderWatcherOptions,
  type ReadyFile,
} from '../../main/core/watcher/folder-watcher.ts';
import { endsAsItsFormatMust } from '../../main/core/watcher/file-probes.ts';
import { createPathFilter, globToRegExp } from '../../main/core/watcher/path-filter.ts';
import { mergeTags, subfolderTagsOf } from '../../main/core/watcher/tags.ts';

const WINDOW = 250;

let tmp: string;
const watchers: FolderWatcher[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'watcher-test-'));
});

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((w) => w.close()));
  await rm(tmp, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function folder(dir: string, overrides: Partial<WatchedFolderInput> = {}): WatchedFolder {
  return watchedFolderSchema.parse({ id: 'f1', path: dir, stability_window_ms: WINDOW, ...overrides });
}

type Emitted = ReadyFile & { at: number };

function startWatcher(folders: WatchedFolder[], options: Partial<FolderWatcherOptions> = {}) {
  const files: Emitted[] = [];
  const statuses: FolderStatus[] = [];
  const watcher = new FolderWatcher({
    onFileReady: (file) => files.push({ ...file, at: Date.now() }),
    onFolderStatus: (status) => statuses.push(status),
    rescanIntervalMs: 3_600_000,
    folderCheckIntervalMs: 200,
    log: process.env.WATCHER_LOG ? (line) => console.log(line) : undefined,
    ...options,
  });
  watchers.push(watcher);
  watcher.setFolders(folders);
  watcher.start();
  const state = (id: string) => watcher.statuses().find((s) => s.folderId === id)?.state;
  const watching = (...ids: string[]) =>
    waitFor(`${ids.join(', ')} watching`, () => ids.every((id) => state(id) === 'watching'));
  const names = (folderId?: string) =>
    files
      .filter((f) => folderId === undefined || f.folderId === folderId)
      .map((f) => f.relativePath)
      .sort();
  return { watcher, files, statuses, state, watching, names };
}

async function write(file: string, content: string | Buffer = 'x'.repeat(1000)): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

describe('pure helpers', () => {
  it('globToRegExp matches base names case-insensitively, * and ? only', () => {
    const m = (glob: string, name: string) => globToRegExp(glob).test(name);
    expect(m('*.tmp', 'scan.TMP')).toBe(true);
    expect(m('*.tmp', 'scan.tmp.pdf')).toBe(false);
    expect(m('~$*', '~$report.docx')).toBe(true);
    expect(m('.~lock*', '.~lock.report.odt#')).toBe(true);
    expect(m('Thumbs.db', 'thumbs.db')).toBe(true);
    expect(m('Thumbs.db', 'ThumbsXdb')).toBe(false);
    expect(m('scan_??.pdf', 'scan_01.pdf')).toBe(true);
    expect(m('scan_??.pdf', 'scan_001.pdf')).toBe(false);
    expect(m('[a].pdf', '[a].pdf')).toBe(true);
    expect(m('[a].pdf', 'a.pdf')).toBe(false);
  });

  it('createPathFilter applies patterns to every component, types to files, and excludes move targets', () => {
    const root = path.resolve('/scans');
    const filter = createPathFilter({
      root,
      ignore: ['.*', '*.tmp'],
      fileTypes: [],
      recursive: true,
      excludedDirs: [path.join(root, 'done'), path.resolve('/elsewhere')],
    });
    const ignores = (rel: string, kind: 'file' | 'dir' | 'unknown' = 'file') =>
      filter.ignores(path.join(root, rel), kind);
    expect(ignores('a.pdf')).toBe(false);
    expect(ignores('sub/a.PDF')).toBe(false);
    expect(ignores('a.txt')).toBe(true);
    expect(ignores('.git/a.pdf')).toBe(true);
    expect(ignores('.git', 'dir')).toBe(true);
    expect(ignores('done/a.pdf')).toBe(true);
    expect(ignores('done', 'unknown')).toBe(true);
    expect(ignores('done-not/a.pdf')).toBe(false);
    expect(ignores('x.tmp', 'unknown')).toBe(true);
    expect(ignores('folder.with.dots', 'unknown')).toBe(false);
    expect(filter.ignores(root, 'dir')).toBe(false);
    expect(filter.ignores(path.resolve('/other/a.pdf'), 'file')).toBe(true);
    const flat = createPathFilter({ root, ignore: [], fileTypes: ['png'], recursive: false, excludedDirs: [] });
    expect(flat.ignores(path.join(root, 'a.png'), 'file')).toBe(false);
    expect(flat.ignores(path.join(root, 'a.pdf'), 'file')).toBe(true);
    expect(flat.ignores(path.join(root, 'sub'), 'dir')).toBe(true);
    expect(flat.ignores(path.join(root, 'sub', 'a.png'), 'file')).toBe(true);
  });

  it('subfolderTagsOf and mergeTags: trimmed, deduplicated case-insensitively, folder tags first, at most 5', () => {
    expect(subfolderTagsOf(' Invoices /2024/ /x.pdf')).toEqual(['Invoices', '2024']);
    expect(subfolderTagsOf('x.pdf')).toEqual([]);
    expect(mergeTags(['Home', 'tax'], ['invoices', 'TAX', '2024'])).toEqual(['Home', 'tax', 'invoices', '2024']);
    expect(mergeTags(undefined, ['a', 'b', 'c', 'd', 'e', 'f'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(mergeTags(['a', 'b', 'c', 'd', 'e'], ['f'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(mergeTags([' ', 'x'], [' y '])).toEqual(['x', 'y']);
    expect(mergeTags([], ['z'.repeat(150)])[0]).toHaveLength(100);
  });
});

describe('FolderWatcher', () => {
  it('emits a new file once, complete, after the stability window', async () => {
    const { files, watching } = startWatcher([folder(tmp)]);
    await watching('f1');
    const file = path.join(tmp, 'scan_0042.pdf');
    await write(file, 'y'.repeat(2048));
    const writtenAt = Date.now();
    await waitFor('the file', () => files.length === 1);
    const latency = files[0]!.at - writtenAt;
    console.log(`detection latency (window ${WINDOW} ms): ${latency} ms`);
    const stats = await stat(file);
    expect(files[0]).toMatchObject({
      folderId: 'f1',
      path: file,
      relativePath: 'scan_0042.pdf',
      size: 2048,
      mtimeMs: stats.mtimeMs,
      subfolderTags: [],
    });
    expect(latency).toBeGreaterThanOrEqual(WINDOW - 50);
    expect(latency).toBeLessThan(WINDOW + 2_000);
    await sleep(WINDOW + 400);
    expect(files).toHaveLength(1);
  });

  it('takes a file written slowly in chunks over ~5 s only once, whole, after the last write (default 2 s window)', async () => {
    const { files, watching } = startWatcher([folder(tmp, { stability_window_ms: undefined })]);
    await watching('f1');
    const file = path.join(tmp, 'slow-scan.pdf');
    const chunk = Buffer.alloc(4096, 7);
    const handle = await open(file, 'w');
    let written = 0;
    let lastWriteAt = 0;
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      await handle.write(chunk);
      written += chunk.length;
      lastWriteAt = Date.now();
      expect(files).toHaveLength(0);
      await sleep(150);
    }
    await handle.close();
    await waitFor('the slow file', () => files.length > 0);
    await sleep(500);
    expect(files).toHaveLength(1);
    expect(files[0]!.size).toBe(written);
    expect((await stat(file)).size).toBe(written);
    const afterLastWrite = files[0]!.at - lastWriteAt;
    console.log(
      `slow writer: ${written} bytes in ${written / chunk.length} chunks, emitted ${afterLastWrite} ms after the last write`,
    );
    expect(afterLastWrite).toBeGreaterThanOrEqual(2_000 - 50);
  });

  it('waits for a PDF to end as PDFs must (a scanner pausing longer than the window); one that never does goes after the grace time', async () => {
    const { files, watching } = startWatcher([folder(tmp)], { incompleteGraceMs: 3_000 });
    await watching('f1');
    const paused = path.join(tmp, 'paused.pdf');
    await write(paused, '%PDF-1.7\n1 0 obj\n<< /Type /Page >>\nendobj\n');
    await sleep(WINDOW * 6);
    expect(files).toHaveLength(0);
    await appendFile(paused, '2 0 obj\n<< /Type /Page >>\nendobj\ntrailer\n<< >>\n%%EOF\n');
    await waitFor('the finished PDF', () => files.length === 1);
    expect(files[0]).toMatchObject({ relativePath: 'paused.pdf', size: (await stat(paused)).size });

    const jammed = path.join(tmp, 'jammed.pdf');
    await write(jammed, '%PDF-1.7\n1 0 obj\n');
    const writtenAt = Date.now();
    await waitFor('the jammed PDF, as it is', () => files.length === 2, 10_000);
    expect(files[1]!.relativePath).toBe('jammed.pdf');
    expect(files[1]!.at - writtenAt).toBeGreaterThanOrEqual(3_000 - 100);
  });

  it('knows the end markers of PDF, JPEG and PNG by their first bytes, and waits for no other format', () => {
    const pdfHead = Buffer.from('%PDF-1.4');
    expect(endsAsItsFormatMust(pdfHead, Buffer.from('startxref\n123\n%%EOF\n\n'))).toBe(true);
    expect(endsAsItsFormatMust(pdfHead, Buffer.from('stream\nxxxx'))).toBe(false);
    const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);
    expect(endsAsItsFormatMust(jpegHead, Buffer.from([0x12, 0x34, 0xff, 0xd9]))).toBe(true);
    expect(endsAsItsFormatMust(jpegHead, Buffer.from([0x12, 0x34, 0x56]))).toBe(false);
    const pngHead = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(endsAsItsFormatMust(pngHead, Buffer.from('\0\0\0\0IEND\xaeB`\x82', 'latin1'))).toBe(true);
    expect(endsAsItsFormatMust(pngHead, Buffer.from('IDAT', 'latin1'))).toBe(false);
    // A name says nothing: a file called .pdf that is not one, and a TIFF, have no end to wait for.
    expect(endsAsItsFormatMust(Buffer.from('xxxxxxxx'), Buffer.from('xxxx'))).toBe(true);
    expect(endsAsItsFormatMust(Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), Buffer.from('xx'))).toBe(true);
  });

  it('offers a file again whose hand-over failed (the journal could not write it), on the next scan', async () => {
    let refuse = true;
    const taken: string[] = [];
    const { watcher, watching } = startWatcher([folder(tmp)], {
      onFileReady: (file) => {
        if (refuse) throw new Error('database or disk is full');
        taken.push(file.relativePath);
      },
    });
    await watching('f1');
    await write(path.join(tmp, 'refused.pdf'));
    await sleep(WINDOW * 4);
    expect(taken).toEqual([]);
    refuse = false;
    await watcher.rescan();
    await waitFor('the file taken after all', () => taken.length === 1);
    expect(taken).toEqual(['refused.pdf']);
  });

  it('offers the files of a folder that vanished and came back (a share mounted again) once more', async () => {
    const scans = path.join(tmp, 'scans');
    const away = path.join(tmp, 'away');
    await mkdir(scans);
    const { files, state, watching } = startWatcher([folder(scans, { id: 'scans' })]);
    await watching('scans');
    await write(path.join(scans, 'kept.pdf'));
    await waitFor('the file', () => files.length === 1);
    await rename(scans, away);
    await waitFor('missing', () => state('scans') === 'missing');
    await rename(away, scans);
    await watching('scans');
    // The journal's own version check decides whether it goes again; the watcher must not keep it from asking.
    await waitFor('the file offered again', () => files.length === 2);
    expect(files.map((f) => f.relativePath)).toEqual(['kept.pdf', 'kept.pdf']);
  });

  it('applies ignore patterns (defaults cover OS and scanner debris, dot folders too) and file types', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    const debris = [
      '.hidden.pdf',
      'Thumbs.db',
      'desktop.ini',
      '~$report.docx',
      'scan.tmp',
      'scan.pdf.part',
      'video.crdownload',
      '.~lock.report.odt#',
      'notes.txt',
      '.git/inside.pdf',
      'draft.PDF.TMP',
    ];
    const phase = async (name: string) => {
      for (const f of [...debris, 'ok.pdf', 'UPPER.PDF', 'photo.JPG']) await write(path.join(a, name, f));
      for (const f of ['a.png', 'B.PNG', 'draft-1.png', 'c.pdf', '.dot.png']) await write(path.join(b, name, f));
    };
    await phase('before');
    const { names, watching, watcher } = startWatcher([
      folder(a, { id: 'a' }),
      folder(b, { id: 'b', file_types: ['png'], ignore: ['draft*'] }),
    ]);
    await watching('a', 'b');
    await phase('after');
    const expectA = [
      'after/UPPER.PDF',
      'after/ok.pdf',
      'after/photo.JPG',
      'before/UPPER.PDF',
      'before/ok.pdf',
      'before/photo.JPG',
    ];
    const expectB = ['after/.dot.png', 'after/B.PNG', 'after/a.png', 'before/.dot.png', 'before/B.PNG', 'before/a.png'];
    await waitFor(
      'the accepted files',
      () => names('a').length >= expectA.length && names('b').length >= expectB.length,
    );
    await sleep(WINDOW + 300);
    expect(names('a')).toEqual(expectA);
    expect(names('b')).toEqual(expectB);
    expect(watcher.pendingCount).toBe(0);
  });

  it('watches sub-folders only when recursive', async () => {
    const flat = path.join(tmp, 'flat');
    const deep = path.join(tmp, 'deep');
    for (const root of [flat, deep]) {
      await write(path.join(root, 'top1.pdf'));
      await write(path.join(root, 'sub', 'deep1.pdf'));
    }
    const { names, watching } = startWatcher([
      folder(flat, { id: 'flat', recursive: false }),
      folder(deep, { id: 'deep' }),
    ]);
    await watching('flat', 'deep');
    for (const root of [flat, deep]) {
      await write(path.join(root, 'top2.pdf'));
      await write(path.join(root, 'sub', 'deep2.pdf'));
      await write(path.join(root, 'new', 'deeper', 'deep3.pdf'));
    }
    await waitFor('the deep folder', () => names('deep').length >= 5);
    await sleep(WINDOW + 300);
    expect(names('flat')).toEqual(['top1.pdf', 'top2.pdf']);
    expect(names('deep')).toEqual(['new/deeper/deep3.pdf', 'sub/deep1.pdf', 'sub/deep2.pdf', 'top1.pdf', 'top2.pdf']);
  });

  it('gives sub-folder names as tags when the folder asks for them', async () => {
    const tagged = path.join(tmp, 'tagged');
    const plain = path.join(tmp, 'plain');
    const { files, watching } = startWatcher([
      folder(tagged, { id: 'tagged', subfolder_tags: true }),
      folder(plain, { id: 'plain' }),
    ]);
    await mkdir(tagged);
    await mkdir(plain);
    await watching('tagged', 'plain');
    await write(path.join(tagged, ' Invoices ', '2024', 'ACME', 'x.pdf'));
    await write(path.join(tagged, 'root.pdf'));
    await write(path.join(plain, 'Invoices', 'y.pdf'));
    await waitFor('three files', () => files.length === 3);
    const byName = new Map(files.map((f) => [path.basename(f.path), f]));
    expect(byName.get('x.pdf')).toMatchObject({
      relativePath: ' Invoices /2024/ACME/x.pdf',
      subfolderTags: ['Invoices', '2024', 'ACME'],
    });
    expect(byName.get('root.pdf')?.subfolderTags).toEqual([]);
    expect(byName.get('y.pdf')?.subfolderTags).toEqual([]);
  });

  it('works in polling mode, new and changed files alike', async () => {
    const { files, watching } = startWatcher([folder(tmp, { use_polling: true, poll_interval_ms: 100 })]);
    await watching('f1');
    const file = path.join(tmp, 'network-scan.pdf');
    await write(file, 'a'.repeat(100));
    await waitFor('the polled file', () => files.length === 1);
    expect(files[0]!.size).toBe(100);
    await appendFile(file, 'b'.repeat(50));
    await waitFor('the changed polled file', () => files.length === 2);
    expect(files[1]!.size).toBe(150);
    await sleep(WINDOW + 400);
    expect(files).toHaveLength(2);
  });

  it('finds files that arrived while it was not running (catch-up scan on start), once each', async () => {
    const old = new Date('2020-01-01T00:00:00Z');
    for (const rel of ['a.pdf', 'x/b.pdf', 'x/y/c.png']) {
      await write(path.join(tmp, rel));
      await utimes(path.join(tmp, rel), old, old);
    }
    const { names, watching } = startWatcher([folder(tmp)]);
    await watching('f1');
    await waitFor('the old files', () => names().length >= 3);
    await sleep(WINDOW + 300);
    expect(names()).toEqual(['a.pdf', 'x/b.pdf', 'x/y/c.png']);
  });

  it('does not re-emit on duplicate events (metadata change, reads, rescans) but re-emits a changed file', async () => {
    const { files, watching, watcher } = startWatcher([folder(tmp)]);
    await watching('f1');
    const file = path.join(tmp, 'doc.pdf');
    await write(file, 'one');
    await waitFor('the file', () => files.length === 1);
    await chmod(file, 0o600);
    await readFile(file);
    await Promise.all([watcher.rescan(), watcher.rescan('f1'), watcher.rescan()]);
    await watcher.rescan();
    await sleep(WINDOW + 400);
    expect(files).toHaveLength(1);

    await appendFile(file, ' two');
    await waitFor('the grown file', () => files.length === 2);
    expect(files[1]!.size).toBe('one two'.length);

    // Same size, new mtime: a new scan saved under the same name.
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    await waitFor('the touched file', () => files.length === 3);
    expect(files[2]!.mtimeMs).toBe((await stat(file)).mtimeMs);
    await watcher.rescan();
    await sleep(WINDOW + 400);
    expect(files).toHaveLength(3);
  });

  it('takes each of many files dropped at once exactly once, even with a rescan racing the events', async () => {
    const { files, watching, watcher } = startWatcher([folder(tmp)]);
    await watching('f1');
    const count = 300;
    await Promise.all([
      ...Array.from({ length: count }, (_, i) =>
        write(path.join(tmp, `batch-${String(i).padStart(3, '0')}.pdf`), `file ${i}`),
      ),
      watcher.rescan(),
    ]);
    await watcher.rescan();
    await waitFor('all files', () => files.length >= count);
    await sleep(WINDOW + 400);
    expect(files).toHaveLength(count);
    expect(new Set(files.map((f) => f.path)).size).toBe(count);
    expect(watcher.pendingCount).toBe(0);
  });

  it('reports a missing folder, keeps watching the others, and picks the folder up when it appears (and again after it vanished)', async () => {
    const present = path.join(tmp, 'present');
    const missing = path.join(tmp, 'not-yet');
    await mkdir(present);
    const { files, statuses, state, watching, names } = startWatcher([
      folder(present, { id: 'present' }),
      folder(missing, { id: 'missing' }),
    ]);
    await waitFor('the missing status', () => state('missing') === 'missing');
    expect(statuses.find((s) => s.folderId === 'missing' && s.state === 'missing')?.error).toBe(
      `Folder not found: ${missing}`,
    );
    await watching('present');
    await write(path.join(present, 'a.pdf'));
    await waitFor('the file of the present folder', () => files.length === 1);

    await write(path.join(missing, 'early.pdf'));
    await watching('missing');
    await write(path.join(missing, 'late.pdf'));
    await waitFor('both files of the new folder', () => names('missing').length === 2);
    expect(names('missing')).toEqual(['early.pdf', 'late.pdf']);

    await rm(missing, { recursive: true });
    await waitFor('missing again', () => state('missing') === 'missing');
    await write(path.join(missing, 'again.pdf'));
    await watching('missing');
    await waitFor('the file of the re-created folder', () => names('missing').includes('again.pdf'));
    expect(state('present')).toBe('watching');
    // Looking for the missing folder every 200 ms did not flap its status.
    expect(statuses.filter((s) => s.folderId === 'missing').map((s) => s.state)).toEqual([
      'starting',
      'missing',
      'watching',
      'missing',
      'watching',
    ]);
  });

  it('scans a folder moved in whole (its files had no events), also one named like a file', async () => {
    const inbox = path.join(tmp, 'inbox');
    const outside = path.join(tmp, 'outside');
    await mkdir(inbox);
    await write(path.join(outside, 'batch', 'a.pdf'));
    await write(path.join(outside, 'batch', 'deeper', 'b.pdf'));
    await write(path.join(outside, 'odd.pdf', 'c.pdf'));
    const { names, watching } = startWatcher([folder(inbox)]);
    await watching('f1');
    await rename(path.join(outside, 'batch'), path.join(inbox, 'batch'));
    await rename(path.join(outside, 'odd.pdf'), path.join(inbox, 'odd.pdf'));
    await waitFor('the moved-in files', () => names().length >= 3);
    // Files created later in a moved-in folder come through its own watch.
    await write(path.join(inbox, 'batch', 'deeper', 'later.pdf'));
    await waitFor('the later file', () => names().length >= 4);
    await sleep(WINDOW + 300);
    expect(names()).toEqual(['batch/a.pdf', 'batch/deeper/b.pdf', 'batch/deeper/later.pdf', 'odd.pdf/c.pdf']);

    // Moved out, what was below is forgotten: moved back unchanged, it is taken again (the journal dedupes it).
    await rename(path.join(inbox, 'batch'), path.join(outside, 'batch'));
    await sleep(300);
    await rename(path.join(outside, 'batch'), path.join(inbox, 'batch'));
    await waitFor('the files moved back', () => names().length >= 7);
    await sleep(WINDOW + 300);
    expect(names()).toHaveLength(7);
  });

  it('reports a path that is not a folder', async () => {
    const file = path.join(tmp, 'plain-file');
    await writeFile(file, 'x');
    const { statuses, state } = startWatcher([folder(file)]);
    await waitFor('the error status', () => state('f1') === 'error');
    expect(statuses.at(-1)?.error).toBe(`Not a folder: ${file}`);
  });

  it('applies folder changes live: added folders start, removed ones stop', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    await mkdir(a);
    await mkdir(b);
    const { watcher, names, watching } = startWatcher([folder(a, { id: 'a' })]);
    await watching('a');
    await write(path.join(b, 'before-added.pdf'));
    watcher.setFolders([folder(a, { id: 'a' }), folder(b, { id: 'b' })]);
    await watching('b');
    await waitFor('the file of the added folder', () => names('b').length === 1);
    // Changing a folder's settings restarts it without handing over its files again.
    watcher.setFolders([folder(a, { id: 'a' }), folder(b, { id: 'b', subfolder_tags: true })]);
    await watching('b');
    watcher.setFolders([folder(a, { id: 'a' })]);
    expect(watcher.statuses().map((s) => s.folderId)).toEqual(['a']);
    await write(path.join(b, 'after-removed.pdf'));
    await write(path.join(a, 'still.pdf'));
    await waitFor('the file of the remaining folder', () => names('a').length === 1);
    await sleep(WINDOW + 300);
    expect(names('b')).toEqual(['before-added.pdf']);
  });

  it('never takes files from a move target inside a watched folder', async () => {
    const inbox = path.join(tmp, 'inbox');
    const other = path.join(tmp, 'other');
    const done = path.join(inbox, 'done');
    await write(path.join(done, 'moved-earlier.pdf'));
    // Another folder's move target inside this folder counts too.
    await write(path.join(inbox, 'archive-of-other', 'x.pdf'));
    await mkdir(other);
    const inboxFolder = folder(inbox, { id: 'inbox', after_upload: { action: 'move', to: done } });
    const otherFolder = folder(other, {
      id: 'other',
      after_upload: { action: 'move', to: path.join(inbox, 'archive-of-other') },
    });
    const { files, watcher, watching } = startWatcher([inboxFolder, otherFolder]);
    await watching('inbox', 'other');
    await write(path.join(inbox, 'sub', 'new.pdf'));
    await waitFor('the new file', () => files.length === 1);
    const result = await applyAfterUpload(inboxFolder, files[0]!);
    expect(result).toMatchObject({ action: 'move', outcome: 'done', destination: path.join(done, 'sub', 'new.pdf') });
    await watcher.rescan();
    await sleep(WINDOW + 400);
    expect(files.map((f) => f.relativePath)).toEqual(['sub/new.pdf']);
  });

  it('emits nothing after close', async () => {
    const { files, watcher, watching } = startWatcher([folder(tmp)]);
    await watching('f1');
    await write(path.join(tmp, 'pending.pdf'));
    await waitFor('the file to be pending', () => watcher.pendingCount === 1);
    await watcher.close();
    expect(watcher.pendingCount).toBe(0);
    await write(path.join(tmp, 'later.pdf'));
    await sleep(WINDOW + 300);
    expect(files).toHaveLength(0);
    expect(() => watcher.setFolders([])).toThrow(/closed/);
  });
});
