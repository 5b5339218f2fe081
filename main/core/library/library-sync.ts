import { EventEmitter } from 'node:events';
import type { ArchiveDocument, ArchiveEvent, ListEnvelope } from '../../../common/archive-types.ts';
import { asError } from '../../../common/errors.ts';
import type { DocumentListQuery } from '../client/archive-client.ts';
import { ArchiveError } from '../client/archive-error.ts';
import type { LibraryCache } from './library-cache.ts';
import { Pass } from './sync-pass.ts';
import {
  isUnknownParameter,
  keysetDocuments,
  maxIso,
  minIso,
  pageAll,
  shiftIso,
  UnsupportedExtension,
  type LibraryClient,
} from './sync-paging.ts';
import type { LibrarySyncEvents, LibrarySyncOptions, SyncResult, SyncStatus } from './sync-types.ts';

export type { LibraryClient } from './sync-paging.ts';
export type { LibrarySyncEvents, LibrarySyncOptions, SyncChange, SyncResult, SyncStatus } from './sync-types.ts';

/** More documents changed than this in spec mode: reading every event is cheaper than asking per document. */
const PER_DOCUMENT_EVENTS_LIMIT = 20;
const PENDING_RECHECK_BATCH = 5;
/** Following more documents than this, one incremental sync costs fewer requests than asking for each. */
const REFRESH_BY_ID_LIMIT = 2;
const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'skipped']);

/**
 * Keeps the library cache in step with the service. Incremental syncs ask only for what changed since the cursors;
 * a periodic full reconciliation lists everything and notices what the service no longer shows; documents still
 * pending or processing are followed up sooner. With a service that implements only the v1 spec (no
 * `updated_after`, no `deleted` list) it falls back to `created_after` for new documents and a scan of
 * `sort_by=updated_at` for changes.
 */
export class LibrarySync extends EventEmitter<LibrarySyncEvents> {
  private readonly client: LibraryClient;
  private readonly cache: LibraryCache;
  private intervalMs: number;
  private fullReconcileIntervalMs: number;
  private readonly followUpIntervalMs: number;
  private readonly pendingRecheckMs: number;
  private readonly pageSize: number;
  private readonly overlapMs: number;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  /** null until the service showed whether it has the extensions. */
  private extended: boolean | null = null;
  private current: { kind: Pass['kind']; promise: Promise<SyncResult> } | undefined;
  private abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastError: Error | null = null;
  private readonly refreshing = new Set<Promise<unknown>>();

  constructor(options: LibrarySyncOptions) {
    super();
    this.client = options.client;
    this.cache = options.cache;
    this.intervalMs = options.intervalMs;
    this.fullReconcileIntervalMs = options.fullReconcileIntervalMs;
    this.followUpIntervalMs = options.followUpIntervalMs ?? 15_000;
    this.pendingRecheckMs = options.pendingRecheckMs ?? 120_000;
    this.pageSize = options.pageSize ?? 100;
    this.overlapMs = options.overlapMs ?? 2_000;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
  }

  status(): SyncStatus {
    const cursors = this.cache.cursors();
    return {
      syncing: this.current !== undefined,
      lastSyncAt: cursors.lastSyncAt,
      lastFullReconcileAt: cursors.lastFullReconcileAt,
      lastError: this.lastError?.message ?? null,
      mode: this.extended === false ? 'spec' : 'extended',
    };
  }

  /** New intervals (the settings changed); a waiting timer is re-armed with them. */
  configure(options: { intervalMs?: number; fullReconcileIntervalMs?: number }): void {
    this.intervalMs = options.intervalMs ?? this.intervalMs;
    this.fullReconcileIntervalMs = options.fullReconcileIntervalMs ?? this.fullReconcileIntervalMs;
    if (this.running && this.timer && !this.current) this.schedule(this.nextDelay());
  }

