import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../../common/errors.ts';
import type { ConnectionSettings, KeyStorage, Settings, WatchedFolder } from '../../common/settings.ts';
import { ArchiveClient } from './client/archive-client.ts';
import { profileId, type KeyStore } from './keychain/key-store.ts';
import { openKeyStore, type OpenKeyStoreOptions, type ProbedKeyStore } from './keychain/open-key-store.ts';
import { switchKeyStorage } from './keychain/switch-key-storage.ts';
import { localProfile, startLocalArchive, type LocalArchive, type LocalArchiveLimits } from './local-archive.ts';
import type { SettingsStore } from './settings/settings-store.ts';
import { JournalStore } from './uploads/journal-store.ts';
import { UploadJournal } from './uploads/upload-journal.ts';
import { FolderWatcher, type FolderStatus } from './watcher/folder-watcher.ts';
import { WatchedFolders } from './watched-folders.ts';
import type { ConnectionMonitorTimings } from './client/connection-monitor.ts';

/** Per-user directory of the desktop app's own data (journal, library cache, local archive unless configured). */
export function defaultAppDataDir(): string {
  if (process.env.DESKTOP_ARCHIVE_DATA_DIR) return process.env.DESKTOP_ARCHIVE_DATA_DIR;
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Desktop Archive');
    case 'win32':
      return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Desktop Archive');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'desktop-archive');
  }
}

export interface DesktopCoreOptions {
  appDataDir: string;
  settings: SettingsStore;
  /** The key store to use; default: the OS keychain, else the opted-in file, else this session only. */
  keys?: KeyStore;
  /** For tests: the OS keychain to probe and use (default: the real one). */
  keychain?: () => ProbedKeyStore;
  /** A key given from outside (ARCHIVE_API_KEY for the agent); it wins over the stored one and is never stored. */
  apiKeyOverride?: string;
  /** Folders that replace the settings' folders (the agent's --folder flags). */
  folders?: WatchedFolder[];
  /**
   * A connection that replaces the settings' for this run only (the agent's --base-url / --local): never written to
   * the settings file, and a change of the settings' connection does not reconnect while it is given.
   */
  connection?: ConnectionSettings;
  /** For tests and benchmarks: the local archive's limits (the client learns them from the RateLimit headers). */
  localLimits?: LocalArchiveLimits;
  /** For tests: how the connection monitor probes (default: idle probe after 2 s, 2 s timeout). */
  connectionTimings?: Partial<ConnectionMonitorTimings>;
  log?: (line: string) => void;
}

/** The opted-in key file (settings key_storage 'file'), in the app's data directory. */
export function keyFilePath(appDataDir: string): string {
  return join(appDataDir, 'api-keys.json');
}

export interface CoreStatus {
  mode: 'local' | 'hosted';
  baseUrl: string;
  online: boolean;
  authRequired: boolean;
  paused: boolean;
  reason: string | null;
  keyStorage: KeyStore['kind'];
  keyWarning: string | null;
  counts: ReturnType<UploadJournal['counts']>;
  watching: number;
  folders: FolderStatus[];
}

/**
 * Builds the services of the desktop app from the settings and wires them: watcher → journal → client, the local
 * archive in local mode. The Electron shell, the browser shell and the headless agent all start here.
 */
export class DesktopCore {
  readonly client: ArchiveClient;
  readonly journal: UploadJournal;
  readonly watcher: FolderWatcher;
  readonly folders: WatchedFolders;
  /** Replaced when Settings → Key storage changes (switchKeyStorage). */
  keys: KeyStore;
  keyWarning: string | null;
  readonly local: LocalArchive | null;
  private readonly settings: SettingsStore;
  private readonly store: JournalStore;
  private readonly profile: string;
  private readonly fixedFolders: boolean;
  private readonly log: (line: string) => void;
  private readonly mode: ConnectionSettings['mode'];
  private unsubscribe: (() => void) | undefined;

  private constructor(parts: {
    client: ArchiveClient;
    journal: UploadJournal;
    watcher: FolderWatcher;
    folders: WatchedFolders;
    keys: KeyStore;
    keyWarning: string | null;
    local: LocalArchive | null;
    settings: SettingsStore;
    store: JournalStore;
    profile: string;
    fixedFolders: boolean;
    log: (line: string) => void;
    mode: ConnectionSettings['mode'];
  }) {
    this.mode = parts.mode;
    this.client = parts.client;
    this.journal = parts.journal;
    this.watcher = parts.watcher;
    this.folders = parts.folders;
    this.keys = parts.keys;
    this.keyWarning = parts.keyWarning;
    this.local = parts.local;
    this.settings = parts.settings;
    this.store = parts.store;
    this.profile = parts.profile;
    this.fixedFolders = parts.fixedFolders;
    this.log = parts.log;
  }

