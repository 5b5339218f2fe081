import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionProblem } from '../../common/connection-problems.ts';
import { CALLS, CALL_NAMES, parseCallInput, type CallName, type CallOutput, type CallInput } from '../../common/ipc.ts';
import { SAVE_FOLDER_MISSING } from '../../common/ipc-names.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';
import { makePdf, sqliteOf } from '../helpers/archive-harness.ts';

let dir: string;
let app: DesktopApp;
const notifications: Array<{ title: string; kind: string; eventIds: string[]; uploadId?: number | undefined }> = [];
/** What the injected system hooks were asked (the shells pass shell.openPath / a folder dialog). */
const opened: Array<{ path: string; bytes: Buffer }> = [];
const pickerTitles: Array<string | undefined> = [];

/** Calls like a shell does: the input through the contract's schema, the output checked against it too. */
async function call<C extends CallName>(
  name: C,
  ...input: CallInput<C> extends undefined ? [] : [CallInput<C>]
): Promise<CallOutput<C>> {
  const parsed = parseCallInput(name, input[0]);
  const handler = app.handlers[name] as (input: unknown) => Promise<unknown>;
  return CALLS[name].output.parse(await handler(parsed)) as CallOutput<C>;
}

async function until<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desktop-app-test-'));
  const settings = new SettingsStore(openConfBackend({ cwd: join(dir, 'config') }));
  app = await DesktopApp.open({
    appDataDir: join(dir, 'data'),
    settings,
    keys: new SessionKeyStore(),
    localLimits: { uploadsPerWindow: 1000, requestsPerWindow: 10_000 },
    previewUrl: (id) => `preview://document/${id}`,
    // Reads the file at once, as a system app would: the copy must be complete when openPath is called.
    openPath: async (path) => {
      opened.push({ path, bytes: await readFile(path) });
    },
    pickFolder: async (title) => {
      pickerTitles.push(title);
      return title === 'cancel' ? null : join(dir, 'picked');
    },
    log: (line) => {
      if (process.env.DEBUG_APP) console.log(line);
    },
  });
  app.on('notification', (n) => notifications.push(n));
  await app.start();
});

