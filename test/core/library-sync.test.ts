import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ArchiveEvent, UploadMetadata } from '../../common/archive-types.ts';
import { ArchiveClient } from '../../main/core/client/archive-client.ts';
import { ArchiveError } from '../../main/core/client/archive-error.ts';
import { CACHE_SORT_COLUMNS, LibraryCache } from '../../main/core/library/library-cache.ts';
import { LibrarySync, type SyncChange } from '../../main/core/library/library-sync.ts';
import { startArchiveService, type RunningArchiveService } from '../../server/archive-service.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.ts';

const FAST_BACKOFF = { baseMs: 10, capMs: 50 };
const ROOMY = { requestsPerWindow: 100_000, uploadsPerWindow: 10_000, windowMs: 60_000 };
const HOUR = 3_600_000;
let dir: string;
let fileNo = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'library-sync-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Uploads a PDF with unique text (identical bytes would be a duplicate); returns the document id. */
async function upload(h: Harness, title: string, metadata: UploadMetadata = {}, spaceId?: string): Promise<string> {
  const bytes = await makePdf(`${title} ${++fileNo} ${crypto.randomUUID()}`);
  const res = await h.upload(
    { bytes, name: `${title.replace(/\W+/g, '_')}.pdf` },
    {
      metadata: { title, ...metadata },
      ...(spaceId ? { space_id: spaceId } : {}),
    },
  );
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

function ids(items: ReadonlyArray<{ id: string }>): string[] {
  return items.map((item) => item.id);
}

async function allServerDocuments(
  client: ArchiveClient,
  query: Parameters<ArchiveClient['listDocuments']>[0] = {},
): Promise<ArchiveDocument[]> {
  const items: ArchiveDocument[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listDocuments({ ...query, limit: 100, offset });
    items.push(...page.items);
    if (page.items.length < 100) return items;
  }
}

async function allServerEvents(client: ArchiveClient): Promise<ArchiveEvent[]> {
  const items: ArchiveEvent[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await client.listEvents({ limit: 100, offset });
    items.push(...page.items);
    if (page.items.length < 100) return items;
  }
}

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('library sync against the real service', () => {
  let h: Harness;
  let proxy: FaultProxy;
  let client: ArchiveClient;
  let key: string;
  let cache: LibraryCache;
  let sync: LibrarySync;
  const changes: SyncChange[] = [];
  const docs = {} as Record<'power' | 'phone' | 'hosting' | 'lease' | 'note' | 'water' | 'elsewhere', string>;

  beforeAll(async () => {
    h = await startHarness({ limits: ROOMY });
    proxy = await startFaultProxy(h.url);
    key = await h.createKey({ name: 'library sync' });
    client = new ArchiveClient({ baseUrl: proxy.url, apiKey: key, backoff: FAST_BACKOFF, limits: ROOMY });
    cache = new LibraryCache(join(dir, 'library.sqlite'));
    // Pages of two make every list path page, with a handful of documents.
    sync = new LibrarySync({ client, cache, intervalMs: HOUR, fullReconcileIntervalMs: HOUR, pageSize: 2 });
    sync.on('changed', (change) => changes.push(change));
  });
  afterAll(async () => {
    await sync.stop();
    cache.close();
    await client.close();
    await proxy.close();
    await h.close();
  });

  it("the first sync is a full one and fills the cache: documents, trash, events, in the service's orders", async () => {
    docs.power = await upload(h, 'Stadtwerke Dezember', {
      event_type: 'invoice',
      amount: { value: 120.5, currency: 'EUR' },
      due_date: '2030-12-17',
      tags: ['Strom'],
      category: 'Utilities',
    });
    docs.phone = await upload(h, 'Telefon', {
      event_type: 'invoice',
      amount: { value: 39.99, currency: 'EUR' },
      due_date: '2030-12-20',
    });
    docs.hosting = await upload(h, 'hosting', {
      event_type: 'invoice',
      amount: { value: 80, currency: 'USD' },
      due_date: '2030-12-30',
    });
    docs.lease = await upload(h, 'Mietvertrag', { event_type: 'contract', due_date: '2035-01-31' });
    docs.note = await upload(h, 'Notiz');
    await h.service.processor.idle();
    await client.deleteDocument(docs.note);
    expect(cache.listDocuments().total).toBe(0);

    const result = await sync.syncNow();
    expect(result).toMatchObject({ kind: 'full', mode: 'extended' });
    expect(result.documents.changed.sort()).toEqual(Object.values(docs).sort());
    expect(changes.flatMap((c) => c.documents).sort()).toEqual(Object.values(docs).sort());

    for (const sort_by of ['created_at', 'updated_at', 'title', 'document_date'] as const) {
      for (const sort_order of ['asc', 'desc'] as const) {
        const server = await allServerDocuments(client, { sort_by, sort_order });
        expect(ids(cache.listDocuments({ sort_by, sort_order, limit: 100 }).items), `${sort_by} ${sort_order}`).toEqual(
          ids(server),
        );
      }
    }
    const live = await allServerDocuments(client);
    for (const doc of live) expect(cache.getDocument(doc.id)).toEqual(doc);
    expect(ids(cache.listDocuments({ deleted: true }).items)).toEqual([docs.note]);
    expect(cache.getDocument(docs.note)?.deleted_at).not.toBeNull();
    expect(ids(cache.listEvents({ limit: 100 }).items)).toEqual(ids(await allServerEvents(client)));

    // The UI's filters and paging, offline.
    expect(ids(cache.listDocuments({ tags: ['strom'] }).items)).toEqual([docs.power]);
    const utilities = cache.getDocument(docs.power)!.category_id!;
    expect(ids(cache.listDocuments({ category_id: utilities }).items)).toEqual([docs.power]);
    expect(cache.listDocuments({ space_id: h.defaultSpaceId }).total).toBe(4);
    expect(cache.listDocuments({ status: 'completed' }).total).toBe(4);
    expect(cache.listDocuments({ status: 'pending' }).total).toBe(0);
    const page = cache.listDocuments({ sort_by: 'title', sort_order: 'asc', limit: 2, offset: 1 });
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 });
    // As a person reads them: hosting, Mietvertrag, Stadtwerke Dezember, Telefon (lower case "hosting" first).
    expect(page.items.map((d) => d.title)).toEqual(['Mietvertrag', 'Stadtwerke Dezember']);
    const created = cache.getDocument(docs.phone)!.created_at;
    expect(cache.listDocuments({ created_after: created }).items.every((d) => d.created_at > created)).toBe(true);
    expect(cache.listEvents({ state: 'open' }).total).toBe(3);
    expect(cache.listEvents({ event_type: 'contract' }).items.map((e) => e.document_id)).toEqual([docs.lease]);
    expect(
      cache.listEvents({ due_after: '2030-12-18', due_before: '2030-12-31' }).items.map((e) => e.document_id),
    ).toEqual([docs.phone, docs.hosting]);
    expect(cache.listEvents({ document_id: docs.power }).items[0]).toMatchObject({
      amount: { value: 120.5, currency: 'EUR' },
    });

    const due = cache.dueItems({ today: '2030-12-18' });
    expect(due.overdue.items.map((e) => e.document_id)).toEqual([docs.power]);
    expect(due.weeks.map((w) => [w.week, w.starts, w.ends, w.items.map((e) => e.document_id)])).toEqual([
      ['2030-W51', '2030-12-16', '2030-12-22', [docs.phone]],
      ['2031-W01', '2030-12-30', '2031-01-05', [docs.hosting]],
    ]);
    expect(due.totals).toEqual([
      { currency: 'EUR', value: 160.49, count: 2 },
      { currency: 'USD', value: 80, count: 1 },
    ]);
    expect(due.count).toBe(3);
  });

  it('an incremental sync asks only for what changed and picks up a new document and a PATCHed title', async () => {
    docs.water = await upload(h, 'Wasser', {
      event_type: 'invoice',
      amount: { value: 45, currency: 'EUR' },
      due_date: '2031-02-01',
    });
    await h.service.processor.idle();
    await client.updateDocument(docs.power, { title: 'Strom Dezember 2030' });
    const first = proxy.requests.length;
    changes.length = 0;

    const result = await sync.syncNow();
    expect(result.kind).toBe('incremental');
    expect(result.documents.changed.sort()).toEqual([docs.power, docs.water].sort());
    expect(cache.getDocument(docs.power)?.title).toBe('Strom Dezember 2030');
    expect(cache.getDocument(docs.water)?.status).toBe('completed');
    expect(cache.listEvents({ document_id: docs.water }).items[0]).toMatchObject({
      state: 'open',
      due_date: '2031-02-01',
    });
    expect(changes.flatMap((c) => c.documents).sort()).toEqual([docs.power, docs.water].sort());

    const lists = proxy.requests
      .slice(first)
      .filter((r) => r.path.startsWith('/v1/documents?') || r.path.startsWith('/v1/events?'));
    expect(lists.length).toBeGreaterThan(0);
    for (const request of lists) expect(request.path).toContain('updated_after=');

    // Nothing changed since: the overlap re-reads a little, but nothing is reported again.
    const again = await sync.syncNow();
    expect(again.documents.changed).toEqual([]);
    expect(again.events.changed).toEqual([]);
  });

  it('pages correctly through many documents that share one updated_at millisecond', async () => {
    const same = new Date().toISOString();
    const targets = Object.values(docs).filter((id) => id !== docs.note);
    for (const id of targets) {
      h.sqlite
        .prepare('UPDATE documents SET title = ?, updated_at = ? WHERE id = ?')
        .run(`same ms ${id.slice(0, 8)}`, same, id);
    }
    const result = await sync.syncNow();
    expect(result.documents.changed.sort()).toEqual([...targets].sort());
    for (const id of targets)
      expect(cache.getDocument(id)).toMatchObject({ title: `same ms ${id.slice(0, 8)}`, updated_at: same });
  });

  it('a deletion arrives incrementally (the trash list); a restore brings the document and its events back', async () => {
    await client.deleteDocument(docs.phone);
    let result = await sync.syncNow();
    expect(result.kind).toBe('incremental');
    expect(result.documents.changed).toEqual([docs.phone]);
    expect(ids(cache.listDocuments({ deleted: true }).items).sort()).toEqual([docs.note, docs.phone].sort());
    expect(ids(cache.listDocuments({ limit: 100 }).items)).not.toContain(docs.phone);
    expect(cache.listEvents({ document_id: docs.phone }).total).toBe(0);
    expect(cache.dueEvents().map((e) => e.document_id)).not.toContain(docs.phone);

    await client.restoreDocument(docs.phone);
    result = await sync.syncNow();
    expect(result.documents.changed).toEqual([docs.phone]);
    expect(cache.getDocument(docs.phone)?.deleted_at).toBeNull();
    expect(cache.listEvents({ document_id: docs.phone }).items).toHaveLength(1);
    expect(ids(cache.listEvents({ limit: 100 }).items)).toEqual(ids(await allServerEvents(client)));
  });

  it('a document the service no longer shows at all is noticed by the full reconciliation, not before', async () => {
    const other = await h.createSpace('Other');
    docs.elsewhere = await upload(
      h,
      'Elsewhere',
      { event_type: 'invoice', amount: { value: 9, currency: 'EUR' }, due_date: '2031-03-01' },
      other,
    );
    await h.service.processor.idle();
    await sync.syncNow();
    const eventId = cache.listEvents({ document_id: docs.elsewhere }).items[0]?.id;
    expect(eventId).toBeDefined();

    // The key loses the space: the document is not deleted, it just vanishes from every answer.
    const keyId = key.split('_')[1]!;
    h.sqlite.prepare('UPDATE api_keys SET spaces = ? WHERE id = ?').run(JSON.stringify([h.defaultSpaceId]), keyId);
    try {
      const incremental = await sync.syncNow();
      expect(incremental.kind).toBe('incremental');
      expect(cache.getDocument(docs.elsewhere)).not.toBeNull();

      const full = await sync.syncNow({ full: true });
      expect(full.kind).toBe('full');
      expect(full.documents.removed).toEqual([docs.elsewhere]);
      expect(full.events.removed).toEqual([eventId]);
      expect(cache.getDocument(docs.elsewhere)).toBeNull();
      expect(cache.getEvent(eventId!)).toBeNull();
      // Everything else survived the reconciliation untouched.
      expect(full.documents.changed).toEqual([]);
      expect(ids(cache.listDocuments({ limit: 100 }).items).sort()).toEqual(
        ids(await allServerDocuments(client)).sort(),
      );
      expect(ids(cache.listDocuments({ deleted: true }).items)).toEqual([docs.note]);
    } finally {
      h.sqlite.prepare('UPDATE api_keys SET spaces = NULL WHERE id = ?').run(keyId);
    }
  });

  it('the cache survives a restart: a new instance over the same file answers at once and resumes incrementally', async () => {
    const before = cache.listDocuments({ limit: 100 });
    const reopened = new LibraryCache(cache.path);
    try {
      expect(reopened.listDocuments({ limit: 100 })).toEqual(before);
      const again = new LibrarySync({
        client,
        cache: reopened,
        intervalMs: HOUR,
        fullReconcileIntervalMs: HOUR,
        pageSize: 2,
      });
      expect((await again.syncNow()).kind).toBe('incremental');
    } finally {
      reopened.close();
    }
  });
});

