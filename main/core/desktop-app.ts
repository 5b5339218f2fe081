import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ArchiveDocument } from '../../common/archive-types.ts';
import { sha256Hex, uuid } from '../../common/archive-schemas.ts';
import { downloadFileName } from '../../common/download-name.ts';
import { ErrorMessage } from '../../common/errors.ts';
import {
  type CallOutput, type CallParsedInput, type DesktopHandlers, type DesktopNotification, type EventName, type EventPayload,
} from '../../common/ipc.ts';
import { pickLocale, translate, type Locale } from '../../common/i18n/translate.ts';
import { DEFAULT_IGNORE_PATTERNS, watchedFolderSchema, type WatchedFolder } from '../../common/settings.ts';
import { ArchiveClient } from './client/archive-client.ts';
import { ArchiveError } from './client/archive-error.ts';
import { DesktopCore, type DesktopCoreOptions } from './desktop-core.ts';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import { totalsOf } from './library/due-items.ts';
import { eventsToIcs } from './library/ics.ts';
import { LibraryCache } from './library/library-cache.ts';
import { LibrarySync } from './library/library-sync.ts';
import { Reminders } from './library/reminders.ts';
import { profileId } from './keychain/key-store.ts';
import { resolveInside } from './safe-path.ts';
import type { SettingsStore } from './settings/settings-store.ts';
import { nodeSystemLanguages } from './system-languages.ts';
import { createPathFilter } from './watcher/path-filter.ts';
import { walkFiles } from './watcher/walk.ts';

type Emitted = { [E in EventName]: [EventPayload<E>] };

export interface DesktopAppOptions extends Omit<DesktopCoreOptions, 'settings'> {
  settings: SettingsStore;
  /** The URL the renderer loads a document's bytes from (the shell's preview protocol or route). */
  previewUrl: (documentId: string) => string;
  /**
   * Opens a file in the system's app for its type (Electron: shell.openPath; the browser shell on the user's own
   * machine: xdg-open/open/start). Without it documents.open answers `{ opened: false }`.
   */
  openPath?: (path: string) => Promise<void>;
  /** The system's folder picker; null when cancelled. Without it dialogs.pickFolder answers `{ supported: false }`. */
  pickFolder?: (title?: string) => Promise<string | null>;
  now?: () => number;
  /**
   * The OS's preferred languages (BCP 47), for texts main builds when the setting ui.language is null (follow the
   * system). Electron: app.getPreferredSystemLanguages(); default: the process's locale environment.
   */
  systemLanguages?: () => readonly string[];
}

/**
 * The DesktopApi contract, implemented over the core services. The shells (Electron IPC, the browser shell's
 * WebSocket) parse each call's input with the contract's schema and then call `handlers[name](input)`; they forward
 * the events emitted here. Nothing here returns an API key or a signed URL.
 */
export class DesktopApp extends EventEmitter<Emitted> {
  readonly handlers: DesktopHandlers;
  private current!: DesktopCore;
  private readonly cache: LibraryCache;
  private sync!: LibrarySync;
  private readonly reminders: Reminders;
  private readonly options: DesktopAppOptions;
  private readonly settings: SettingsStore;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly previewCache: string;
  private stopSettings: (() => void) | undefined;

  private constructor(options: DesktopAppOptions, cache: LibraryCache) {
    super();
    this.options = options;
    this.settings = options.settings;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.cache = cache;
    this.previewCache = join(options.appDataDir, 'preview-cache');
    this.reminders = new Reminders({
      cache, settings: () => this.settings.get().reminders, now: this.now, log: this.log, locale: () => this.locale(),
      notify: (notification) => this.emit('notification', notification),
    });
    this.handlers = this.createHandlers();
  }

  /**
   * The language of the texts main builds (notifications, the tray): the setting, else the first supported language
   * of the OS, else English; the renderer picks its own the same way (common/i18n/translate.ts pickLocale).
   */
  locale(): Locale {
    return pickLocale(this.settings.get().ui.language, (this.options.systemLanguages ?? nodeSystemLanguages)());
  }

  /** The running core (replaced when the connection settings change). */
  get core(): DesktopCore { return this.current; }

  static async open(options: DesktopAppOptions): Promise<DesktopApp> {
    await mkdir(options.appDataDir, { recursive: true });
    const cache = new LibraryCache(join(options.appDataDir, 'library.sqlite'));
    const app = new DesktopApp(options, cache);
    try {
      await app.connect();
    } catch (error) {
      cache.close();
      throw error;
    }
    return app;
  }

