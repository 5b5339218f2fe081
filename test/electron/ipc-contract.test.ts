import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CALL_NAMES,
  CALLS,
  EVENT_NAMES,
  type DesktopApi,
  type DesktopHandlers,
  type EventName,
  type EventPayload,
} from '../../common/ipc.ts';
import { ArchiveError } from '../../main/core/client/archive-error.ts';
import { isSafeExternalUrl } from '../../main/electron/external-links.ts';
import {
  EVENT_CHANNEL,
  FOREIGN_SENDER_ERROR,
  callChannel,
  forwardDesktopEvents,
  isTrustedSender,
  registerDesktopIpc,
  type InvokeRegistry,
  type SenderInfo,
} from '../../main/electron/ipc.ts';
import { notificationRoute } from '../../main/electron/routes.ts';
import { trayMenuModel, trayState } from '../../main/electron/tray-model.ts';
import { connectionProblem } from '../../common/connection-problems.ts';

// The preload runs `contextBridge.exposeInMainWorld` on import; Electron's runtime does not exist here, so the test
// stands in for the two objects it uses and records what the page would get.
const bridge = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
  invoke: (..._args: unknown[]): Promise<unknown> => Promise.reject(new Error('no main process')),
  /** What webUtils.getPathForFile answers: Electron gives '' for a File that is not on disk, and may throw for a non-File. */
  pathOf: (file: unknown): string => {
    if (!(file instanceof File)) throw new TypeError('Error processing argument at index 0, conversion failure');
    return file.name === 'made-in-the-page.pdf' ? '' : `/home/me/Scans/${file.name}`;
  },
}));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => bridge.exposed.set(key, value) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => bridge.invoke(...args),
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      if (!bridge.listeners.has(channel)) bridge.listeners.set(channel, new Set());
      bridge.listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
      bridge.listeners.get(channel)?.delete(listener),
  },
  webUtils: { getPathForFile: (file: unknown) => bridge.pathOf(file) },
}));

type FakeEvent = { sender: SenderInfo | null };
const APP_PAGE: SenderInfo = { url: 'app://app/index.html#/library', isTopFrame: true };