describe('library sync with a service that implements only the v1 spec', () => {
  let h: Harness;
  let proxy: FaultProxy;
  let client: ArchiveClient;
  let cache: LibraryCache;
  let sync: LibrarySync;

  beforeAll(async () => {
    h = await startHarness({ limits: ROOMY });
    // The spec has neither updated_after nor a trash list: such a service refuses them as unknown parameters.
    proxy = await startFaultProxy(h.url, (request) => {
      const name = ['updated_after', 'deleted'].find((p) => new URL(request.path, 'http://x').searchParams.has(p));
      return name
        ? { kind: 'status', status: 400, body: { success: false, error: `Unknown parameter ${name}` } }
        : { kind: 'pass' };
    });
    client = new ArchiveClient({ baseUrl: proxy.url, apiKey: h.adminKey, backoff: FAST_BACKOFF, limits: ROOMY });
    cache = new LibraryCache(join(dir, 'spec-library.sqlite'));
    sync = new LibrarySync({
      client,
      cache,
      intervalMs: HOUR,
      fullReconcileIntervalMs: HOUR,
      pageSize: 2,
      log: () => {},
    });
  });
  afterAll(async () => {
    cache.close();
    await client.close();
    await proxy.close();
    await h.close();
  });

  it('uses created_after for new documents, sort_by=updated_at for changes, and notices deletions by reconciling', async () => {
    const keep = await upload(h, 'Keep', {
      event_type: 'invoice',
      amount: { value: 10, currency: 'EUR' },
      due_date: '2031-01-10',
    });
    const gone = await upload(h, 'Gone');
    await h.service.processor.idle();
    const full = await sync.syncNow();
    expect(full).toMatchObject({ kind: 'full', mode: 'spec' });
    expect(ids(cache.listDocuments().items).sort()).toEqual([keep, gone].sort());
    expect(cache.listEvents({ document_id: keep }).total).toBe(1);

    const fresh = await upload(h, 'Fresh', {
      event_type: 'invoice',
      amount: { value: 20, currency: 'EUR' },
      due_date: '2031-01-20',
    });
    await h.service.processor.idle();
    await client.updateDocument(keep, { title: 'Kept and renamed' });
    await client.deleteDocument(gone);
    const first = proxy.requests.length;
    const incremental = await sync.syncNow();
    expect(incremental).toMatchObject({ kind: 'incremental', mode: 'spec' });
    const paths = proxy.requests.slice(first).map((r) => r.path);
    expect(paths.some((p) => p.includes('created_after='))).toBe(true);
    expect(paths.some((p) => p.includes('sort_by=updated_at') && p.includes('sort_order=desc'))).toBe(true);
    expect(paths.some((p) => p.includes('updated_after') || p.includes('deleted='))).toBe(false);
    expect(cache.getDocument(fresh)?.status).toBe('completed');
    expect(cache.getDocument(keep)?.title).toBe('Kept and renamed');
    expect(cache.listEvents({ document_id: fresh }).items[0]).toMatchObject({ due_date: '2031-01-20', state: 'open' });
    // A spec service shows no trash: an incremental sync cannot tell a deleted document from an unchanged one.
    expect(cache.getDocument(gone)?.deleted_at).toBeNull();

    const reconciled = await sync.syncNow({ full: true });
    expect(reconciled.documents.changed).toEqual([gone]);
    expect(cache.getDocument(gone)?.deleted_at).not.toBeNull();
    expect(ids(cache.listDocuments({ deleted: true }).items)).toEqual([gone]);
    expect(ids(cache.listDocuments().items).sort()).toEqual([keep, fresh].sort());
  });
});