  /** Syncs at once, then every interval (sooner while documents are unfinished). Failures are reported, never thrown. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops the timer and cancels a sync in flight (the cache stays consistent: every page is its own transaction). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort(new ArchiveError('Library sync stopped', { kind: 'aborted' }));
    await Promise.allSettled([this.current?.promise, ...this.refreshing]);
    this.abort = new AbortController();
  }

  /**
   * One sync now: full when asked or when the last reconciliation is older than its interval (or never happened),
   * else incremental. A sync already running is joined instead of started twice.
   */
  syncNow(options: { full?: boolean } = {}): Promise<SyncResult> {
    if (this.current) {
      if (!options.full || this.current.kind === 'full') return this.current.promise;
      return this.current.promise.catch(() => undefined).then(() => this.syncNow(options));
    }
    const last = this.cache.cursors().lastFullReconcileAt;
    const kind =
      options.full || last === null || this.now() - last >= this.fullReconcileIntervalMs ? 'full' : 'incremental';
    const promise = this.run(kind).finally(() => {
      this.current = undefined;
    });
    this.current = { kind, promise };
    return promise;
  }

  /**
   * Brings these documents up to date now (a few by id, more through an incremental sync), with the events of those
   * that reached a final state; answers the ids still pending or processing. For following documents just sent.
   */
  async refreshDocuments(ids: readonly string[]): Promise<string[]> {
    const work = this.refreshNow(ids);
    this.refreshing.add(work);
    try {
      return await work;
    } finally {
      this.refreshing.delete(work);
    }
  }

  private async refreshNow(ids: readonly string[]): Promise<string[]> {
    if (ids.length > REFRESH_BY_ID_LIMIT) {
      await this.syncNow();
    } else {
      const pass = new Pass('incremental', this.now());
      const signal = this.abort.signal;
      for (const id of ids) await this.refreshDocument(pass, id, signal);
      const final = ids.filter((id) => FINAL_STATUSES.has(this.cache.getDocument(id)?.status ?? ''));
      await this.eventsOfDocuments(pass, final, signal);
    }
    return ids.filter((id) => {
      const status = this.cache.getDocument(id)?.status;
      return status !== undefined && !FINAL_STATUSES.has(status);
    });
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    try {
      await this.syncNow();
    } catch {
      // Reported through 'error' by run(); the next tick tries again.
    }
    if (this.running) this.schedule(this.nextDelay());
  }

  private nextDelay(): number {
    return this.cache.hasUnfinished() ? Math.min(this.followUpIntervalMs, this.intervalMs) : this.intervalMs;
  }

  private async run(kind: Pass['kind']): Promise<SyncResult> {
    const pass = new Pass(kind, this.now());
    const signal = this.abort.signal;
    try {
      if (kind === 'full') await this.fullReconcile(pass, signal);
      else await this.incremental(pass, signal);
    } catch (error) {
      const failure = asError(error);
      if (!(failure instanceof ArchiveError && failure.kind === 'aborted')) {
        this.lastError = failure;
        this.log(`library sync (${kind}) failed: ${failure.message}`);
        if (this.listenerCount('error') > 0) this.emit('error', failure);
      }
      throw failure;
    }
    this.lastError = null;
    const finishedAt = this.now();
    this.cache.setCursors({ lastSyncAt: finishedAt });
    const result: SyncResult = {
      kind,
      mode: this.extended === false ? 'spec' : 'extended',
      documents: { changed: [...pass.docsChanged], removed: [...pass.docsRemoved] },
      events: { changed: [...pass.eventsChanged], removed: [...pass.eventsRemoved] },
      startedAt: pass.startedAt,
      finishedAt,
    };
    const total = pass.docsChanged.size + pass.docsRemoved.size + pass.eventsChanged.size + pass.eventsRemoved.size;
    if (total > 0 || kind === 'full') {
      this.log(
        `library sync (${kind}, ${result.mode}): ${pass.docsChanged.size} documents changed, ${pass.docsRemoved.size} removed; ` +
          `${pass.eventsChanged.size} events changed, ${pass.eventsRemoved.size} removed`,
      );
    }
    this.emit('synced', result);
    return result;
  }

  // ---- incremental ---------------------------------------------------------------------------------------------