  async start(): Promise<void> {
    await this.current.start();
    this.sync.start();
    this.reminders.start();
    this.stopSettings = this.settings.onChange((next, previous) => {
      if (!this.options.connection && JSON.stringify(next.connection) !== JSON.stringify(previous.connection)) void this.reconnect();
      if (next.sync !== previous.sync) this.sync.configure({ intervalMs: next.sync.interval_ms, fullReconcileIntervalMs: next.sync.full_reconcile_interval_ms });
      if (next.reminders !== previous.reminders) this.reminders.checkSafely();
      this.emitStatus();
    });
    this.emitStatus();
  }

  async stop(): Promise<void> {
    this.stopSettings?.();
    this.reminders.stop();
    await this.sync.stop();
    await this.current.stop();
    this.cache.close();
  }

  /** The power monitor's resume: missed reminders fire as one summary, the library catches up. */
  wake(): void {
    this.reminders.wake();
    void this.sync.syncNow().catch(() => undefined);
  }

  /** A cached copy of a document's file for the preview protocol (downloaded once through a signed URL). */
  async previewFile(id: string): Promise<{ path: string; mimeType: string; fileName: string; size: number }> {
    const { document, path, mimeType } = await this.cachedFile(id);
    return { path, mimeType, fileName: downloadFileName(document.original_filename, mimeType), size: document.size_bytes };
  }

  /**
   * The document's file in the preview cache, and its MIME type as detected from the cached bytes: the service's
   * `mime_type` is not trusted, so a hostile one cannot have HTML or a script served to the renderer or opened by the
   * OS. A file of no supported format is refused.
   */
  private async cachedFile(id: string): Promise<{ document: ArchiveDocument; path: string; mimeType: string }> {
    requireValid(uuid, id, 'document id');
    const document = this.cache.getDocument(id) ?? (await this.current.client.getDocument(id));
    // The client checked the digest when the document arrived; a cache written by an older version was not.
    requireValid(sha256Hex, document.sha256, `SHA-256 of document ${id}`);
    const directory = resolveInside(this.previewCache, document.sha256);
    const path = resolveInside(directory, 'file');
    const existing = await stat(path).catch(() => null);
    if (!existing || existing.size !== document.size_bytes) {
      await this.current.client.download(id, directory, { fileName: 'file', overwrite: true });
    }
    const format = await detectFormat(path);
    if (!format) {
      throw new ArchiveError(`The file of document ${id} is in no supported format; it is not shown or opened`, { status: 502 });
    }
    return { document, path, mimeType: format.mimeType };
  }

  /**
   * A copy of the cached file under its original name (`<appDataDir>/open/<sha256>/<name>`), for the system's app:
   * the preview cache's `file` has no extension, so no desktop would know what opens it. Written to a temporary name
   * and renamed, so an app never opens a half-copied file; an existing copy of the right size is reused.
   */
  async openableCopy(id: string): Promise<string> {
    const { document, path, mimeType } = await this.cachedFile(id);
    const directory = resolveInside(this.options.appDataDir, 'open', document.sha256);
    const target = resolveInside(directory, downloadFileName(document.original_filename, mimeType));
    const existing = await stat(target).catch(() => null);
    if (existing?.size === document.size_bytes) return target;
    await mkdir(directory, { recursive: true });
    const temp = resolveInside(directory, `.${process.pid}.${Date.now()}.part`);
    await copyFile(path, temp);
    await rename(temp, target);
    return target;
  }

  // ---- wiring -----------------------------------------------------------------------------------------------------

  private async connect(): Promise<void> {
    this.current = await DesktopCore.open({ ...this.options, settings: this.settings });
    this.sync = new LibrarySync({
      client: this.current.client, cache: this.cache, log: this.log, now: this.now,
      intervalMs: this.settings.get().sync.interval_ms, fullReconcileIntervalMs: this.settings.get().sync.full_reconcile_interval_ms,
    });
    const journal = this.current.journal;
    journal.on('item', (item) => {
      this.emit('uploads.item', item);
      if (item.state === 'failed' && this.settings.get().ui.notify_failed_uploads) {
        this.emit('notification', {
          id: `upload-failed:${item.id}:${item.updated_at}`, kind: 'upload-failed', eventIds: [], uploadId: item.id,
          title: translate(this.locale(), 'notification.uploadFailed', { file: item.file_name }),
          body: item.last_error ?? translate(this.locale(), 'notification.uploadRefused'),
        } satisfies DesktopNotification);
      }
      if (item.state === 'done') void this.sync.syncNow().catch(() => undefined);
    });
    journal.on('removed', (id) => this.emit('uploads.removed', { id }));
    journal.on('progress', (progress) => this.emit('uploads.progress', progress));
    journal.on('counts', (counts) => this.emit('uploads.counts', counts));
    journal.on('connectivity', () => this.emitStatus());
    this.current.on('folder-status', (status) => this.emit('folders.status', status));
    this.current.client.on('auth-required', () => this.emitStatus());
    // Back online (whatever request found it): the library catches up now, not at its next interval.
    this.current.client.connection.on('change', (connection) => {
      if (connection.online) void this.sync.syncNow().catch(() => undefined);
    });
    this.sync.on('changed', (change) => {
      this.emit('library.changed', { document_ids: change.documents, event_ids: change.events });
      if (change.events.length > 0) this.reminders.checkSafely();
    });
    this.sync.on('synced', () => this.emitStatus());
  }