afterAll(async () => {
  await app.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('DesktopApp over the embedded archive (local mode)', () => {
  it('every call of the contract has a handler', () => {
    expect(Object.keys(app.handlers).sort()).toEqual([...CALL_NAMES].sort());
  });

  it('starts in local mode, online, with a key it made itself', async () => {
    const status = await call('status.get');
    expect(status).toMatchObject({ mode: 'local', online: true, auth_required: false, key_storage: 'session' });
    expect(status.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The onboarding shows where a local archive keeps its files.
    expect(status.archive_dir).toBe(join(dir, 'data', 'archive'));
    const test = await call('connection.test', { mode: 'local' });
    expect(test.ok).toBe(true);
    expect(test.key?.scopes).toContain('documents:write');
    expect(test.spaces.some((s) => s.is_default)).toBe(true);
    expect(JSON.stringify(status)).not.toMatch(/das_[0-9a-f]{32}_/);
    // A hosted service is not tried without its URL, nor without a key given or stored for it; the reasons are the
    // worded ones the UI shows in its language.
    expect(await call('connection.test', { mode: 'hosted' })).toMatchObject({
      ok: false,
      error: connectionProblem('urlMissing'),
    });
    expect(await call('connection.test', { mode: 'hosted', base_url: 'http://127.0.0.1:9' })).toMatchObject({
      ok: false,
      error: connectionProblem('keyMissing'),
    });
  });

  it('rejects bad input with a message that names the field', async () => {
    expect(() => parseCallInput('documents.get', { id: 'nope' })).toThrow('documents.get: id: expected a uuid');
    expect(() => parseCallInput('uploads.add', { paths: [] })).toThrow('paths: no files given');
    // A relative path would be read against wherever the app was started.
    expect(() => parseCallInput('uploads.add', { paths: ['/tmp/a.pdf', 'scans/b.pdf'] })).toThrow(
      'uploads.add: paths.1: must be an absolute path',
    );
    expect(parseCallInput('uploads.add', { paths: ['C:\\Scans\\a.pdf', '\\\\nas\\scans\\b.pdf'] })).toMatchObject({
      paths: ['C:\\Scans\\a.pdf', '\\\\nas\\scans\\b.pdf'],
    });
    expect(() =>
      parseCallInput('documents.saveAs', { id: '00000000-0000-4000-8000-000000000000', directory: 'Belege' }),
    ).toThrow('documents.saveAs: directory: must be an absolute path');
    expect(() => parseCallInput('folders.save', { path: 'Scans' })).toThrow(
      'folders.save: path: must be an absolute path',
    );
    expect(() =>
      parseCallInput('folders.save', { path: '/home/anna/Scans', after_upload: { action: 'move', to: 'Done' } }),
    ).toThrow('folders.save: after_upload.to: must be an absolute path');
    await expect(call('folders.save', { path: join(dir, 'no-such-folder') })).rejects.toThrow(
      `Folder not found: ${join(dir, 'no-such-folder')}`,
    );
  });

  it('uploads a dropped folder, syncs the library, previews and saves a document, and lists its event as due', async () => {
    const drop = join(dir, 'drop');
    await mkdir(join(drop, 'nested'), { recursive: true });
    await writeFile(
      join(drop, 'Rechnung.pdf'),
      await makePdf([
        'Stadtwerke Beispiel GmbH',
        'Rechnung Nr. 4711 vom 01.11.2026',
        'Gesamtbetrag 89,50 EUR, zahlbar innerhalb von 14 Tagen',
      ]),
    );
    await writeFile(
      join(drop, 'nested', 'Brief.pdf'),
      await makePdf([
        'Sehr geehrte Damen und Herren,',
        'anbei erhalten Sie die Unterlagen zu Ihrem Vertrag.',
        'Mit freundlichen Grüßen',
      ]),
    );
    await writeFile(join(drop, 'Thumbs.db'), 'debris');
    const due = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const items = await call('uploads.add', {
      paths: [drop],
      metadata: { event_type: 'invoice', amount: { value: 89.5, currency: 'EUR' }, due_date: due },
    });
    expect(items.map((i) => i.file_name).sort()).toEqual(['Brief.pdf', 'Rechnung.pdf']);
    await until(async () => (await call('uploads.counts')).done === 2, 'uploads done');

    const list = await until(
      async () => {
        await call('library.sync');
        const page = await call('library.list', { sort_by: 'title', sort_order: 'asc' });
        return page.items.length === 2 && page.items.every((d) => d.status === 'completed') ? page : undefined;
      },
      'library synced and processed',
      80_000,
    );
    const invoice = list.items.find((d) => d.original_filename === 'Rechnung.pdf')!;

    const detail = await call('documents.get', { id: invoice.id });
    expect(detail.content).toContain('4711');
    const preview = await call('documents.preview', { id: invoice.id });
    expect(preview).toMatchObject({
      url: `preview://document/${invoice.id}`,
      mime_type: 'application/pdf',
      file_name: 'Rechnung.pdf',
    });
    const cached = await app.previewFile(invoice.id);
    expect(await readFile(cached.path)).toEqual(await readFile(join(drop, 'Rechnung.pdf')));

    // Opening in the system app: a copy under the original name (the cache's `file` has no extension), same bytes.
    expect(await call('documents.open', { id: invoice.id })).toEqual({ opened: true });
    expect(opened.map((o) => o.path)).toEqual([join(dir, 'data', 'open', invoice.sha256, 'Rechnung.pdf')]);
    expect(opened[0]!.bytes).toEqual(await readFile(join(drop, 'Rechnung.pdf')));
    expect(await call('documents.open', { id: invoice.id })).toEqual({ opened: true });
    expect(opened[1]!.path).toBe(opened[0]!.path);
    expect(await readdir(join(dir, 'data', 'open', invoice.sha256))).toEqual(['Rechnung.pdf']);
    await expect(call('documents.open', { id: crypto.randomUUID() })).rejects.toThrow('Document not found');

    const saveDir = join(dir, 'saved');
    // A folder that is not there is not made quietly (a typo would become one): only when asked.
    await expect(call('documents.saveAs', { id: invoice.id, directory: saveDir })).rejects.toMatchObject({
      status: 409,
      message: `${SAVE_FOLDER_MISSING}: ${saveDir}`,
    });
    await expect(readdir(saveDir)).rejects.toThrow(/ENOENT/);
    const first = await call('documents.saveAs', { id: invoice.id, directory: saveDir, create_folders: true });
    const second = await call('documents.saveAs', { id: invoice.id, directory: saveDir });
    expect([first.path, second.path]).toEqual([join(saveDir, 'Rechnung.pdf'), join(saveDir, 'Rechnung (2).pdf')]);

    const dueItems = await until(async () => {
      await call('library.sync');
      const items = await call('events.due', {});
      return items.count === 2 ? items : undefined;
    }, 'both events synced');
    expect(dueItems.count).toBe(2);
    expect(dueItems.totals).toEqual([{ currency: 'EUR', value: 179, count: 2 }]);
    // Filtered by type, every sum follows the filter (the cache's totals cover all types).
    const none = await call('events.due', { types: ['contract'] });
    expect([none.count, none.totals, none.overdue.totals, none.weeks]).toEqual([0, [], [], []]);
    const some = await call('events.due', { types: ['invoice', 'contract'] });
    expect([some.count, some.totals]).toEqual([2, [{ currency: 'EUR', value: 179, count: 2 }]]);
    expect(
      some.weeks.flatMap((w) => w.totals).reduce((n, t) => n + t.count, 0) +
        some.overdue.totals.reduce((n, t) => n + t.count, 0),
    ).toBe(2);
    const ics = await call('events.exportIcs');
    expect(ics.count).toBe(2);
    expect(ics.ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect((await call('status.get')).due_count).toBe(2);
  }, 90_000);

  it('an invoice that needs input gets its amount and due date by hand: open at once, in the document and in Due', async () => {
    const drop = join(dir, 'needs-input');
    await mkdir(drop, { recursive: true });
    await writeFile(
      join(drop, 'Rechnung ohne Betrag.pdf'),
      await makePdf(['Rechnung Nr. 815', 'Bitte überweisen Sie den Betrag.']),
    );
    await call('uploads.add', { paths: [drop], metadata: { event_type: 'invoice' } });
    const event = await until(
      async () => {
        await call('library.sync');
        const doc = (await call('library.list', { limit: 500 })).items.find(
          (d) => d.original_filename === 'Rechnung ohne Betrag.pdf',
        );
        if (!doc) return undefined;
        return (await call('events.list', { document_id: doc.id })).items[0];
      },
      'the needs_input event synced',
      60_000,
    );
    expect(event).toMatchObject({ event_type: 'invoice', state: 'needs_input', amount: null, due_date: null });
    const dueBefore = await call('events.due', {});
    expect(dueBefore.overdue.items.concat(dueBefore.weeks.flatMap((w) => w.items)).map((e) => e.id)).not.toContain(
      event.id,
    );

    // The contract validates as the service does, before anything is sent.
    expect(() => parseCallInput('events.update', { id: event.id, amount: { value: 1, currency: 'EURO' } })).toThrow(
      'events.update: amount.currency: must be a three-letter ISO 4217 code',
    );
    expect(() =>
      parseCallInput('events.update', { id: event.id, amount: { value: Number.NaN, currency: 'EUR' } }),
    ).toThrow('amount.value');
    expect(() => parseCallInput('events.update', { id: event.id, due_date: '2026-02-30' })).toThrow(
      'due_date: must be a date YYYY-MM-DD',
    );
    expect(() => parseCallInput('events.update', { id: event.id, event_type: 'bill' })).toThrow(
      'event_type: must be one of',
    );

    // Outside the reminder window (the reminder test counts exactly two reminded events).
    const due = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const changed: Array<{ document_ids: string[]; event_ids: string[] }> = [];
    const listener = (payload: { document_ids: string[]; event_ids: string[] }): void => {
      changed.push(payload);
    };
    app.on('library.changed', listener);
    const edited = await call('events.update', {
      id: event.id,
      amount: { value: 42.5, currency: 'eur' },
      due_date: due,
      reference_number: '  R-815 ',
    });
    app.off('library.changed', listener);
    expect(edited).toMatchObject({
      state: 'open',
      amount: { value: 42.5, currency: 'EUR' },
      due_date: due,
      reference_number: 'R-815',
    });
    expect(edited.history.at(-1)).toMatchObject({
      from: 'needs_input',
      to: 'open',
      cause: 'edited: payable with amount',
    });
    expect(changed).toContainEqual({ document_ids: [event.document_id], event_ids: [event.id] });

    // No sync in between: the cache was refreshed by the call itself.
    expect((await call('events.list', { document_id: event.document_id })).items[0]).toMatchObject({
      state: 'open',
      amount: { value: 42.5, currency: 'EUR' },
    });
    const dueAfter = await call('events.due', {});
    const listed = dueAfter.overdue.items.concat(dueAfter.weeks.flatMap((w) => w.items)).find((e) => e.id === event.id);
    expect(listed).toMatchObject({ state: 'open', due_date: due, amount: { value: 42.5, currency: 'EUR' } });

    await expect(call('events.update', { id: crypto.randomUUID(), due_date: due })).rejects.toThrow('Event not found');
  }, 70_000);

  it('deletes and restores in bulk with a per-document result, and reprocess reports the spec lists', async () => {
    const page = await call('library.list', {});
    const ids = page.items.map((d) => d.id);
    const missing = crypto.randomUUID();
    const deleted = await call('documents.delete', { ids: [...ids, missing] });
    expect(deleted.done.sort()).toEqual([...ids].sort());
    expect(deleted.failed).toEqual([{ id: missing, error: 'Document not found' }]);
    await until(async () => {
      await call('library.sync');
      return (await call('library.list', { deleted: true })).total === ids.length;
    }, 'deleted view');
    expect((await call('library.list', {})).total).toBe(0);
    const restored = await call('documents.restore', { ids });
    expect(restored.failed).toEqual([]);
    const reprocess = await call('documents.reprocess', { ids: [ids[0]!, missing] });
    expect(reprocess.notFound).toEqual([missing]);
    expect([...reprocess.queued, ...reprocess.skippedPending]).toContain(ids[0]);
  }, 60_000);

  it('reprocess of one document goes through the single endpoint and reports alreadyProcessing', async () => {
    const [id, other] = (await call('library.list', {})).items.map((d) => d.id);
    const missing = crypto.randomUUID();
    const db = sqliteOf(app.core.local!.service.db);
    await app.core.local!.service.processor.idle();
    // The document is in the pipeline: a running job, which the workers never claim twice (injected, so no race).
    const job = db
      .prepare(
        `INSERT INTO jobs (document_id, kind, state, created_at, started_at) VALUES (?, 'reprocess', 'running', ?, ?)`,
      )
      .run(id!, new Date().toISOString(), new Date().toISOString());
    try {
      expect(await call('documents.reprocess', { ids: [id!] })).toEqual({
        queued: [],
        alreadyProcessing: [id],
        skippedPending: [],
        denied: [],
        notFound: [],
      });
      expect(await call('documents.reprocess', { ids: [missing] })).toEqual({
        queued: [],
        alreadyProcessing: [],
        skippedPending: [],
        denied: [],
        notFound: [missing],
      });
      // Several ids: the bulk endpoint, which calls the same thing skippedPending.
      const bulk = await call('documents.reprocess', { ids: [id!, missing] });
      expect([bulk.skippedPending, bulk.notFound, bulk.alreadyProcessing]).toEqual([[id], [missing], []]);
    } finally {
      db.prepare(`UPDATE jobs SET state = 'done', finished_at = ? WHERE id = ?`).run(
        new Date().toISOString(),
        Number(job.lastInsertRowid),
      );
    }
    expect(await call('documents.reprocess', { ids: [other!] })).toEqual({
      queued: [other],
      alreadyProcessing: [],
      skippedPending: [],
      denied: [],
      notFound: [],
    });
    await app.core.local!.service.processor.idle();
  }, 30_000);

  it('watches a saved folder and moves uploaded files out of it', async () => {
    const inbox = join(dir, 'inbox');
    const done = join(dir, 'done');
    await mkdir(inbox);
    const folder = await call('folders.save', {
      path: inbox,
      after_upload: { action: 'move', to: done },
      stability_window_ms: 200,
    });
    expect((await call('folders.list')).folders.map((f) => f.id)).toContain(folder.id);
    await writeFile(join(inbox, 'scan_0042.pdf'), await makePdf('Versicherungspolice 123'));
    await until(
      async () => (await readdir(done).catch((): string[] => [])).includes('scan_0042.pdf'),
      'moved after upload',
    );
    expect(await readdir(inbox)).toEqual([]);
    expect(await call('folders.remove', { id: folder.id })).toBe(true);
  }, 60_000);

  it('asks the injected folder picker, with the title, and reports a cancel as null', async () => {
    expect(await call('dialogs.pickFolder', { title: 'Choose the folder to watch' })).toEqual({
      path: join(dir, 'picked'),
      supported: true,
    });
    expect(await call('dialogs.pickFolder', { title: 'cancel' })).toEqual({ path: null, supported: true });
    expect(await call('dialogs.pickFolder', {})).toEqual({ path: join(dir, 'picked'), supported: true });
    expect(pickerTitles).toEqual(['Choose the folder to watch', 'cancel', undefined]);
    expect(() => parseCallInput('dialogs.pickFolder', { title: 'x'.repeat(201) })).toThrow(
      'dialogs.pickFolder: title:',
    );
  });

  it('reminded of the two events due within the reminder window once, as one summary, despite many syncs', () => {
    // Usually one summary ("2 reminders"); on a slow machine the two events may sync in different passes and come as
    // two reminders. Either way: each event exactly once, and nothing about uploads.
    const reminded = notifications.flatMap((n) => n.eventIds);
    expect(reminded).toHaveLength(2);
    expect(new Set(reminded).size).toBe(2);
    expect(notifications.every((n) => n.kind !== 'upload-failed')).toBe(true);
    if (notifications.length === 1) expect(notifications[0]!.title).toBe('2 reminders');
  });

  it('builds its notifications in the language of the setting: a failed upload in German for de', async () => {
    await call('settings.update', { ui: { language: 'de' } });
    expect(app.locale()).toBe('de');
    const notWanted = join(dir, 'not-a-pdf.pdf');
    await writeFile(notWanted, 'plain text, not a PDF');
    await call('uploads.add', { paths: [notWanted] });
    const failed = await until(
      async () => notifications.find((n) => n.kind === 'upload-failed'),
      'the failed-upload notification',
    );
    expect(failed.title).toBe('Upload fehlgeschlagen: not-a-pdf.pdf');
    // Its target is the queue row (a click opens #/uploads/<id>).
    const queue = await call('uploads.list', { limit: 50 });
    expect(queue.items.find((item) => item.file_name === 'not-a-pdf.pdf')?.id).toBe(failed.uploadId);
    await call('settings.update', { ui: { language: 'en' } });
    expect(app.locale()).toBe('en');
  });
});