  private async incremental(pass: Pass, signal: AbortSignal): Promise<void> {
    const cursors = this.cache.cursors();
    if (this.extended !== false) {
      try {
        await this.documentsSince(pass, cursors.documentsUpdated, signal);
        await this.followUpUnfinished(pass, signal);
        await this.eventsSince(pass, cursors.eventsUpdated, signal);
        await this.eventsOfDocuments(pass, [...pass.restored], signal);
        this.extended = true;
        this.cache.setCursors({ documentsCreated: maxIso(cursors.documentsCreated, pass.maxCreated) });
        return;
      } catch (error) {
        if (!(error instanceof UnsupportedExtension)) throw error;
        this.extended = false;
        this.log(`library sync: ${error.message}; using the v1 spec's created_after and sort_by=updated_at instead`);
      }
    }
    await this.newDocuments(pass, cursors.documentsCreated, signal);
    await this.scanChanges(pass, cursors.documentsUpdated, signal);
    await this.followUpUnfinished(pass, signal);
    await this.eventsOfDocuments(pass, [...pass.docsChanged], signal);
    this.cache.setCursors({
      documentsCreated: maxIso(cursors.documentsCreated, pass.maxCreated),
      documentsUpdated: maxIso(cursors.documentsUpdated, pass.maxUpdated),
    });
  }

  /** Extended: everything updated after the cursor, live and deleted (a deletion bumps updated_at). */
  private async documentsSince(pass: Pass, cursor: string | null, signal: AbortSignal): Promise<void> {
    const start = cursor === null ? null : shiftIso(cursor, -this.overlapMs);
    for (const deleted of [false, true]) {
      await keysetDocuments(this.client, {
        field: 'updated_at',
        start,
        extra: deleted ? { deleted: true } : {},
        pageSize: this.pageSize,
        signal,
        onPage: (items) => {
          if (deleted && items.some((d) => !d.deleted_at)) throw new UnsupportedExtension('deleted');
          this.storeDocuments(pass, items);
        },
      });
    }
    this.cache.setCursors({ documentsUpdated: maxIso(cursor, pass.maxUpdated) });
  }

  /** Spec: documents created after the cursor (the spec's own parameter "meant for incremental syncs"). */
  private async newDocuments(pass: Pass, cursor: string | null, signal: AbortSignal): Promise<void> {
    await keysetDocuments(this.client, {
      field: 'created_at',
      start: cursor === null ? null : shiftIso(cursor, -this.overlapMs),
      pageSize: this.pageSize,
      signal,
      onPage: (items) => this.storeDocuments(pass, items),
    });
  }

  /**
   * Spec: the newest changes first (sort_by=updated_at, desc) down to the cursor. A document changed during the scan
   * moves to the front, which only repeats a row; whatever it pushed out of view has a newer updated_at than the cursor
   * this scan leaves behind.
   */
  private async scanChanges(pass: Pass, cursor: string | null, signal: AbortSignal): Promise<void> {
    if (cursor === null) return; // nothing was ever listed: newDocuments brought everything there is
    const floor = Date.parse(cursor) - this.overlapMs;
    for (let offset = 0; ;) {
      const page = await this.client.listDocuments(
        { sort_by: 'updated_at', sort_order: 'desc', limit: this.pageSize, offset },
        signal,
      );
      this.storeDocuments(
        pass,
        page.items.filter((d) => Date.parse(d.updated_at) > floor),
      );
      const last = page.items.at(-1);
      if (page.items.length < this.pageSize || !last || Date.parse(last.updated_at) <= floor) return;
      offset += page.items.length;
    }
  }