/** An ipcMain stand-in: the registered handlers by channel, callable like Electron calls them. */
function fakeIpcMain(): InvokeRegistry<FakeEvent> & {
  handlers: Map<string, (event: FakeEvent, ...args: unknown[]) => Promise<unknown>>;
} {
  const handlers = new Map<string, (event: FakeEvent, ...args: unknown[]) => Promise<unknown>>();
  return {
    handlers,
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
}

/** Handlers that record the (parsed) input they were called with and answer with a marker. */
function recordingHandlers(): { handlers: DesktopHandlers; calls: Array<{ name: string; input: unknown }> } {
  const calls: Array<{ name: string; input: unknown }> = [];
  const handlers = Object.fromEntries(
    CALL_NAMES.map((name) => [
      name,
      async (input: unknown) => {
        calls.push({ name, input });
        if (name === 'documents.get')
          throw new ArchiveError(
            'Document not found (key das_0123456789abcdef0123456789abcdef_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2U)',
            { status: 404 },
          );
        if (name === 'uploads.counts') return { done: 3 };
        return { answered: name };
      },
    ]),
  ) as unknown as DesktopHandlers;
  return { handlers, calls };
}

describe('the settings.update contract', () => {
  const patch = CALLS['settings.update'].input;
  it('leaves out what a patch does not name: a reminders or ui change never resets a hosted connection to local', () => {
    expect(patch.parse({ reminders: { days_before: 5 } })).toEqual({ reminders: { days_before: 5 } });
    expect(patch.parse({ ui: { onboarded: true, appearance: 'dark', language: null } })).toEqual({
      ui: { onboarded: true, appearance: 'dark', language: null },
    });
    expect(patch.parse({ connection: { mode: 'hosted', base_url: 'https://a.example' } })).toEqual({
      connection: { mode: 'hosted', base_url: 'https://a.example' },
    });
  });
  it('rejects UI values the app does not offer', () => {
    expect(patch.safeParse({ ui: { appearance: 'neon' } }).success).toBe(false);
    expect(patch.safeParse({ ui: { language: 'fr' } }).success).toBe(false);
  });
});

describe('main: the IPC registration loop', () => {
  it('registers exactly one handler per call of the contract, and removes them again', () => {
    const ipc = fakeIpcMain();
    const unregister = registerDesktopIpc(ipc, recordingHandlers().handlers, (event) => event.sender);
    expect([...ipc.handlers.keys()].sort()).toEqual(CALL_NAMES.map((name) => `desktop:${name}`).sort());
    expect(CALL_NAMES.map(callChannel)).toEqual(CALL_NAMES.map((name) => `desktop:${name}`));
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });

  it('rejects a foreign sender before anything runs', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerDesktopIpc(ipc, handlers, (event) => event.sender);
    const call = (sender: SenderInfo | null) => ipc.handlers.get('desktop:uploads.pause')!({ sender });
    const refused = { ok: false, error: { message: FOREIGN_SENDER_ERROR, status: 403 } };
    expect(await call(null)).toEqual(refused);
    expect(await call({ url: 'app://app/index.html', isTopFrame: false })).toEqual(refused);
    expect(await call({ url: 'https://evil.example/', isTopFrame: true })).toEqual(refused);
    expect(await call({ url: 'file:///home/user/index.html', isTopFrame: true })).toEqual(refused);
    expect(await call({ url: 'app://other/index.html', isTopFrame: true })).toEqual(refused);
    expect(calls).toEqual([]);
    expect(await call(APP_PAGE)).toEqual({ ok: true, result: { answered: 'uploads.pause' } });
    expect(calls).toEqual([{ name: 'uploads.pause', input: undefined }]);
  });

  it('rejects a bad payload with the field named, and passes the parsed input (defaults applied) to the handler', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerDesktopIpc(ipc, handlers, (event) => event.sender);
    const invoke = (name: string, ...args: unknown[]) =>
      ipc.handlers.get(`desktop:${name}`)!({ sender: APP_PAGE }, ...args);

    expect(await invoke('documents.get', { id: 'nope' })).toEqual({
      ok: false,
      error: { message: 'documents.get: id: expected a uuid', issues: ['id: expected a uuid'] },
    });
    expect(await invoke('uploads.add', { paths: [] })).toMatchObject({
      ok: false,
      error: { message: 'uploads.add: paths: no files given' },
    });
    expect(await invoke('library.list', { limit: 1, injected: '<script>' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^library\.list: /) },
    });
    expect(await invoke('status.get', { anything: true })).toMatchObject({ ok: false });
    expect(await invoke('library.list', {}, 'second argument')).toEqual({
      ok: false,
      error: { message: 'library.list: expected at most one argument' },
    });
    expect(calls).toEqual([]);

    expect(await invoke('library.list', { limit: 5 })).toEqual({ ok: true, result: { answered: 'library.list' } });
    expect(calls).toEqual([
      {
        name: 'library.list',
        input: { sort_by: 'created_at', sort_order: 'desc', deleted: false, limit: 5, offset: 0 },
      },
    ]);
  });

  it("maps a handler's error to its message and status, with keys masked and no stack", async () => {
    const ipc = fakeIpcMain();
    registerDesktopIpc(ipc, recordingHandlers().handlers, (event) => event.sender);
    const reply = await ipc.handlers.get('desktop:documents.get')!({ sender: APP_PAGE }, { id: crypto.randomUUID() });
    expect(reply).toEqual({
      ok: false,
      error: { message: 'Document not found (key das_0123456789abcdef0123456789abcdef_***)', status: 404 },
    });
  });

  it('forwards every event of the contract on one channel, and stops when asked', () => {
    const source = new EventEmitter<{ [E in EventName]: [EventPayload<E>] }>();
    const sent: unknown[][] = [];
    const stop = forwardDesktopEvents(source, (...args) => void sent.push(args));
    for (const event of EVENT_NAMES) expect(source.listenerCount(event), event).toBe(1);
    source.emit('uploads.removed', { id: 7 });
    expect(sent).toEqual([[EVENT_CHANNEL, 'uploads.removed', { id: 7 }]]);
    stop();
    for (const event of EVENT_NAMES) expect(source.listenerCount(event), event).toBe(0);
  });

  it('sends only what the contract names: a payload that does not fit is reported, not sent; extra fields are dropped', () => {
    const source = new EventEmitter<{ [E in EventName]: [EventPayload<E>] }>();
    const sent: unknown[][] = [];
    const invalid: Array<[EventName, string]> = [];
    forwardDesktopEvents(
      source,
      (...args) => void sent.push(args),
      (event, problem) => void invalid.push([event, problem]),
    );
    // What a bug elsewhere could emit, past the compiler (a cast, a JSON value): a string where a number belongs.
    source.emit('uploads.progress', { id: 1, sent: 'half', total: 10 } as unknown as EventPayload<'uploads.progress'>);
    expect(sent).toEqual([]);
    expect(invalid).toEqual([['uploads.progress', expect.stringContaining('sent')]]);
    // A field the contract does not name never reaches the renderer, whatever it holds.
    source.emit('uploads.progress', {
      id: 1,
      sent: 5,
      total: 10,
      apiKey: 'das_secret',
    } as EventPayload<'uploads.progress'>);
    expect(sent).toEqual([[EVENT_CHANNEL, 'uploads.progress', { id: 1, sent: 5, total: 10 }]]);
  });
});