  /** The connection settings changed (local ↔ hosted, another URL): rebuild the core on the same journal and cache. */
  private async reconnect(): Promise<void> {
    this.log('connection changed: reconnecting');
    await this.sync.stop();
    await this.current.stop();
    this.sync.removeAllListeners();
    this.cache.clear();
    await this.connect();
    await this.current.start();
    this.sync.start();
    this.emitStatus();
  }

  private emitStatus(): void {
    this.emit('status.changed', this.status());
  }

  /**
   * What status.get answers. `online` is the client's connection monitor (through the journal): the outcome of the
   * newest request to the service, whoever sent it, with a light probe while nothing else talks to it.
   */
  status(): CallOutput<'status.get'> {
    const core = this.current.status();
    const sync = this.sync.status();
    return {
      mode: core.mode, base_url: core.baseUrl, online: core.online, auth_required: core.authRequired,
      uploads_paused: core.paused, reason: core.reason, key_storage: core.keyStorage,
      key_warning: core.keyWarning, settings_problems: this.settings.problems.map((p) => p.message),
      last_sync_at: sync.lastSyncAt === null ? null : new Date(sync.lastSyncAt).toISOString(),
      due_count: this.reminders.dueCount(),
      archive_dir: this.current.local?.dataDir ?? null,
    };
  }