  /** Extended: events updated after the cursor. Their list has no cursor order, so it is re-read if it moved meanwhile. */
  private async eventsSince(pass: Pass, cursor: string | null, signal: AbortSignal): Promise<void> {
    const after = cursor === null ? undefined : shiftIso(cursor, -this.overlapMs);
    let max = cursor;
    for (let attempt = 1; ; attempt++) {
      const ids = new Set<string>();
      const { firstTotal, lastTotal } = await pageAll(
        (offset) =>
          this.client
            .listEvents({ updated_after: after, limit: this.pageSize, offset }, signal)
            .catch((error: unknown) => {
              throw isUnknownParameter(error, 'updated_after') ? new UnsupportedExtension('updated_after') : error;
            }),
        this.pageSize,
        (items) => {
          if (after !== undefined && items.some((e) => Date.parse(e.updated_at) <= Date.parse(after)))
            throw new UnsupportedExtension('updated_after');
          for (const e of items) ids.add(e.id);
          this.storeEvents(pass, items);
          max = maxIso(max, ...items.map((e) => e.updated_at));
        },
      );
      if (firstTotal === lastTotal && ids.size >= lastTotal) break;
      // Still moving after three readings: keep the old cursor, so the next sync reads this stretch again.
      if (attempt >= 3) return;
    }
    this.cache.setCursors({ eventsUpdated: max });
  }

  /** The events of particular documents: restored ones (events come back with them) and, in spec mode, changed ones. */
  private async eventsOfDocuments(pass: Pass, documentIds: string[], signal: AbortSignal): Promise<void> {
    const live = documentIds.filter((id) => !this.cache.isDeleted(id) && this.cache.getDocument(id) !== null);
    if (live.length === 0) return;
    if (live.length > PER_DOCUMENT_EVENTS_LIMIT) {
      await pageAll(
        (offset) => this.client.listEvents({ limit: this.pageSize, offset }, signal),
        this.pageSize,
        (items) => this.storeEvents(pass, items),
      );
      return;
    }
    for (const documentId of live) {
      const seen = new Set<string>();
      await pageAll(
        (offset) => this.client.listEvents({ document_id: documentId, limit: this.pageSize, offset }, signal),
        this.pageSize,
        (items) => {
          for (const e of items) seen.add(e.id);
          this.storeEvents(pass, items);
        },
      );
      const gone = this.cache.eventIdsOfDocument(documentId).filter((id) => !seen.has(id));
      this.removeEvents(pass, gone);
    }
  }

  /** Unfinished documents nothing was heard about for a while are asked for by id (a few per sync). */
  private async followUpUnfinished(pass: Pass, signal: AbortSignal): Promise<void> {
    for (const id of this.cache.unfinishedDocuments(this.now() - this.pendingRecheckMs, PENDING_RECHECK_BATCH)) {
      if (pass.docsChanged.has(id)) continue;
      await this.refreshDocument(pass, id, signal);
    }
  }

  // ---- full reconciliation -------------------------------------------------------------------------------------

  private async fullReconcile(pass: Pass, signal: AbortSignal): Promise<void> {
    // The newest change before the listing starts (live or deleted): the next incremental sync resumes there, so
    // whatever changes while the listing runs (rows already read, rows moved by it) is fetched again.
    const top = await this.client.listDocuments({ sort_by: 'updated_at', sort_order: 'desc', limit: 1 }, signal);
    let newest = top.items[0]?.updated_at ?? null;
    if (this.extended !== false) {
      try {
        const trashTop = await this.listTrash({ sort_by: 'updated_at', sort_order: 'desc', limit: 1 }, signal);
        newest = maxIso(newest, trashTop.items[0]?.updated_at);
      } catch (error) {
        if (!(error instanceof UnsupportedExtension)) throw error;
        this.extended = false;
        this.log(`library sync: ${error.message}; deletions are noticed by full reconciliation only`);
      }
    }

    const listed = new Set<string>();
    const keep = (items: ArchiveDocument[]) => {
      for (const d of items) listed.add(d.id);
      this.storeDocuments(pass, items);
    };
    await pageAll(
      (offset) =>
        this.client.listDocuments({ sort_by: 'created_at', sort_order: 'asc', limit: this.pageSize, offset }, signal),
      this.pageSize,
      keep,
    );
    const trashListed = this.extended !== false;
    if (trashListed) {
      await pageAll(
        (offset) => this.listTrash({ sort_by: 'created_at', sort_order: 'asc', limit: this.pageSize, offset }, signal),
        this.pageSize,
        keep,
      );
    }
    // Not in any list: deleted, gone, out of this key's reach, or moved between pages while the lists were read.
    // Asking by id tells these apart, so nothing is dropped for a paging accident.
    // Without a trash list (spec mode) a document known deleted stays as it is: asking for each one every hour would
    // spend the rate limit on the trash.
    const missing = [...this.cache.documentIds()].filter(
      (id) => !listed.has(id) && (trashListed || !this.cache.isDeleted(id)),
    );
    for (const id of missing) await this.refreshDocument(pass, id, signal);

    const seenEvents = new Set<string>();
    let newestEvent: string | null = null;
    await pageAll(
      (offset) => this.client.listEvents({ limit: this.pageSize, offset }, signal),
      this.pageSize,
      (items) => {
        for (const e of items) seenEvents.add(e.id);
        this.storeEvents(pass, items);
        newestEvent = maxIso(newestEvent, ...items.map((e) => e.updated_at));
      },
    );
    for (const [id, documentId] of this.cache.eventDocuments()) {
      // Events of a deleted document are hidden by the service and by the cache alike; kept for a restore.
      if (seenEvents.has(id) || this.cache.isDeleted(documentId)) continue;
      await this.refreshEvent(pass, id, signal);
    }

    const before = this.cache.cursors();
    this.cache.setCursors({
      documentsUpdated: newest ?? before.documentsUpdated,
      documentsCreated: maxIso(before.documentsCreated, pass.maxCreated),
      // The events list has no cursor order: resume from the older of the document snapshot and the newest event.
      eventsUpdated: minIso(newest, newestEvent),
      lastFullReconcileAt: pass.startedAt,
    });
  }