describe('the sender check', () => {
  it.each<[string, SenderInfo | null | undefined, boolean]>([
    ['the app page, top frame', { url: 'app://app/index.html', isTopFrame: true }, true],
    ['the app page on a route', { url: 'app://app/index.html#/document/x', isTopFrame: true }, true],
    ['the app page in a subframe', { url: 'app://app/index.html', isTopFrame: false }, false],
    ['another app:// host', { url: 'app://evil/index.html', isTopFrame: true }, false],
    ['credentials in the URL', { url: 'app://user:pw@app/index.html', isTopFrame: true }, false],
    ['a preview', { url: 'app-preview://document/0b9d4c5e-1f53-4a38-9f49-0d0ad8c83d43', isTopFrame: true }, false],
    ['a web page', { url: 'https://app/index.html', isTopFrame: true }, false],
    ['a local file', { url: 'file:///app/index.html', isTopFrame: true }, false],
    ['about:blank', { url: 'about:blank', isTopFrame: true }, false],
    ['garbage', { url: 'not a url', isTopFrame: true }, false],
    ['no frame', null, false],
    ['undefined', undefined, false],
  ])('%s', (_label, sender, trusted) => {
    expect(isTrustedSender(sender)).toBe(trusted);
  });
});

describe('isSafeExternalUrl', () => {
  it.each<[unknown, boolean]>([
    ['https://example.com/', true],
    ['http://example.com/path?q=1#x', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['https://例え.jp/', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['app://app/index.html', false],
    ['app-preview://document/x', false],
    ['smb://server/share', false],
    ['ms-msdt:/id PCWDiagnostic', false],
    ['mailto:someone@example.com', false],
    ['https://user:secret@example.com/', false],
    ['https://user@example.com/', false],
    ['//example.com', false],
    ['example.com', false],
    ['', false],
    [' https://example.com', true],
    [`https://example.com/${'a'.repeat(9000)}`, false],
    [42, false],
    [null, false],
  ])('%s → %s', (url, safe) => {
    expect(isSafeExternalUrl(url)).toBe(safe);
  });
});

describe('preload: exactly the contract as window.desktop', () => {
  let desktop: DesktopApi;

  beforeEach(async () => {
    bridge.exposed.clear();
    bridge.listeners.clear();
    vi.resetModules();
    await import('../../preload/preload.ts');
    desktop = bridge.exposed.get('desktop') as DesktopApi;
  });

  it('exposes one object, with one function per call, on(), pathForFile() and addFiles(), nothing else', () => {
    expect([...bridge.exposed.keys()]).toEqual(['desktop']);
    expect(Object.keys(desktop).sort()).toEqual([...CALL_NAMES, 'on', 'pathForFile', 'addFiles'].sort());
    for (const value of Object.values(desktop)) expect(typeof value).toBe('function');
    expect(CALL_NAMES).toContain('documents.open');
    expect(CALL_NAMES).toContain('dialogs.pickFolder');
  });

  it('pathForFile answers in the renderer, without IPC: the path, or null when Electron has none', () => {
    bridge.invoke = async () => {
      throw new Error('pathForFile must not go through IPC');
    };
    expect(desktop.pathForFile(new File(['%PDF'], 'scan_0042.pdf'))).toBe('/home/me/Scans/scan_0042.pdf');
    expect(desktop.pathForFile(new File(['%PDF'], 'made-in-the-page.pdf'))).toBeNull();
    expect(desktop.pathForFile({ name: 'not a file' } as unknown as File)).toBeNull();
  });

  it('addFiles queues chosen files by their paths with uploads.add, and refuses files that are not on disk', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerDesktopIpc(ipc, handlers, (event) => event.sender);
    bridge.invoke = async (channel: unknown, ...args: unknown[]) =>
      ipc.handlers.get(String(channel))!({ sender: APP_PAGE }, ...args);
    await desktop.addFiles([new File(['%PDF'], 'scan_0042.pdf')], { metadata: { tags: ['Strom'] } });
    expect(calls).toEqual([
      { name: 'uploads.add', input: { paths: ['/home/me/Scans/scan_0042.pdf'], metadata: { tags: ['Strom'] } } },
    ]);
    await expect(desktop.addFiles([new File(['%PDF'], 'made-in-the-page.pdf')], {})).rejects.toThrow(
      /not on this computer's disk.*made-in-the-page\.pdf/,
    );
    expect(calls).toHaveLength(1);
  });

  it('carries the new calls over their channels: the folder picker and opening in the system app', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerDesktopIpc(ipc, handlers, (event) => event.sender);
    bridge.invoke = async (channel: unknown, ...args: unknown[]) =>
      ipc.handlers.get(String(channel))!({ sender: APP_PAGE }, ...args);
    await desktop['dialogs.pickFolder']({ title: 'Choose the folder to watch' });
    const id = crypto.randomUUID();
    await desktop['documents.open']({ id });
    expect(calls).toEqual([
      { name: 'dialogs.pickFolder', input: { title: 'Choose the folder to watch' } },
      { name: 'documents.open', input: { id } },
    ]);
    await expect(desktop['dialogs.pickFolder']({ title: 'x'.repeat(201) })).rejects.toThrow(
      /^dialogs\.pickFolder: title: /,
    );
    await expect(desktop['documents.open']({ id: 'C:\\Windows\\notepad.exe' })).rejects.toThrow(
      'documents.open: id: expected a uuid',
    );
  });

  it('talks to the handlers main registered, over the same channels, end to end', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerDesktopIpc(ipc, handlers, (event) => event.sender);
    const invoked: unknown[][] = [];
    bridge.invoke = async (channel: unknown, ...args: unknown[]) => {
      invoked.push([channel, ...args]);
      const handler = ipc.handlers.get(String(channel));
      if (!handler) throw new Error(`No handler registered for '${String(channel)}'`);
      return handler({ sender: APP_PAGE }, ...args);
    };

    expect(await desktop['uploads.counts']()).toEqual({ done: 3 });
    await desktop['library.list']({ limit: 2 });
    expect(invoked).toEqual([['desktop:uploads.counts'], ['desktop:library.list', { limit: 2 }]]);
    expect(calls.map((c) => c.name)).toEqual(['uploads.counts', 'library.list']);

    const bad = await desktop['documents.get']({ id: 'nope' }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toBe('documents.get: id: expected a uuid');
    const notFound = await desktop['documents.get']({ id: crypto.randomUUID() }).catch((error: unknown) => error);
    expect(notFound).toMatchObject({
      message: expect.stringContaining('das_0123456789abcdef0123456789abcdef_***'),
      status: 404,
    });

    // Every call of the contract reaches its handler.
    for (const name of CALL_NAMES) expect(ipc.handlers.has(`desktop:${name}`), name).toBe(true);
  });

  it('rejects an answer that is not an envelope', async () => {
    bridge.invoke = async () => 'something else';
    await expect(desktop['status.get']()).rejects.toThrow(
      'The desktop app sent an answer the window does not understand',
    );
  });

  it('subscribes to events without handing out the IPC event, and unsubscribes', () => {
    const counts: unknown[] = [];
    const received: unknown[][] = [];
    const stop = desktop.on('uploads.counts', (...args: unknown[]) => void received.push(args));
    const stopOther = desktop.on('status.changed', () => void counts.push('status'));
    expect(bridge.listeners.get(EVENT_CHANNEL)?.size).toBe(1);
    const deliver = (name: string, payload: unknown) => {
      for (const listener of bridge.listeners.get(EVENT_CHANNEL) ?? [])
        listener({ sender: 'ipcRenderer itself' }, name, payload);
    };
    deliver('uploads.counts', { done: 1 });
    deliver('uploads.removed', { id: 1 });
    expect(received).toEqual([[{ done: 1 }]]);
    stop();
    stop();
    deliver('uploads.counts', { done: 2 });
    expect(received).toHaveLength(1);
    expect(bridge.listeners.get(EVENT_CHANNEL)?.size).toBe(1);
    stopOther();
    expect(bridge.listeners.get(EVENT_CHANNEL)?.size).toBe(0);
    expect(() => desktop.on('not.an.event' as EventName, () => {})).toThrow('Unknown event: not.an.event');
  });
});