  private createHandlers(): DesktopHandlers {
    const client = () => this.current.client;
    const bulk = async (ids: string[], action: (id: string) => Promise<unknown>): Promise<CallOutput<'documents.delete'>> => {
      const done: string[] = [];
      const failed: Array<{ id: string; error: string }> = [];
      for (const id of ids) {
        try {
          await action(id);
          done.push(id);
        } catch (error) {
          failed.push({ id, error: messageOf(error) });
        }
      }
      void this.sync.syncNow().catch(() => undefined);
      return { done, failed };
    };
    return {
      'status.get': async () => this.status(),
      'settings.get': async () => this.settings.get(),
      'settings.update': async (patch) => this.settings.update(patch),
      'connection.test': async (input) => this.testConnection(input),
      'connection.setKey': async ({ api_key }) => {
        await this.current.setApiKey(api_key);
        this.emitStatus();
        void this.sync.syncNow().catch(() => undefined);
      },

      'library.list': async (query) => {
        const page = this.cache.listDocuments(query);
        return { items: page.items, total: page.total };
      },
      'library.search': async (query) => {
        const result = await client().search({ query: query.query, limit: query.limit, ...(query.space_id ? { space_id: query.space_id } : {}) });
        return { items: result.items, total: result.total };
      },
      'library.sync': async () => {
        const result = await this.sync.syncNow({ full: true });
        return { added: result.documents.changed.length, updated: result.events.changed.length, removed: result.documents.removed.length };
      },

      'documents.get': async ({ id }) => {
        const detail = await client().getDocument(id);
        this.cache.upsertDocuments([detail], this.now());
        return detail;
      },
      'documents.preview': async ({ id }) => {
        const file = await this.previewFile(id);
        return { url: this.options.previewUrl(id), mime_type: file.mimeType, file_name: file.fileName, size: file.size };
      },
      'documents.saveAs': async ({ id, directory }) => ({ path: (await client().download(id, resolve(directory))).path }),
      'documents.open': async ({ id }) => {
        const openPath = this.options.openPath;
        if (!openPath) return { opened: false };
        await openPath(await this.openableCopy(id));
        return { opened: true };
      },
      'documents.update': async ({ id, ...changes }) => {
        const detail = await client().updateDocument(id, changes);
        this.cache.upsertDocuments([detail], this.now());
        this.emit('library.changed', { document_ids: [id], event_ids: [] });
        return detail;
      },
      'documents.delete': async ({ ids }) => bulk(ids, (id) => client().deleteDocument(id)),
      'documents.restore': async ({ ids }) => bulk(ids, (id) => client().restoreDocument(id)),
      'documents.reprocess': async ({ ids }) => {
        const result = ids.length === 1 ? await reprocessOne(client(), ids[0]!) : await client().reprocessDocuments(ids)
          .then((bulk) => ({ ...bulk, alreadyProcessing: [] }));
        void this.sync.syncNow().catch(() => undefined);
        return { queued: result.queued, alreadyProcessing: result.alreadyProcessing, skippedPending: result.skippedPending, denied: result.denied, notFound: result.notFound };
      },

      'events.list': async (query) => {
        const page = this.cache.listEvents({
          ...(query.states ? { state: query.states } : {}), ...(query.types?.length === 1 ? { event_type: query.types[0] } : {}),
          due_after: query.due_after, due_before: query.due_before, document_id: query.document_id, limit: query.limit, offset: query.offset,
        });
        const items = query.types && query.types.length > 1 ? page.items.filter((e) => query.types!.includes(e.event_type)) : page.items;
        return { items, total: query.types && query.types.length > 1 ? items.length : page.total };
      },
      'events.get': async ({ id }) => client().getEvent(id),
      'events.setState': async ({ id, ...change }) => {
        const event = await client().setEventState(id, change);
        this.cache.upsertEvents([event]);
        this.emit('library.changed', { document_ids: [], event_ids: [id] });
        this.reminders.checkSafely();
        return event;
      },
      'events.update': async ({ id, ...patch }) => {
        const event = await client().updateEvent(id, patch);
        this.cache.upsertEvents([event]);
        // A new sender is the document's sender too, and its extracted data now shows the edit: the document view
        // reads the cache, so the document is refreshed with the event rather than at the next sync.
        const document = await client().getDocument(event.document_id).catch(() => null);
        if (document) this.cache.upsertDocuments([document], this.now());
        this.emit('library.changed', { document_ids: document ? [event.document_id] : [], event_ids: [id] });
        this.reminders.checkSafely();
        return event;
      },
      'events.due': async ({ types, until }) => {
        const due = this.cache.dueItems({ ...(until ? { until } : {}) });
        if (!types?.length) return due;
        // Every sum is recomputed from what is kept: the cache's totals cover all types.
        const keep = (items: typeof due.overdue.items) => items.filter((e) => types.includes(e.event_type));
        const overdueItems = keep(due.overdue.items);
        const overdue = { ...due.overdue, items: overdueItems, totals: totalsOf(overdueItems) };
        const weeks = due.weeks.map((w) => {
          const items = keep(w.items);
          return { ...w, items, totals: totalsOf(items) };
        }).filter((w) => w.items.length > 0);
        const all = [...overdue.items, ...weeks.flatMap((w) => w.items)];
        return { ...due, overdue, weeks, totals: totalsOf(all), count: all.length };
      },
      'events.snooze': async ({ id, until }) => {
        this.reminders.snooze(id, Date.parse(until));
        this.emitStatus();
      },
      'events.exportIcs': async () => {
        const events = this.cache.dueEvents();
        return { ics: eventsToIcs(events, { now: this.now(), daysBefore: this.settings.get().reminders.days_before }), count: events.length };
      },

      'uploads.list': async (query) => this.current.journal.list(query),
      'uploads.add': async ({ paths, space_id, metadata }) => {
        const files = await expandDrop(paths);
        if (files.length === 0) throw new ArchiveError('No supported files in what was dropped (PDF, images, Office documents)', { status: 400 });
        return this.current.journal.addFiles(files, { spaceId: space_id, metadata });
      },
      'uploads.retry': async ({ id }) => this.current.journal.retry(id) ?? null,
      'uploads.pauseItem': async ({ id }) => this.current.journal.pauseItem(id) ?? null,
      'uploads.remove': async ({ id }) => this.current.journal.remove(id),
      'uploads.pause': async () => { await this.settings.update({ uploads: { paused: true } }); },
      'uploads.resume': async () => { await this.settings.update({ uploads: { paused: false } }); },
      'uploads.counts': async () => this.current.journal.counts(),

      'folders.list': async () => ({ folders: [...this.settings.get().folders], statuses: this.current.status().folders }),
      'folders.save': async (input) => this.saveFolder(input),
      'folders.remove': async ({ id }) => {
        const folders = this.settings.get().folders;
        if (!folders.some((f) => f.id === id)) return false;
        await this.settings.update({ folders: folders.filter((f) => f.id !== id) });
        return true;
      },
      'folders.rescan': async ({ id }) => { await this.current.watcher.rescan(id); },

      'catalog.spaces': async () => client().listSpaces(),
      'catalog.categories': async ({ space_id }) => client().listCategories(space_id),
      'catalog.tags': async () => client().listTags(),

      'dialogs.pickFolder': async ({ title }) => {
        const pickFolder = this.options.pickFolder;
        if (!pickFolder) return { path: null, supported: false };
        return { path: await pickFolder(title), supported: true };
      },
    };
  }