  /** The trash list (an extension of this service); a service without it refuses the parameter or ignores it. */
  private async listTrash(query: DocumentListQuery, signal: AbortSignal): Promise<ListEnvelope<ArchiveDocument>> {
    const page = await this.client.listDocuments({ ...query, deleted: true }, signal).catch((error: unknown) => {
      throw isUnknownParameter(error, 'deleted') ? new UnsupportedExtension('deleted') : error;
    });
    if (page.items.some((d) => !d.deleted_at)) throw new UnsupportedExtension('deleted');
    return page;
  }

  // ---- storing -------------------------------------------------------------------------------------------------

  private async refreshDocument(pass: Pass, id: string, signal: AbortSignal): Promise<void> {
    try {
      const detail = await this.client.getDocument(id, signal);
      this.storeDocuments(pass, [detail]);
    } catch (error) {
      if (!(error instanceof ArchiveError && error.status === 404)) throw error;
      const events = this.cache.removeDocuments([id]);
      pass.docsRemoved.add(id);
      for (const e of events) pass.eventsRemoved.add(e);
      this.emit('changed', { documents: [id], events });
    }
  }

  private async refreshEvent(pass: Pass, id: string, signal: AbortSignal): Promise<void> {
    try {
      this.storeEvents(pass, [await this.client.getEvent(id, signal)]);
    } catch (error) {
      if (!(error instanceof ArchiveError && error.status === 404)) throw error;
      this.removeEvents(pass, [id]);
    }
  }

  private storeDocuments(pass: Pass, documents: ArchiveDocument[]): void {
    if (documents.length === 0) return;
    const { changed, restored } = this.cache.upsertDocuments(documents, this.now());
    for (const d of documents) {
      pass.maxUpdated = maxIso(pass.maxUpdated, d.updated_at);
      pass.maxCreated = maxIso(pass.maxCreated, d.created_at);
    }
    for (const id of changed) pass.docsChanged.add(id);
    for (const id of restored) pass.restored.add(id);
    if (changed.length > 0) this.emit('changed', { documents: changed, events: [] });
  }

  private storeEvents(pass: Pass, events: ArchiveEvent[]): void {
    const changed = this.cache.upsertEvents(events);
    for (const id of changed) pass.eventsChanged.add(id);
    if (changed.length > 0) this.emit('changed', { documents: [], events: changed });
  }

  private removeEvents(pass: Pass, ids: string[]): void {
    if (ids.length === 0) return;
    this.cache.removeEvents(ids);
    for (const id of ids) pass.eventsRemoved.add(id);
    this.emit('changed', { documents: [], events: ids });
  }
}