describe('tray and notifications', () => {
  const status = { online: true, auth_required: false, uploads_paused: false, due_count: 0, reason: null };

  it('shows attention, then offline, then uploading, else idle', () => {
    expect(trayState(status, {})).toBe('idle');
    expect(trayState(null, {})).toBe('idle');
    expect(trayState(status, { waiting: 2, done: 5 })).toBe('uploading');
    expect(trayState({ ...status, uploads_paused: true }, { waiting: 2 })).toBe('idle');
    expect(trayState({ ...status, online: false, reason: 'connection refused' }, { waiting: 2 })).toBe('offline');
    expect(trayState({ ...status, online: false }, { failed: 1 })).toBe('attention');
    expect(trayState({ ...status, auth_required: true }, {})).toBe('attention');
    expect(trayState({ ...status, due_count: 4 }, {})).toBe('idle');
  });

  it('describes the queue, pause state and due items in the menu', () => {
    expect(trayMenuModel(status, {})).toEqual({
      state: 'idle',
      tooltip: 'Desktop Archive: up to date',
      queue: 'Queue: empty',
      paused: false,
      due: 'Nothing due',
      toggle: 'Pause uploads',
      open: 'Open Desktop Archive',
      quit: 'Quit',
    });
    expect(
      trayMenuModel(
        { ...status, uploads_paused: true, due_count: 1 },
        { uploading: 1, hashing: 1, queued: 2, waiting: 1, failed: 3, paused: 1 },
      ),
    ).toEqual({
      state: 'attention',
      tooltip: 'Desktop Archive: 3 uploads failed',
      queue: 'Queue: 2 uploading, 3 waiting, 1 paused, 3 failed (uploads paused)',
      paused: true,
      due: '1 item due',
      toggle: 'Resume uploads',
      open: 'Open Desktop Archive',
      quit: 'Quit',
    });
    expect(trayMenuModel({ ...status, online: false, reason: 'timeout', due_count: 5 }, {})).toMatchObject({
      state: 'offline',
      tooltip: 'Desktop Archive: offline: timeout',
      due: '5 items due',
    });
    expect(trayMenuModel(status, { failed: 1 }).tooltip).toBe('Desktop Archive: 1 upload failed');
  });

  it('speaks German when the language is de: every label of the menu and the tooltip', () => {
    expect(trayMenuModel(status, {}, 'de')).toEqual({
      state: 'idle',
      tooltip: 'Desktop Archive: auf dem neuesten Stand',
      queue: 'Warteschlange: leer',
      paused: false,
      due: 'Nichts fällig',
      toggle: 'Uploads pausieren',
      open: 'Desktop Archive öffnen',
      quit: 'Beenden',
    });
    expect(
      trayMenuModel(
        { ...status, uploads_paused: true, due_count: 1 },
        { uploading: 1, queued: 2, failed: 3, paused: 1 },
        'de',
      ),
    ).toEqual({
      state: 'attention',
      tooltip: 'Desktop Archive: 3 Uploads fehlgeschlagen',
      queue: 'Warteschlange: 1 laden hoch, 2 warten, 1 pausiert, 3 fehlgeschlagen (Uploads pausiert)',
      paused: true,
      due: '1 Eintrag fällig',
      toggle: 'Uploads fortsetzen',
      open: 'Desktop Archive öffnen',
      quit: 'Beenden',
    });
    expect(trayMenuModel({ ...status, auth_required: true, due_count: 1200 }, {}, 'de')).toMatchObject({
      tooltip: 'Desktop Archive: der Dienst braucht einen neuen API-Schlüssel',
      due: '1.200 Einträge fällig',
    });
    expect(
      trayMenuModel({ ...status, online: false, reason: 'Zeitüberschreitung' }, { waiting: 1 }, 'de').tooltip,
    ).toBe('Desktop Archive: offline: Zeitüberschreitung');
    // The client's own reason, in the tray's language.
    expect(
      trayMenuModel(
        { ...status, online: false, reason: connectionProblem('unreachable', { code: 'ECONNREFUSED' }) },
        {},
        'de',
      ).tooltip,
    ).toBe('Desktop Archive: offline: Dienst nicht erreichbar (ECONNREFUSED)');
  });

  it('a notification opens its item: one reminder its document, several the due list, failed uploads their queue row', async () => {
    const documentOf = async (eventId: string) => (eventId === 'e1' ? 'd1' : null);
    expect(await notificationRoute({ kind: 'reminder', eventIds: ['e1'] }, documentOf)).toBe('#/document/d1');
    expect(await notificationRoute({ kind: 'reminder', eventIds: ['unknown'] }, documentOf)).toBe('#/due');
    expect(
      await notificationRoute({ kind: 'reminder', eventIds: ['e1'] }, async () => {
        throw new Error('offline');
      }),
    ).toBe('#/due');
    expect(await notificationRoute({ kind: 'reminder', eventIds: ['e1', 'e2'] }, documentOf)).toBe('#/due');
    expect(await notificationRoute({ kind: 'digest', eventIds: ['e1'] }, documentOf)).toBe('#/due');
    expect(await notificationRoute({ kind: 'summary', eventIds: ['e1', 'e2'] })).toBe('#/due');
    expect(await notificationRoute({ kind: 'upload-failed', eventIds: [] }, documentOf)).toBe('#/uploads');
    expect(await notificationRoute({ kind: 'upload-failed', eventIds: [], uploadId: 17 }, documentOf)).toBe(
      '#/uploads/17',
    );
  });
});