describe('library sync while the service is away', () => {
  it('pending documents are followed up until final, across a service restart; offline syncs report and retry', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'library-sync-archive-'));
    const h = await startHarness({ dataDir, limits: ROOMY });
    let restarted: RunningArchiveService | undefined;
    const port = h.service.port;
    const client = new ArchiveClient({
      baseUrl: h.url,
      apiKey: h.adminKey,
      backoff: FAST_BACKOFF,
      maxAttempts: 1,
      limits: ROOMY,
    });
    const cache = new LibraryCache(join(dir, 'pending-library.sqlite'));
    const errors: Error[] = [];
    const sync = new LibrarySync({
      client,
      cache,
      intervalMs: HOUR,
      fullReconcileIntervalMs: HOUR,
      followUpIntervalMs: 100,
    });
    sync.on('error', (error) => errors.push(error));
    try {
      // Nothing processes while the processor is stopped: the upload stays pending.
      await h.service.processor.stop();
      const id = await upload(h, 'Slow scan', {
        event_type: 'invoice',
        amount: { value: 70, currency: 'EUR' },
        due_date: '2031-04-01',
      });
      await sync.syncNow();
      expect(cache.getDocument(id)?.status).toBe('pending');
      expect(cache.counts()).toMatchObject({ documents: 1, unfinished: 1, events: 0 });

      // The service goes away: syncing fails as offline, the cache still answers, the loop keeps going.
      await h.close();
      const failure = await sync.syncNow().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ArchiveError);
      expect(failure).toMatchObject({ offline: true });
      expect(sync.status()).toMatchObject({ syncing: false, lastError: (failure as ArchiveError).message });
      expect(client.connection.online).toBe(false); // the client's one notion of reachable, which the sync fed
      expect(cache.listDocuments().items.map((d) => d.id)).toEqual([id]);
      sync.start();
      await until(() => errors.length >= 3, 'repeated offline errors');

      // Back on the same port; its processor finishes the queued job. Only the follow-up cadence (100 ms, the
      // interval is an hour) can bring the result.
      restarted = await startArchiveService({ dataDir, port, workers: 1, limits: ROOMY });
      await until(
        () => cache.getDocument(id)?.status === 'completed' && cache.listEvents({ document_id: id }).total === 1,
        'the follow-up to bring the completed document and its event',
      );
      expect(cache.listEvents({ document_id: id }).items[0]).toMatchObject({
        state: 'open',
        amount: { value: 70, currency: 'EUR' },
      });
      expect(sync.status()).toMatchObject({ lastError: null });
      expect(client.connection.online).toBe(true);
      expect(errors.every((e) => e instanceof ArchiveError && e.offline)).toBe(true);
    } finally {
      await sync.stop();
      cache.close();
      await client.close();
      await h.close().catch(() => undefined); // closed already unless the test failed early
      await restarted?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('library cache at 10,000 documents', () => {
  let cache: LibraryCache;
  beforeAll(() => {
    cache = new LibraryCache(join(dir, 'big-library.sqlite'));
    const base = Date.UTC(2026, 0, 1);
    const spaces = ['7d3c1a52-0000-4000-8000-000000000001', '7d3c1a52-0000-4000-8000-000000000002'];
    const documents: ArchiveDocument[] = [];
    for (let i = 0; i < 10_000; i++) {
      const created = new Date(base + i * 60_000).toISOString();
      documents.push({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        space_id: spaces[i % 2]!,
        category_id: null,
        category_name: null,
        status: i % 50 === 0 ? 'failed' : 'completed',
        title: `Document ${(i * 7919) % 10_000}`,
        original_filename: `scan_${i}.pdf`,
        mime_type: 'application/pdf',
        file_format: 'pdf',
        size_bytes: 1000 + i,
        sha256: i.toString(16).padStart(64, '0'),
        page_count: 1,
        language: 'de',
        sender_name: null,
        document_date: i % 3 === 0 ? null : created.slice(0, 10),
        tags: i % 10 === 0 ? ['tax'] : [],
        duplicate_of: null,
        processing_note: null,
        error: null,
        created_at: created,
        updated_at: created,
        processed_at: created,
        deleted_at: i % 100 === 0 ? created : null,
      });
    }
    cache.upsertDocuments(documents, Date.now());
  });
  afterAll(() => cache.close());

  it('every sort reads a page off an index (no sort of all rows) and answers quickly', () => {
    for (const sort of ['created_at', 'updated_at', 'title', 'document_date'] as const) {
      for (const direction of ['ASC', 'DESC']) {
        const plan = (
          cache.db
            .prepare(
              `EXPLAIN QUERY PLAN SELECT json FROM documents WHERE deleted = 0
          ORDER BY ${CACHE_SORT_COLUMNS[sort]} ${direction} NULLS LAST, id ${direction} LIMIT 50 OFFSET 5000`,
            )
            .all() as Array<{ detail: string }>
        )
          .map((r) => r.detail)
          .join('; ');
        expect(plan, `${sort} ${direction}`).not.toContain('TEMP B-TREE');
      }
    }
    const started = performance.now();
    const page = cache.listDocuments({ sort_by: 'title', sort_order: 'desc', limit: 50, offset: 5000 });
    const bySpace = cache.listDocuments({
      space_id: '7d3c1a52-0000-4000-8000-000000000002',
      status: 'completed',
      limit: 50,
      offset: 2000,
    });
    const tagged = cache.listDocuments({ tags: ['TAX'], sort_by: 'document_date', limit: 50 });
    const elapsed = performance.now() - started;
    expect(page.total).toBe(9_900);
    expect(page.items).toHaveLength(50);
    expect(bySpace.total).toBe(5_000);
    expect(tagged.total).toBe(900);
    expect(cache.listDocuments({ deleted: true }).total).toBe(100);
    // Generous for a shared CI machine; a full sort of 10,000 JSON rows per page would be far slower.
    expect(elapsed).toBeLessThan(500);
  });
});
