import type { FirstPaintSnapshot, FirstPaintUi } from './shell/first-paint.ts';
import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_ITEM_STATES } from '../../common/ipc-names.ts';
import type { CallOutput, DesktopHandlers, DesktopNotification, EventName, EventPayload } from '../../common/ipc.ts';
import { errorMessage } from '../../common/errors.ts';
import { pickLocale, translate, type Locale } from '../../common/i18n/translate.ts';
import { DesktopCore, keyFilePath, type DesktopCoreOptions } from './desktop-core.ts';
import { DocumentFiles, type PreviewFile } from './document-files.ts';
import { connectionHandlers } from './handlers/connection.ts';
import type { DesktopServices } from './handlers/desktop-services.ts';
import { documentHandlers } from './handlers/documents.ts';
import { eventHandlers } from './handlers/events.ts';
import { folderHandlers } from './handlers/folders.ts';
import { combineHandlers } from './handlers/handler-set.ts';
import { libraryHandlers } from './handlers/library.ts';
import { settingsHandlers } from './handlers/settings.ts';
import { uploadHandlers } from './handlers/uploads.ts';
import { LibraryCache } from './library/library-cache.ts';
import { DocumentFollower } from './library/document-follower.ts';
import { LibrarySync } from './library/library-sync.ts';
import { Reminders } from './library/reminders.ts';
import { SerialTask } from './serial-task.ts';
import { ChosenFiles } from './uploads/chosen-files.ts';
import { waitForConnection } from './handlers/wait-for-connection.ts';
import type { SettingsStore } from './settings/settings-store.ts';
import { nodeSystemLanguages } from './system-languages.ts';

type Emitted = { [E in EventName]: [EventPayload<E>] };

/**
 * A hosted service is polled for the documents just uploaded or reprocessed: soon, then less often. Each poll costs a
 * request per document (two at most, else one incremental sync of about three), so a minute of following stays
 * around 30 requests, half the spec's 60 per key.
 */
const HOSTED_FOLLOW_POLL = { firstMs: 500, maxMs: 8_000 };

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
  /** The folder folders.browse may list (and nothing outside it); default the user's home. */
  homeDir?: string;
  now?: () => number;
  /**
   * The OS's preferred languages (BCP 47), for texts main builds when the setting ui.language is null (follow the
   * system). Electron: app.getPreferredSystemLanguages(); default: the process's locale environment.
   */
  systemLanguages?: () => readonly string[];
}

/**
 * The composition root of the desktop: the DesktopApi contract, implemented by the features' handlers
 * (./handlers/) over the core services built here. The shells (Electron IPC, the browser shell's WebSocket) parse
 * each call's input with the contract's schema and then call `handlers[name](input)`; they forward the events
 * emitted here. Nothing here returns an API key or a signed URL.
 */
export class DesktopApp extends EventEmitter<Emitted> {
  readonly handlers: DesktopHandlers;
  private current: DesktopCore;
  private sync: LibrarySync;
  /** Follows documents to a final state: the embedded service's pushes, or polls of a hosted one. */
  private follower: DocumentFollower;
  private readonly cache: LibraryCache;
  private readonly reminders: Reminders;
  private readonly files: DocumentFiles;
  /** Copies of files chosen in the browser shell's page, waiting for their upload (its upload route fills it). */
  readonly chosenFiles: ChosenFiles;
  private readonly options: DesktopAppOptions;
  private readonly settings: SettingsStore;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private stopSettings: (() => void) | undefined;
  /** Rebuilds of the core, one at a time; stop() waits for the one in progress. */
  private readonly reconnects: SerialTask;
  /** False while the core is being replaced, and after a rebuild that failed (connectionError says why). */
  private coreUp = true;
  private connectionError: string | null = null;
  private stopping: Promise<void> | undefined;