  static async open(options: DesktopCoreOptions): Promise<DesktopCore> {
    const log = options.log ?? (() => {});
    const settings = options.settings.get();
    await mkdir(options.appDataDir, { recursive: true });
    let keys = options.keys;
    let keyWarning: string | null = null;
    if (!keys) {
      const opened = await openKeyStore({
        storage: settings.key_storage,
        filePath: keyFilePath(options.appDataDir),
        log,
        ...(options.keychain ? { keychain: options.keychain } : {}),
      });
      keys = opened.store;
      keyWarning = opened.warning ?? null;
    }

    let local: LocalArchive | null = null;
    let client: ArchiveClient | undefined;
    let store: JournalStore | undefined;
    try {
      let baseUrl: string;
      let profile: string;
      let apiKey: string | null;
      const connection = options.connection ?? settings.connection;
      if (connection.mode === 'local') {
        const dataDir = connection.data_dir ?? join(options.appDataDir, 'archive');
        local = await startLocalArchive({ dataDir, keys, limits: options.localLimits, log });
        baseUrl = local.url;
        profile = localProfile(dataDir);
        apiKey = options.apiKeyOverride ?? local.apiKey;
      } else {
        baseUrl = connection.base_url;
        profile = profileId(baseUrl);
        apiKey = options.apiKeyOverride ?? (await keys.get(profile));
      }

      // Each piece is built on the ones before it; the core, last, only holds them.
      client = new ArchiveClient({ baseUrl, apiKey, connection: options.connectionTimings });
      store = new JournalStore(join(options.appDataDir, 'journal.sqlite'));
      const folders = new WatchedFolders(options.folders ?? settings.folders);
      const journal = new UploadJournal({
        store,
        transport: client,
        folder: (id) => folders.byId(id),
        paused: settings.uploads.paused,
        log,
      });
      const watcher = new FolderWatcher({
        onFileReady: (file) => journal.addFolderFile(file),
        onFolderStatus: (status) => {
          folders.report(status);
          if (status.state === 'missing' || status.state === 'error')
            log(`folder ${status.path}: ${status.error ?? status.state}`);
        },
        rescanIntervalMs: settings.uploads.rescan_interval_ms,
        log,
      });
      return new DesktopCore({
        client,
        journal,
        watcher,
        folders,
        keys,
        keyWarning,
        local,
        settings: options.settings,
        store,
        profile,
        fixedFolders: options.folders !== undefined,
        log,
        mode: connection.mode,
      });
    } catch (error) {
      // A failed start leaves nothing running: the embedded archive would keep its port and its database open.
      store?.close();
      await client?.close().catch(() => undefined);
      await local
        ?.stop()
        .catch((stopError: unknown) => log(`local archive: stopping after a failed start: ${errorMessage(stopError)}`));
      throw error;
    }
  }

  async start(): Promise<void> {
    await this.journal.start();
    this.client.connection.start();
    this.watcher.setFolders(this.folders.list);
    this.watcher.start();
    if (!this.fixedFolders) {
      this.unsubscribe = this.settings.onChange((next: Settings, previous: Settings) => {
        if (next.folders !== previous.folders) {
          this.folders.replace(next.folders);
          this.watcher.setFolders(next.folders);
        }
        if (next.uploads.paused !== previous.uploads.paused) {
          if (next.uploads.paused) this.journal.pause();
          else this.journal.resume();
        }
      });
    }
    if (!this.client.hasApiKey) this.log('No API key for this service yet: uploads wait until one is set.');
  }

  /** Stops in an order that loses nothing: no new files, then the queue (in-flight uploads go back to waiting). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.watcher.close();
    await this.journal.stop();
    this.store.close();
    await this.client.close();
    await this.local?.stop();
  }

  /** Settings → Key storage: the service's key moves into the chosen store, which keeps it from now on. */
  async switchKeyStorage(storage: KeyStorage, open: Omit<OpenKeyStoreOptions, 'storage'>): Promise<void> {
    const opened = await switchKeyStorage({ ...open, storage, from: this.keys, profile: this.profile });
    this.keys = opened.store;
    this.keyWarning = opened.warning ?? null;
  }

  /** Stores a new key for the current service (keychain) and lets paused work continue. */
  async setApiKey(apiKey: string): Promise<void> {
    await this.keys.set(this.profile, apiKey);
    this.client.setApiKey(apiKey);
    this.journal.authRenewed();
  }

  status(): CoreStatus {
    const connectivity = this.journal.connectivity;
    return {
      mode: this.mode,
      baseUrl: this.client.baseUrl,
      online: connectivity.online,
      // A 401 on any call (a library sync, a follow-up) pauses every call: the key is needed, upload or not.
      authRequired: connectivity.authRequired || !this.client.hasApiKey || this.client.isAuthPaused,
      paused: connectivity.paused,
      reason: connectivity.reason ?? this.client.authPauseReason,
      keyStorage: this.keys.kind,
      keyWarning: this.keyWarning,
      counts: this.journal.counts(),
      watching: this.watcher.pendingCount,
      folders: this.folders.latestStatuses(),
    };
  }
}
