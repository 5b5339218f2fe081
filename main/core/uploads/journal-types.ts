import type { UploadAccepted } from '../../../common/archive-types.ts';
import type { WatchedFolder } from '../../../common/settings.ts';
import type { UploadRequest } from '../client/archive-client.ts';
import type { BackoffOptions } from '../client/backoff.ts';
import type { ConnectionMonitor } from '../client/connection-monitor.ts';
import type { AfterUploadResult, UploadedFile } from '../watcher/after-upload.ts';
import type { FileCheck } from './file-check.ts';
import type { JournalStore, UploadItem, UploadState } from './journal-store.ts';

/* The upload journal's contract with its owner: what it is given, what it emits. */

/** What the journal needs of the archive client (the real ArchiveClient in the app and in tests). */
export interface UploadTransport {
  upload(request: UploadRequest): Promise<UploadAccepted>;
  health(signal?: AbortSignal): Promise<unknown>;
  /**
   * Verifies a local dedupe hit: is the document the journal remembers still in the archive? Without it, a copy of an
   * already uploaded file is uploaded anyway (the service's duplicate detection makes that harmless).
   */
  getDocument?(id: string, signal?: AbortSignal): Promise<{ deleted_at: string | null }>;
  /**
   * Whether the service answers, fed by every request of the transport (the archive client's monitor). Without it the
   * journal probes `health` on its own and learns nothing from other requests.
   */
  readonly connection?: ConnectionMonitor;
}

export type Connectivity = { online: boolean; authRequired: boolean; paused: boolean; reason: string | null };

export interface JournalEvents {
  item: [item: UploadItem];
  removed: [id: number];
  progress: [progress: { id: number; sent: number; total: number }];
  counts: [counts: Record<UploadState, number>];
  connectivity: [connectivity: Connectivity];
}

export interface UploadJournalOptions {
  store: JournalStore;
  transport: UploadTransport;
  /** The watched folder an item came from (its after-upload action); undefined once the folder was removed. */
  folder: (id: string) => WatchedFolder | undefined;
  afterUpload?: (folder: WatchedFolder, file: UploadedFile) => Promise<AfterUploadResult>;
  check?: (path: string) => Promise<FileCheck>;
  hashConcurrency?: number;
  uploadConcurrency?: number;
  /** Retries of one item after 5xx and the like. */
  retryBackoff?: BackoffOptions;
  paused?: boolean;
  now?: () => number;
  log?: (line: string) => void;
}
