/** The library sync's options, results and events: what its users see of it. */
import type { LibraryCache } from './library-cache.ts';
import type { LibraryClient } from './sync-paging.ts';

export interface LibrarySyncOptions {
  client: LibraryClient;
  cache: LibraryCache;
  /** Between incremental syncs (settings.sync.interval_ms). */
  intervalMs: number;
  /** Between full reconciliations, which notice what vanished (settings.sync.full_reconcile_interval_ms). */
  fullReconcileIntervalMs: number;
  /** While documents are pending or processing, the next sync comes this soon (default 15 s). */
  followUpIntervalMs?: number;
  /** An unfinished document the service said nothing about for this long is asked for by id (default 2 min). */
  pendingRecheckMs?: number;
  /** Requests per page (the service allows up to 100). */
  pageSize?: number;
  /** Each incremental sync reaches back this far behind its cursor, for writes committed out of timestamp order. */
  overlapMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

export interface SyncResult {
  kind: 'incremental' | 'full';
  /** `extended`: with this service's updated_after / deleted lists; `spec`: only what the v1 spec names. */
  mode: 'extended' | 'spec';
  documents: { changed: string[]; removed: string[] };
  events: { changed: string[]; removed: string[] };
  startedAt: number;
  finishedAt: number;
}

/** Ids whose cached copy changed or was removed: what the UI should re-read. */
export interface SyncChange {
  documents: string[];
  events: string[];
}

/** Whether the service answers is not the sync's to say: the archive client's connection monitor knows (every request). */
export interface SyncStatus {
  syncing: boolean;
  lastSyncAt: number | null;
  lastFullReconcileAt: number | null;
  lastError: string | null;
  mode: 'extended' | 'spec';
}

export interface LibrarySyncEvents {
  synced: [result: SyncResult];
  changed: [change: SyncChange];
  error: [error: Error];
}
