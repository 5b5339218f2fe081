import type { CallOutput, EventPayload } from '../../../common/ipc.ts';
import type { KeyStorage } from '../../../common/settings.ts';
import type { DesktopCore } from '../desktop-core.ts';
import type { DocumentFiles } from '../document-files.ts';
import type { LibraryCache } from '../library/library-cache.ts';
import type { LibrarySync } from '../library/library-sync.ts';
import type { Reminders } from '../library/reminders.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

/**
 * What the DesktopApi handlers work with, built by the composition root (desktop-app.ts). Each feature's handlers
 * take the part they need. The core and the library sync are replaced when the connection settings change, so they
 * are functions, asked on every call.
 */
export interface DesktopServices {
  settings: SettingsStore;
  cache: LibraryCache;
  reminders: Reminders;
  files: DocumentFiles;
  now: () => number;
  core: () => DesktopCore;
  sync: () => LibrarySync;
  /** Documents just sent for processing (a reprocess): the library follows them until they are final. */
  follow: (ids: readonly string[]) => void;
  /**
   * Resolves when the core follows the connection settings (after a reconnect in progress; a reconnect that failed is
   * tried again first). A failure shows in the status, not here.
   */
  connectionReady: () => Promise<void>;
  /** Settings → Key storage: moves the key into the chosen store before the setting is saved; refuses what cannot work. */
  switchKeyStorage: (storage: KeyStorage) => Promise<void>;
  /** Asks the library to catch up now, in the background: a failed sync shows in its status, not in the caller. */
  syncSoon: () => void;
  /** Tells the shells that documents or events changed here, before the next sync would. */
  libraryChanged: (change: EventPayload<'library.changed'>) => void;
  /** What status.get answers. */
  status: () => CallOutput<'status.get'>;
  /** Sends status.changed with the current status. */
  emitStatus: () => void;
  /** The shell's URL for a document's bytes (its preview protocol or route). */
  previewUrl: (documentId: string) => string;
  /** The system's opener for a file; absent where the shell has none. */
  openPath: ((path: string) => Promise<void>) | undefined;
  /** The system's folder picker (null when cancelled); absent where the shell has none. */
  pickFolder: ((title?: string) => Promise<string | null>) | undefined;
  /** What folders.browse may list: this folder and what lies below it. */
  homeDir: string;
}