  /** Opens the library cache, then the core on it; a core that fails to open leaves the cache closed. */
  static async open(options: DesktopAppOptions): Promise<DesktopApp> {
    await mkdir(options.appDataDir, { recursive: true });
    const cache = LibraryCache.open(join(options.appDataDir, 'library.sqlite'), options.log);
    let core: DesktopCore;
    try {
      core = await DesktopCore.open({ ...options, settings: options.settings });
    } catch (error) {
      cache.close();
      throw error;
    }
    return new DesktopApp(options, cache, core);
  }

  private constructor(options: DesktopAppOptions, cache: LibraryCache, core: DesktopCore) {
    super();
    this.options = options;
    this.settings = options.settings;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
    this.cache = cache;
    this.current = core;
    this.reminders = new Reminders({
      cache,
      settings: () => this.settings.get().reminders,
      now: this.now,
      log: this.log,
      locale: () => this.locale(),
      notify: (notification) => this.emit('notification', notification),
    });
    this.files = new DocumentFiles({ appDataDir: options.appDataDir, cache, client: () => this.current.client });
    this.chosenFiles = new ChosenFiles(join(options.appDataDir, 'chosen-files'));
    this.sync = this.attach(core);
    this.follower = this.followerOf(core, this.sync);
    this.reconnects = new SerialTask(
      () => this.reconnect(),
      (error) => {
        this.connectionError = errorMessage(error);
        this.log(`connection: ${this.connectionError}`);
        this.emitStatus();
      },
    );
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
  get core(): DesktopCore {
    return this.current;
  }

  async start(): Promise<void> {
    await this.current.start();
    await this.sweepChosenFiles();
    this.sync.start();
    this.reminders.start();
    this.stopSettings = this.settings.onChange((next, previous) => {
      if (!this.options.connection && JSON.stringify(next.connection) !== JSON.stringify(previous.connection))
        void this.reconnects.request();
      if (next.sync !== previous.sync)
        this.sync.configure({
          intervalMs: next.sync.interval_ms,
          fullReconcileIntervalMs: next.sync.full_reconcile_interval_ms,
        });
      if (next.reminders !== previous.reminders) this.reminders.checkSafely();
      this.emitStatus();
    });
    this.emitStatus();
  }

  /** Stops once (a second call joins the first), after a reconnect in progress: nothing is closed twice or started after. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    this.stopSettings?.();
    await this.reconnects.close();
    this.reminders.stop();
    await this.follower.stop();
    await this.sync.stop();
    await this.stopCore();
    this.cache.close();
  }

  /** The power monitor's resume: missed reminders fire as one summary, the library catches up. */
  wake(): void {
    this.reminders.wake();
    this.syncSoon();
  }

  /** A cached copy of a document's file for the preview protocol (downloaded once through a signed URL). */
  previewFile(id: string): Promise<PreviewFile> {
    return this.files.previewFile(id);
  }

  /**
   * What the shells put in index.html for the library's first paint (main/core/shell/first-paint.ts): the last
   * snapshot, none once the app is stopping (the cache closes), and the settings' values the first frame needs.
   */
  firstPaint(): { snapshot: FirstPaintSnapshot | null; ui: FirstPaintUi } {
    const { appearance, language, onboarded, library_view } = this.settings.get().ui;
    return {
      snapshot: this.stopping ? null : this.cache.firstPaint(),
      ui: { appearance, language, onboarded, library_view },
    };
  }

  /**
   * What status.get answers. `online` is the client's connection monitor (through the journal): the outcome of the
   * newest request to the service, whoever sent it, with a light probe while nothing else talks to it.
   */
  status(): CallOutput<'status.get'> {
    const sync = this.sync.status();
    if (!this.coreUp) return this.statusWithoutCore(sync.lastSyncAt);
    const core = this.current.status();
    return {
      mode: core.mode,
      base_url: core.baseUrl,
      online: core.online,
      auth_required: core.authRequired,
      uploads_paused: core.paused,
      reason: core.reason,
      key_storage: core.keyStorage,
      key_warning: core.keyWarning,
      settings_problems: this.settings.problems.map((p) => p.message),
      last_sync_at: sync.lastSyncAt === null ? null : new Date(sync.lastSyncAt).toISOString(),
      due_count: this.reminders.dueCount(),
      archive_dir: this.current.local?.dataDir ?? null,
    };
  }

  /** While the core is replaced, or after it failed to start: offline, and why. */
  private statusWithoutCore(lastSyncAt: number | null): CallOutput<'status.get'> {
    const settings = this.settings.get();
    const connection = this.options.connection ?? settings.connection;
    return {
      mode: connection.mode,
      base_url: connection.mode === 'hosted' ? connection.base_url : '',
      online: false,
      auth_required: false,
      uploads_paused: settings.uploads.paused,
      reason: this.connectionError === null ? 'Connecting to the service…' : `Cannot connect: ${this.connectionError}`,
      key_storage: this.current.keys.kind,
      key_warning: this.current.keyWarning,
      settings_problems: this.settings.problems.map((p) => p.message),
      last_sync_at: lastSyncAt === null ? null : new Date(lastSyncAt).toISOString(),
      due_count: this.reminders.dueCount(),
      archive_dir: null,
    };
  }

  /** The running core; a clear error while there is none (a reconnect failed), not a closed database's. */
  private liveCore(): DesktopCore {
    if (!this.coreUp)
      throw new Error(
        `Not connected to the archive service${this.connectionError === null ? '' : `: ${this.connectionError}`}. Check the connection in Settings.`,
      );
    return this.current;
  }

  /** Resolves when the core follows the connection settings; a rebuild that failed is tried again first. */
  private connectionReady(): Promise<void> {
    if (!this.coreUp && this.connectionError !== null && this.reconnects.idle && this.stopping === undefined)
      return this.reconnects.request();
    return this.reconnects.settled();
  }

  // ---- wiring -----------------------------------------------------------------------------------------------------

  /** A library sync over the core's client, and the core's events forwarded as the contract's. */
  private attach(core: DesktopCore): LibrarySync {
    const sync = new LibrarySync({
      client: core.client,
      cache: this.cache,
      log: this.log,
      now: this.now,
      intervalMs: this.settings.get().sync.interval_ms,
      fullReconcileIntervalMs: this.settings.get().sync.full_reconcile_interval_ms,
    });
    const journal = core.journal;
    journal.on('item', (item) => {
      this.emit('uploads.item', item);
      if (item.state === 'failed' && this.settings.get().ui.notify_failed_uploads) {
        this.emit('notification', {
          id: `upload-failed:${item.id}:${item.updated_at}`,
          kind: 'upload-failed',
          eventIds: [],
          uploadId: item.id,
          title: translate(this.locale(), 'notification.uploadFailed', { file: item.file_name }),
          body: item.last_error ?? translate(this.locale(), 'notification.uploadRefused'),
        } satisfies DesktopNotification);
      }
      if (item.state === 'done') {
        void this.chosenFiles
          .discard(item.path)
          .catch((error: unknown) => this.log(`chosen files: ${errorMessage(error)}`));
        this.syncSoon();
        if (item.document_id) this.follower.follow([item.document_id]);
      }
    });
    journal.on('removed', (id) => this.emit('uploads.removed', { id }));
    journal.on('progress', (progress) => this.emit('uploads.progress', progress));
    journal.on('counts', (counts) => this.emit('uploads.counts', counts));
    journal.on('connectivity', () => this.emitStatus());
    core.folders.on('status', (status) => this.emit('folders.status', status));
    core.client.on('auth-required', () => this.emitStatus());
    // Back online (whatever request found it): the library catches up now, not at its next interval.
    core.client.connection.on('change', (connection) => {
      if (connection.online) this.syncSoon();
    });
    sync.on('changed', (change) => {
      this.emit('library.changed', { document_ids: change.documents, event_ids: change.events });
      if (change.events.length > 0) {
        this.reminders.checkSafely();
        // The due count is part of the status (the sidebar's badge, the tray): a followed document's new event must
        // not wait for the next full sync to be counted.
        this.emitStatus();
      }
    });
    sync.on('synced', () => this.emitStatus());
    return sync;
  }

  /** The embedded service tells its status changes (same process); a hosted one is polled. */
  private followerOf(core: DesktopCore, sync: LibrarySync): DocumentFollower {
    const follower = new DocumentFollower({
      refresh: (ids) => sync.refreshDocuments(ids),
      poll: core.local ? null : HOSTED_FOLLOW_POLL,
      log: this.log,
    });
    core.local?.service.processor.onStatusChange((id) => follower.changed([id]));
    return follower;
  }

  /** The connection settings changed (local ↔ hosted, another URL): rebuild the core on the same journal and cache. */
  private async reconnect(): Promise<void> {
    this.log('connection changed: reconnecting');
    await this.follower.stop();
    await this.sync.stop();
    this.sync.removeAllListeners();
    await this.stopCore();
    this.connectionError = null;
    this.emitStatus();
    this.cache.clear();
    const core = await DesktopCore.open({ ...this.options, settings: this.settings });
    const sync = this.attach(core);
    try {
      await core.start();
    } catch (error) {
      sync.removeAllListeners();
      await core
        .stop()
        .catch((stopError: unknown) =>
          this.log(`connection: stopping a core that failed to start: ${errorMessage(stopError)}`),
        );
      throw error;
    }
    this.current = core;
    this.sync = sync;
    this.follower = this.followerOf(core, sync);
    this.coreUp = true;
    this.sync.start();
    this.emitStatus();
  }

  /** Stops the running core, once: a failed stop is logged, and the core counts as stopped either way. */
  private async stopCore(): Promise<void> {
    if (!this.coreUp) return;
    this.coreUp = false;
    await this.current
      .stop()
      .catch((error: unknown) => this.log(`connection: stopping the core: ${errorMessage(error)}`));
  }

  private emitStatus(): void {
    this.emit('status.changed', this.status());
  }

  /** Copies of chosen files whose upload is done, or whose queue item was removed, are deleted. */
  private async sweepChosenFiles(): Promise<void> {
    const needed = new Set<string>();
    const states = UPLOAD_ITEM_STATES.filter((state) => state !== 'done');
    let total = 1;
    for (let offset = 0; offset < total; offset += 500) {
      const page = this.current.journal.list({ states, limit: 500, offset });
      for (const item of page.items) needed.add(item.path);
      total = page.total;
    }
    const removed = await this.chosenFiles.sweep(needed);
    if (removed > 0) this.log(`chosen files: ${removed} copies no longer needed deleted`);
  }

  /** The library catches up in the background; a failed sync shows in the status, not in the caller. */
  private syncSoon(): void {
    void this.sync.syncNow().catch(() => undefined);
  }

  /** Every channel of the contract, each handled by exactly one feature (combineHandlers checks it). */
  private createHandlers(): DesktopHandlers {
    const services: DesktopServices = {
      settings: this.settings,
      cache: this.cache,
      reminders: this.reminders,
      files: this.files,
      now: this.now,
      core: () => this.liveCore(),
      sync: () => this.sync,
      follow: (ids) => this.follower.follow(ids),
      connectionReady: () => this.connectionReady(),
      syncSoon: () => this.syncSoon(),
      switchKeyStorage: async (storage) => {
        await this.liveCore().switchKeyStorage(storage, {
          filePath: keyFilePath(this.options.appDataDir),
          log: this.log,
          ...(this.options.keychain ? { keychain: this.options.keychain } : {}),
        });
      },
      libraryChanged: (change) => this.emit('library.changed', change),
      status: () => this.status(),
      emitStatus: () => this.emitStatus(),
      previewUrl: this.options.previewUrl,
      openPath: this.options.openPath,
      pickFolder: this.options.pickFolder,
      homeDir: this.options.homeDir ?? homedir(),
    };
    const handlers = combineHandlers({
      connection: connectionHandlers(services),
      settings: settingsHandlers(services),
      library: libraryHandlers(services),
      documents: documentHandlers(services),
      events: eventHandlers(services),
      uploads: uploadHandlers(services),
      folders: folderHandlers(services),
    });
    // A call during a reconnect waits for the new core instead of running on the one being stopped.
    return waitForConnection(handlers, () => this.reconnects.settled());
  }
}