  private async testConnection(input: CallParsedInput<'connection.test'>): Promise<CallOutput<'connection.test'>> {
    let probe: ArchiveClient;
    let owned = false;
    if (input.mode === 'local' || !input.base_url) {
      if (input.mode === 'hosted') return { ok: false, error: 'Enter the service URL', key: null, spaces: [] };
      probe = this.current.client;
    } else {
      const stored = await this.current.keys.get(profileId(input.base_url)).catch(() => null);
      const apiKey = input.api_key ?? stored;
      if (!apiKey) return { ok: false, error: 'Enter an API key for this service', key: null, spaces: [] };
      probe = new ArchiveClient({ baseUrl: input.base_url, apiKey, maxAttempts: 1, headersTimeoutMs: 10_000 });
      owned = true;
    }
    try {
      const key = await probe.me();
      const spaces = key.scopes.includes('spaces:read') ? await probe.listSpaces() : [];
      return { ok: true, error: null, key, spaces };
    } catch (error) {
      return { ok: false, error: messageOf(error), key: null, spaces: [] };
    } finally {
      if (owned) await probe.close();
    }
  }

  private async saveFolder(input: CallParsedInput<'folders.save'>): Promise<WatchedFolder> {
    const folder = watchedFolderSchema.parse({ ...input, id: input.id ?? randomUUID(), path: resolve(input.path) });
    const info = await stat(folder.path).catch(() => null);
    if (!info) throw new ArchiveError(`Folder not found: ${folder.path}`, { status: 400 });
    if (!info.isDirectory()) throw new ArchiveError(`Not a folder: ${folder.path}`, { status: 400 });
    if (folder.after_upload.action === 'move' && resolve(folder.after_upload.to) === folder.path) {
      throw new ArchiveError('The move target must not be the watched folder itself', { status: 400 });
    }
    const others = this.settings.get().folders.filter((f) => f.id !== folder.id);
    if (others.some((f) => f.path === folder.path)) throw new ArchiveError(`This folder is already watched: ${folder.path}`, { status: 400 });
    await this.settings.update({ folders: [...others, folder] });
    return folder;
  }
}

/** Dropped paths: files as they are, folders expanded to their supported files (debris skipped, like a watched folder). */
async function expandDrop(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const raw of paths) {
    const path = resolve(raw);
    const info = await stat(path).catch(() => null);
    if (!info) throw new ArchiveError(`File not found: ${path}`, { status: 400 });
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const filter = createPathFilter({ root: path, ignore: DEFAULT_IGNORE_PATTERNS, fileTypes: [], recursive: true, excludedDirs: [] });
    for await (const file of walkFiles(path, filter, () => undefined)) files.push(file.path);
  }
  return files;
}

/**
 * One document through the single endpoint, which says alreadyProcessing (the bulk one calls it skippedPending), its
 * answers mapped onto the same lists: 404 → notFound, 403 for the space → denied. Anything else (no scope, offline)
 * fails the call, as it would for the bulk endpoint.
 */
async function reprocessOne(client: ArchiveClient, id: string):
  Promise<{ queued: string[]; alreadyProcessing: string[]; skippedPending: string[]; denied: string[]; notFound: string[] }> {
  const result = { queued: [] as string[], alreadyProcessing: [] as string[], skippedPending: [] as string[], denied: [] as string[], notFound: [] as string[] };
  try {
    const answer = await client.reprocessDocument(id);
    (answer.alreadyProcessing ? result.alreadyProcessing : result.queued).push(id);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    if (error.status === 404) result.notFound.push(id);
    else if (error.status === 403 && error.message === ErrorMessage.spaceDenied) result.denied.push(id);
    else throw error;
  }
  return result;
}

/** A value that becomes part of a local path, checked with its schema first: a clear error instead of a bad path. */
function requireValid(schema: typeof uuid | typeof sha256Hex, value: string, what: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new ArchiveError(`Invalid ${what}: ${JSON.stringify(value)} (${result.error.issues[0]?.message ?? 'malformed'})`, { status: 400 });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export type { ArchiveDocument };
