import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCOPES,
  type ArchiveDocument,
  type ArchiveDocumentDetail,
  type ArchiveEvent,
  type BulkReprocessResult,
  type ListEnvelope,
  type ReprocessResult,
  type SearchHit,
} from '../../common/archive-types.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { expectError, readJson } from '../helpers/http-raw.ts';

const LIMITS = { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 };

let h: Harness;
let spaceB: string;

/** The list fixture, in upload order. */
interface Seeded {
  key: string;
  id: string;
  title: string;
  documentDate: string | null;
  space: string;
}
const seeded: Seeded[] = [];
const byKey = (key: string): Seeded => seeded.find((s) => s.key === key)!;
let all: ArchiveDocumentDetail[] = [];

async function upload(
  bytes: Uint8Array,
  name: string,
  fields: { space_id?: string; metadata?: unknown } = {},
): Promise<string> {
  await new Promise((r) => setTimeout(r, 3)); // distinct created_at (millisecond resolution) for the order checks
  const res = await h.upload({ bytes, name }, fields);
  return (await readJson<{ id: string }>(res, 202)).id;
}

async function getDocument(id: string, key = h.adminKey): Promise<ArchiveDocumentDetail> {
  return (await readJson<{ document: ArchiveDocumentDetail }>(await h.api(`/v1/documents/${id}`, { key }))).document;
}

async function list(query = '', key = h.adminKey): Promise<ListEnvelope<ArchiveDocument>> {
  return readJson<ListEnvelope<ArchiveDocument>>(await h.api(`/v1/documents${query}`, { key }));
}

const ids = (envelope: ListEnvelope<ArchiveDocument>): string[] => envelope.items.map((d) => d.id);
const keysOf = (envelope: ListEnvelope<ArchiveDocument>): string[] =>
  envelope.items.map((d) => seeded.find((s) => s.id === d.id)?.key ?? `?${d.id}`);

/** A PDF with `pages` pages of text: slow enough to process that a job is reliably still running a moment later. */
async function longPdf(pages: number, marker: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let i = 0; i < 40; i++)
      page.drawText(`${marker} page ${p} line ${i} lorem ipsum dolor sit amet`, {
        x: 40,
        y: 800 - i * 18,
        size: 10,
        font,
      });
  }
  return pdf.save();
}

beforeAll(async () => {
  h = await startHarness({ limits: LIMITS });
  spaceB = await h.createSpace('Space B');
  const fixture: Array<{
    key: string;
    title: string;
    date: string | null;
    space?: string;
    meta?: Record<string, unknown>;
  }> = [
    { key: 'charlie', title: 'Charlie', date: '2024-03-01', meta: { tags: ['alpha'], category: 'Bills' } },
    {
      key: 'alpha',
      title: 'Alpha',
      date: '2025-01-15',
      meta: {
        event_type: 'invoice',
        amount: { value: 99.5, currency: 'eur' },
        due_date: '2025-02-01',
        sender_name: 'Stadtwerke Nord',
        reference_number: 'R-1',
      },
    },
    { key: 'echo', title: 'Echo', date: null },
    { key: 'bravo', title: 'Bravo', date: '2023-07-04', space: spaceB, meta: { tags: ['alpha', 'beta'] } },
    { key: 'delta', title: 'Delta', date: '2024-12-31' },
  ];
  for (const f of fixture) {
    const metadata = { title: f.title, ...(f.date ? { document_date: f.date } : {}), ...f.meta };
    const bytes = await makePdf(`${f.title} text ${randomBytes(4).toString('hex')}`);
    const space = f.space ?? h.defaultSpaceId;
    const id = await upload(bytes, `${f.key}.pdf`, { space_id: space, metadata });
    seeded.push({ key: f.key, id, title: f.title, documentDate: f.date, space });
    if (f.key === 'charlie') {
      // The same bytes again in the same space: accepted, ends skipped.
      await h.service.processor.idle();
      const dup = await upload(bytes, 'foxtrot.pdf', { metadata: { title: 'Foxtrot' } });
      seeded.push({ key: 'foxtrot', id: dup, title: 'Foxtrot', documentDate: null, space: h.defaultSpaceId });
    }
  }
  // A PDF header over garbage: accepted by the signature check, fails in the pipeline.
  const broken = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(2000)]);
  const golf = await upload(broken, 'Golf.pdf');
  seeded.push({ key: 'golf', id: golf, title: 'Golf', documentDate: null, space: h.defaultSpaceId });
  await h.service.processor.idle();
  // A later hand edit makes the oldest document the most recently updated one.
  await readJson(await h.api(`/v1/documents/${byKey('charlie').id}`, { method: 'PATCH', json: { title: 'Charlie' } }));
  all = await Promise.all(seeded.map((s) => getDocument(s.id)));
});
afterAll(async () => {
  await h.close();
});

describe('GET /v1/documents', () => {
  it('fixture sanity: statuses and strictly increasing created_at', () => {
    expect(all.map((d) => d.status)).toEqual([
      'completed',
      'skipped',
      'completed',
      'completed',
      'completed',
      'completed',
      'failed',
    ]);
    const created = all.map((d) => d.created_at);
    expect([...created].sort()).toEqual(created);
    expect(new Set(created).size).toBe(created.length);
  });

  it('defaults: limit 50, offset 0, newest first, total of every visible document', async () => {
    const page = await list();
    expect(page).toMatchObject({ success: true, limit: 50, offset: 0, total: 7 });
    expect(ids(page)).toEqual(seeded.map((s) => s.id).reverse());
    const detailOnly = ['content', 'extracted_data', 'metadata', 'event_ids'];
    for (const item of page.items) for (const field of detailOnly) expect(item).not.toHaveProperty(field);
  });

  it('limit 1 and 100 are accepted', async () => {
    const one = await list('?limit=1');
    expect(one).toMatchObject({ limit: 1, offset: 0, total: 7 });
    expect(ids(one)).toEqual([seeded.at(-1)!.id]);
    expect(await list('?limit=100')).toMatchObject({ limit: 100, total: 7 });
  });

  it.each(['0', '101', 'abc', '-1', '1.5', '1e1', ' 5'])('limit=%s → 400 naming limit', async (value) => {
    await expectError(
      await h.api(`/v1/documents?limit=${encodeURIComponent(value)}`),
      400,
      'Invalid parameter limit: expected an integer from 1 to 100',
    );
  });

  it('offset pages through the same order; past the end is an empty page; negative → 400', async () => {
    const everything = ids(await list());
    const page = await list('?limit=2&offset=2');
    expect(page).toMatchObject({ limit: 2, offset: 2, total: 7 });
    expect(ids(page)).toEqual(everything.slice(2, 4));
    const beyond = await list('?offset=100');
    expect(beyond).toMatchObject({ items: [], total: 7, offset: 100 });
    await expectError(
      await h.api('/v1/documents?offset=-1'),
      400,
      'Invalid parameter offset: expected an integer of at least 0',
    );
  });

  describe('sorting', () => {
    type Field = 'created_at' | 'updated_at' | 'title' | 'document_date';
    /** The documented rule: missing values last in both directions, the id breaks ties. */
    const expected = (field: Field, order: 'asc' | 'desc'): string[] => {
      const sign = order === 'asc' ? 1 : -1;
      const binary = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0); // SQLite's BINARY collation
      return [...all]
        .sort((a, b) => {
          const x = a[field],
            y = b[field];
          if (x === null || y === null) return x === y ? sign * binary(a.id, b.id) : x === null ? 1 : -1;
          return x === y ? sign * binary(a.id, b.id) : sign * binary(x, y);
        })
        .map((d) => d.id);
    };
    const fields: Field[] = ['created_at', 'updated_at', 'title', 'document_date'];
    for (const field of fields) {
      for (const order of ['asc', 'desc'] as const) {
        it(`sort_by=${field}&sort_order=${order}`, async () => {
          const page = await list(`?sort_by=${field}&sort_order=${order}`);
          expect(ids(page)).toEqual(expected(field, order));
        });
      }
    }

    it('the orders are the ones intended, not just self-consistent', async () => {
      expect(keysOf(await list('?sort_by=title&sort_order=asc'))).toEqual([
        'alpha',
        'bravo',
        'charlie',
        'delta',
        'echo',
        'foxtrot',
        'golf',
      ]);
      expect(keysOf(await list('?sort_by=document_date&sort_order=desc')).slice(0, 4)).toEqual([
        'alpha',
        'delta',
        'charlie',
        'bravo',
      ]);
      expect(keysOf(await list('?sort_by=document_date&sort_order=asc')).slice(0, 4)).toEqual([
        'bravo',
        'charlie',
        'delta',
        'alpha',
      ]);
      expect(keysOf(await list('?sort_by=updated_at&sort_order=desc'))[0]).toBe('charlie');
      expect(keysOf(await list('?sort_by=created_at&sort_order=asc'))).toEqual(seeded.map((s) => s.key));
      // sort_order alone applies to the default field.
      expect(keysOf(await list('?sort_order=asc'))).toEqual(seeded.map((s) => s.key));
    });

    it('unknown sort field or order → 400', async () => {
      await expectError(
        await h.api('/v1/documents?sort_by=size'),
        400,
        'Invalid parameter sort_by: expected one of created_at, updated_at, title, document_date',
      );
      await expectError(
        await h.api('/v1/documents?sort_order=up'),
        400,
        'Invalid parameter sort_order: expected one of asc, desc',
      );
    });
  });

  describe('filters', () => {
    it('status', async () => {
      expect(keysOf(await list('?status=completed&sort_order=asc'))).toEqual([
        'charlie',
        'alpha',
        'echo',
        'bravo',
        'delta',
      ]);
      expect(keysOf(await list('?status=skipped'))).toEqual(['foxtrot']);
      expect(keysOf(await list('?status=failed'))).toEqual(['golf']);
      expect(await list('?status=pending')).toMatchObject({ items: [], total: 0 });
      await expectError(
        await h.api('/v1/documents?status=done'),
        400,
        'Invalid parameter status: expected one of pending, processing, completed, failed, skipped',
      );
    });

    it('space_id', async () => {
      const inB = await list(`?space_id=${spaceB}`);
      expect(keysOf(inB)).toEqual(['bravo']);
      expect(inB.total).toBe(1);
      expect((await list(`?space_id=${h.defaultSpaceId.toUpperCase()}`)).total).toBe(6);
      await expectError(
        await h.api('/v1/documents?space_id=default'),
        400,
        'Invalid parameter space_id: expected a uuid',
      );
    });

    it('category_id', async () => {
      const charlie = all.find((d) => d.id === byKey('charlie').id)!;
      expect(charlie.category_name).toBe('Bills');
      const page = await list(`?category_id=${charlie.category_id}`);
      expect(keysOf(page)).toEqual(['charlie']);
      expect(page.total).toBe(1);
      expect(await list(`?category_id=${crypto.randomUUID()}`)).toMatchObject({ items: [], total: 0 });
      await expectError(
        await h.api('/v1/documents?category_id=Bills'),
        400,
        'Invalid parameter category_id: expected a uuid',
      );
    });

    it('created_after: ISO 8601 with Z and with an offset mean the same instant; only later documents', async () => {
      const pivot = all.find((d) => d.id === byKey('echo').id)!.created_at;
      const later = ['bravo', 'delta', 'golf'];
      expect(keysOf(await list(`?created_after=${pivot}&sort_order=asc`))).toEqual(later);
      const ms = Date.parse(pivot);
      const shifted = new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      expect(keysOf(await list(`?created_after=${encodeURIComponent(shifted)}&sort_order=asc`))).toEqual(later);
      const behind = new Date(ms - 5.5 * 3600_000).toISOString().replace('Z', '-05:30');
      expect((await list(`?created_after=${encodeURIComponent(behind)}`)).total).toBe(3);
      expect((await list('?created_after=2000-01-01')).total).toBe(7);
      expect((await list('?created_after=2999-01-01T00:00:00Z')).total).toBe(0);
    });

    it.each(['yesterday', '2026-02-30T00:00:00Z', '2026-01-01T25:00:00Z', '1700000000', '2026-01-01T00:00:00+99:00'])(
      'created_after=%s → 400',
      async (value) => {
        await expectError(
          await h.api(`/v1/documents?created_after=${encodeURIComponent(value)}`),
          400,
          'Invalid parameter created_after: expected an ISO 8601 timestamp',
        );
      },
    );

    it('updated_after and deleted', async () => {
      const charlie = all.find((d) => d.id === byKey('charlie').id)!;
      expect(await list(`?updated_after=${charlie.updated_at}`)).toMatchObject({ items: [], total: 0 });
      const justBefore = new Date(Date.parse(charlie.updated_at) - 1).toISOString();
      expect(keysOf(await list(`?updated_after=${justBefore}`))).toEqual(['charlie']);
      await expectError(
        await h.api('/v1/documents?updated_after=soon'),
        400,
        'Invalid parameter updated_after: expected an ISO 8601 timestamp',
      );
      expect((await list('?deleted=false')).total).toBe(7);
      expect((await list('?deleted=true')).total).toBe(0);
      await expectError(
        await h.api('/v1/documents?deleted=maybe'),
        400,
        'Invalid parameter deleted: expected true or false',
      );
    });

    it('tag (case-insensitive), and filters combine', async () => {
      expect(keysOf(await list('?tag=alpha&sort_order=asc'))).toEqual(['charlie', 'bravo']);
      expect(keysOf(await list('?tag=ALPHA&sort_order=asc'))).toEqual(['charlie', 'bravo']);
      expect(keysOf(await list('?tag=beta'))).toEqual(['bravo']);
      expect((await list('?tag=nope')).total).toBe(0);
      const combined = await list(`?tag=alpha&space_id=${h.defaultSpaceId}&status=completed`);
      expect(keysOf(combined)).toEqual(['charlie']);
      expect(combined.total).toBe(1);
      expect(
        keysOf(
          await list(`?status=completed&space_id=${h.defaultSpaceId}&sort_by=title&sort_order=asc&limit=2&offset=1`),
        ),
      ).toEqual(['charlie', 'delta']);
    });

    it('unknown parameter → 400; a repeated parameter → 400', async () => {
      await expectError(await h.api('/v1/documents?foo=1'), 400, 'Unknown parameter foo');
      await expectError(await h.api('/v1/documents?sortBy=title'), 400, 'Unknown parameter sortBy');
      await expectError(
        await h.api('/v1/documents?limit=1&limit=2'),
        400,
        'Invalid parameter limit: given more than once',
      );
      await expectError(
        await h.api(`/v1/documents?space_id=${spaceB}&space_id=${spaceB}`),
        400,
        'Invalid parameter space_id: given more than once',
      );
    });
  });

  describe('space restrictions', () => {
    it('a key restricted to a space sees only that space, with the right total', async () => {
      const key = await h.createKey({ spaces: [spaceB], role: 'viewer' });
      const page = await list('', key);
      expect(keysOf(page)).toEqual(['bravo']);
      expect(page.total).toBe(1);
      expect(keysOf(await list('?tag=alpha', key))).toEqual(['bravo']);
      expect((await list('?status=skipped', key)).total).toBe(0);
      await expectError(
        await h.api(`/v1/documents?space_id=${h.defaultSpaceId}`, { key }),
        403,
        'Access denied to this space',
      );
    });

    it('a key restricted to an empty list of spaces sees nothing', async () => {
      const key = await h.createKey({ spaces: [] });
      expect(await list('', key)).toMatchObject({ items: [], total: 0 });
    });

    it('without documents:read → 403 Insufficient scope; without a key → 401', async () => {
      const key = await h.createKey({ scopes: SCOPES.filter((s) => s !== 'documents:read') });
      await expectError(await h.api('/v1/documents', { key }), 403, 'Insufficient scope');
      await expectError(await h.api('/v1/documents', { key: null }), 401, 'Invalid or missing API key');
    });
  });
});

describe('GET /v1/documents/:id', () => {
  it('returns the detail: content, extracted_data, metadata, tags, event_ids', async () => {
    const alpha = byKey('alpha');
    const doc = await getDocument(alpha.id);
    expect(doc).toMatchObject({
      id: alpha.id,
      space_id: h.defaultSpaceId,
      status: 'completed',
      title: 'Alpha',
      document_date: '2025-01-15',
      sender_name: 'Stadtwerke Nord',
      tags: [],
      original_filename: 'alpha.pdf',
      deleted_at: null,
    });
    expect(doc.content).toMatch(/^Alpha text [0-9a-f]{8}$/);
    expect(doc.metadata).toEqual({
      title: 'Alpha',
      document_date: '2025-01-15',
      event_type: 'invoice',
      amount: { value: 99.5, currency: 'EUR' },
      due_date: '2025-02-01',
      sender_name: 'Stadtwerke Nord',
      reference_number: 'R-1',
    });
    expect(doc.extracted_data).toMatchObject({
      event_type: { value: 'invoice', source: 'metadata' },
      due_date: { value: '2025-02-01', source: 'metadata' },
    });
    const events = await readJson<ListEnvelope<ArchiveEvent>>(await h.api(`/v1/events?document_id=${alpha.id}`));
    expect(events.items).toHaveLength(1);
    expect(doc.event_ids).toEqual([events.items[0]!.id]);
    expect(events.items[0]).toMatchObject({
      event_type: 'invoice',
      amount: { value: 99.5, currency: 'EUR' },
      due_date: '2025-02-01',
    });

    const charlie = await getDocument(byKey('charlie').id);
    expect(charlie.tags).toEqual(['alpha']);
    expect(charlie.event_ids).toEqual([]);
  });

  it('an upper-case uuid finds the same document', async () => {
    const id = byKey('delta').id;
    expect((await getDocument(id.toUpperCase())).id).toBe(id);
  });

  it('a non-uuid id → 400', async () => {
    for (const bad of ['123', 'not-a-uuid', `${byKey('delta').id}x`]) {
      await expectError(await h.api(`/v1/documents/${bad}`), 400, 'Invalid parameter id: expected a uuid');
    }
  });

  it('a 10,000-character id → 4xx, and the server keeps serving', async () => {
    await expectError(await h.api(`/v1/documents/${'a'.repeat(10_000)}`), 400, 'Invalid parameter id: expected a uuid');
    // Longer than Node's header limit (16 KiB): refused by the HTTP parser itself, before any route.
    const huge = await h.api(`/v1/documents/${'a'.repeat(20_000)}`);
    expect(huge.status).toBe(431);
    await huge.arrayBuffer();
    expect((await list()).total).toBe(7);
  });

  it('an unknown uuid → 404 Document not found', async () => {
    await expectError(await h.api(`/v1/documents/${crypto.randomUUID()}`), 404, 'Document not found');
  });

  it('a document in a space the key cannot see → 404 Document not found', async () => {
    const key = await h.createKey({ spaces: [spaceB] });
    await expectError(await h.api(`/v1/documents/${byKey('alpha').id}`, { key }), 404, 'Document not found');
    expect((await getDocument(byKey('bravo').id, key)).title).toBe('Bravo');
  });
});

describe('soft delete and restore', () => {
  let space: string;
  let id: string;
  let eventId: string;
  const search = async (query: string): Promise<string[]> =>
    (await readJson<{ items: SearchHit[] }>(await h.api('/v1/search', { method: 'POST', json: { query } }))).items.map(
      (i) => i.document.id,
    );
  const eventIds = async (query = ''): Promise<string[]> =>
    (await readJson<ListEnvelope<ArchiveEvent>>(await h.api(`/v1/events${query}`))).items.map((e) => e.id);

  beforeAll(async () => {
    space = await h.createSpace('Trash');
    id = await upload(await makePdf('Quokka unique wording for the bin'), 'quokka.pdf', {
      space_id: space,
      metadata: { event_type: 'invoice', amount: { value: 42, currency: 'EUR' }, due_date: '2030-01-01' },
    });
    await h.service.processor.idle();
    eventId = (await getDocument(id)).event_ids[0]!;
  });

  it('is visible everywhere before', async () => {
    expect(ids(await list(`?space_id=${space}`))).toEqual([id]);
    expect(await search('quokka')).toEqual([id]);
    expect(await eventIds()).toContain(eventId);
    expect((await h.api(`/v1/events/${eventId}`)).status).toBe(200);
  });

  it('a viewer cannot delete (403); an unknown or invisible id → 404; a non-uuid → 400', async () => {
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'DELETE', key: await h.createKey({ role: 'viewer' }) }),
      403,
      'Access denied to this space',
    );
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'DELETE', key: await h.createKey({ spaces: [spaceB] }) }),
      404,
      'Document not found',
    );
    await expectError(
      await h.api(`/v1/documents/${crypto.randomUUID()}`, { method: 'DELETE' }),
      404,
      'Document not found',
    );
    await expectError(
      await h.api('/v1/documents/nope', { method: 'DELETE' }),
      400,
      'Invalid parameter id: expected a uuid',
    );
    expect((await getDocument(id)).deleted_at).toBeNull();
  });

  it('DELETE hides it from the list, search and events; GET by id shows deleted_at; deleted=true lists it', async () => {
    const totalBefore = (await list()).total;
    const res = await readJson<{ success: boolean; id: string; deleted_at: string }>(
      await h.api(`/v1/documents/${id}`, { method: 'DELETE' }),
    );
    expect(res).toEqual({ success: true, id, deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });

    expect((await list()).total).toBe(totalBefore - 1);
    expect(ids(await list('?limit=100'))).not.toContain(id);
    expect(await list(`?space_id=${space}`)).toMatchObject({ items: [], total: 0 });
    expect(await search('quokka')).toEqual([]);
    expect(await eventIds()).not.toContain(eventId);
    expect(await eventIds(`?document_id=${id}`)).toEqual([]);
    await expectError(await h.api(`/v1/events/${eventId}`), 404, 'Event not found');

    const doc = await getDocument(id);
    expect(doc.deleted_at).toBe(res.deleted_at);
    const trash = await list('?deleted=true');
    expect(ids(trash)).toEqual([id]);
    expect(trash.total).toBe(1);

    // Idempotent: deleting again keeps the first deletion time.
    const again = await readJson<{ deleted_at: string }>(await h.api(`/v1/documents/${id}`, { method: 'DELETE' }));
    expect(again.deleted_at).toBe(res.deleted_at);
    // A deleted document cannot be edited, reprocessed or downloaded.
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { title: 'x' } }),
      404,
      'Document not found',
    );
    await expectError(await h.api(`/v1/documents/${id}/reprocess`, { method: 'POST' }), 404, 'Document not found');
    await expectError(await h.api(`/v1/documents/${id}/download`), 404, 'Document not found');
  });

  it('restore: a viewer cannot (403); the editor brings everything back', async () => {
    await expectError(
      await h.api(`/v1/documents/${id}/restore`, { method: 'POST', key: await h.createKey({ role: 'viewer' }) }),
      403,
      'Access denied to this space',
    );
    await expectError(
      await h.api(`/v1/documents/${crypto.randomUUID()}/restore`, { method: 'POST' }),
      404,
      'Document not found',
    );
    const res = await readJson<{ success: boolean; document: ArchiveDocument }>(
      await h.api(`/v1/documents/${id}/restore`, { method: 'POST' }),
    );
    expect(res.success).toBe(true);
    expect(res.document).toMatchObject({ id, deleted_at: null, status: 'completed', space_id: space });

    expect(ids(await list(`?space_id=${space}`))).toEqual([id]);
    expect(await list('?deleted=true')).toMatchObject({ items: [], total: 0 });
    expect(await search('quokka')).toEqual([id]);
    expect(await eventIds()).toContain(eventId);
    expect((await h.api(`/v1/events/${eventId}`)).status).toBe(200);
    expect((await getDocument(id)).deleted_at).toBeNull();
    // Restoring what is not deleted is a no-op.
    expect((await h.api(`/v1/documents/${id}/restore`, { method: 'POST' })).status).toBe(200);
  });
});

describe('PATCH /v1/documents/:id (hand edits)', () => {
  let id: string;
  beforeAll(async () => {
    id = await upload(await makePdf('Patch me'), 'patch.pdf', { space_id: spaceB, metadata: { tags: ['first'] } });
    await h.service.processor.idle();
  });

  it('sets the title', async () => {
    const res = await readJson<{ success: boolean; document: ArchiveDocumentDetail }>(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { title: 'Renamed by hand' } }),
    );
    expect(res.success).toBe(true);
    expect(res.document).toMatchObject({ id, title: 'Renamed by hand', tags: ['first'] });
    expect((await getDocument(id)).title).toBe('Renamed by hand');
  });

  it('an empty edit changes nothing, updated_at included (synced clients do not fetch the document again)', async () => {
    const before = await getDocument(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await readJson<{ document: ArchiveDocumentDetail }>(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: {} }),
    );
    expect(res.document.updated_at).toBe(before.updated_at);
    expect((await getDocument(id)).updated_at).toBe(before.updated_at);
  });

  it('a category id of any uuid version is read as the path and query ids are (one meaning of uuid)', async () => {
    await expectError(
      await h.api(`/v1/documents/${id}`, {
        method: 'PATCH',
        json: { category_id: '12345678-1234-1234-1234-123456789abc' },
      }),
      400,
      "Invalid parameter category_id: no such category in the document's space",
    );
  });

  it('tags need tags:write (403 without, nothing changed); with it they replace the old ones', async () => {
    const noTags = await h.createKey({ scopes: SCOPES.filter((s) => s !== 'tags:write') });
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', key: noTags, json: { title: 'Sneaky', tags: ['x'] } }),
      403,
      'Insufficient scope',
    );
    expect(await getDocument(id)).toMatchObject({ title: 'Renamed by hand', tags: ['first'] });
    // The same key may still edit the title alone.
    expect(
      (await h.api(`/v1/documents/${id}`, { method: 'PATCH', key: noTags, json: { document_date: '2024-01-31' } }))
        .status,
    ).toBe(200);

    const res = await readJson<{ document: ArchiveDocumentDetail }>(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { tags: ['Zeta', 'alpha', 'ZETA'] } }),
    );
    expect(res.document.tags).toEqual(['alpha', 'ZETA']);
    expect(res.document.document_date).toBe('2024-01-31');
  });

  it('rejects bad edits with 400 naming the field, viewers with 403', async () => {
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { document_date: '2024-02-30' } }),
      400,
      'Invalid parameter document_date: must be a date YYYY-MM-DD',
    );
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { colour: 'red' } }),
      400,
      'Unknown parameter colour',
    );
    const otherSpaceCategory = all.find((d) => d.id === byKey('charlie').id)!.category_id;
    await expectError(
      await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { category_id: otherSpaceCategory } }),
      400,
      "Invalid parameter category_id: no such category in the document's space",
    );
    await expectError(
      await h.api(`/v1/documents/${id}`, {
        method: 'PATCH',
        json: { title: 'x' },
        key: await h.createKey({ role: 'viewer' }),
      }),
      403,
      'Access denied to this space',
    );
    expect((await getDocument(id)).title).toBe('Renamed by hand');
  });
});

describe('reprocess', () => {
  let space: string;
  let slow: string;
  let other: string;
  let original: ArchiveDocumentDetail;

  beforeAll(async () => {
    space = await h.createSpace('Reprocess');
    slow = await upload(await longPdf(40, 'Wombat'), 'slow.pdf', {
      space_id: space,
      metadata: { tags: ['keep-me'], title: 'From metadata' },
    });
    other = await upload(await makePdf('Other reprocess candidate'), 'other.pdf', { space_id: space });
    await h.service.processor.idle();
    await readJson(await h.api(`/v1/documents/${slow}`, { method: 'PATCH', json: { title: 'Edited by hand' } }));
    original = await getDocument(slow);
  });

  it('single: 202 queued, a second call meanwhile says alreadyProcessing; the id, tags, hand edits and space are kept', async () => {
    const responses = await Promise.all([1, 2].map(() => h.api(`/v1/documents/${slow}/reprocess`, { method: 'POST' })));
    const answers = await Promise.all(
      responses.map(async (r) => ({ status: r.status, body: (await r.json()) as ReprocessResult })),
    );
    answers.sort((a, b) => b.status - a.status);
    expect(answers).toEqual([
      { status: 202, body: { success: true, id: slow, queued: true, alreadyProcessing: false } },
      { status: 200, body: { success: true, id: slow, queued: false, alreadyProcessing: true } },
    ]);
    // While it runs the document stays visible with its current data.
    const during = await getDocument(slow);
    expect(during.content).toBe(original.content);
    expect(during.title).toBe('Edited by hand');

    await h.service.processor.idle();
    const after = await getDocument(slow);
    expect(after).toMatchObject({
      id: slow,
      status: 'completed',
      title: 'Edited by hand',
      tags: original.tags,
      space_id: space,
      content: original.content,
    });
    expect(original.tags).toContain('keep-me'); // metadata tags first; the first run may add suggestions after them
    expect(after.processed_at! > original.processed_at!).toBe(true);
    expect((await list(`?space_id=${space}`)).total).toBe(2);
  });

  it('single: a viewer → 403, unknown → 404, non-uuid → 400', async () => {
    await expectError(
      await h.api(`/v1/documents/${slow}/reprocess`, { method: 'POST', key: await h.createKey({ role: 'viewer' }) }),
      403,
      'Access denied to this space',
    );
    await expectError(
      await h.api(`/v1/documents/${crypto.randomUUID()}/reprocess`, { method: 'POST' }),
      404,
      'Document not found',
    );
    await expectError(
      await h.api('/v1/documents/123/reprocess', { method: 'POST' }),
      400,
      'Invalid parameter id: expected a uuid',
    );
  });

  it('single: a duplicate stays skipped', async () => {
    const dup = byKey('foxtrot').id;
    expect((await h.api(`/v1/documents/${dup}/reprocess`, { method: 'POST' })).status).toBe(202);
    await h.service.processor.idle();
    expect(await getDocument(dup)).toMatchObject({ status: 'skipped', duplicate_of: byKey('charlie').id });
  });

  it('bulk: queued, skippedPending and notFound (unknown, deleted, invisible)', async () => {
    const deleted = await upload(await makePdf('Deleted before bulk'), 'gone.pdf', { space_id: space });
    await h.service.processor.idle();
    await readJson(await h.api(`/v1/documents/${deleted}`, { method: 'DELETE' }));
    const unknown = crypto.randomUUID();
    const bulk = (documentIds: string[]): Promise<Response> =>
      h.api('/v1/documents/reprocess', { method: 'POST', json: { documentIds } });

    const first = await readJson<BulkReprocessResult>(await bulk([slow, other, unknown, deleted, slow.toUpperCase()]));
    expect(first).toEqual({
      success: true,
      queued: [slow, other],
      skippedPending: [],
      denied: [],
      notFound: [unknown, deleted],
    });
    const second = await readJson<BulkReprocessResult>(await bulk([other, slow]));
    expect(second).toEqual({ success: true, queued: [], skippedPending: [other, slow], denied: [], notFound: [] });

    const restricted = await h.createKey({ spaces: [spaceB] });
    const invisible = await readJson<BulkReprocessResult>(
      await h.api('/v1/documents/reprocess', { method: 'POST', json: { documentIds: [slow] }, key: restricted }),
    );
    expect(invisible).toEqual({ success: true, queued: [], skippedPending: [], denied: [], notFound: [slow] });

    await h.service.processor.idle();
    for (const id of [slow, other]) expect((await getDocument(id)).status).toBe('completed');
  });

  it('bulk: a viewer key restricted to a space gets denied for what it can see, notFound for the rest', async () => {
    const viewer = await h.createKey({ role: 'viewer', spaces: [space] });
    const outside = byKey('delta').id;
    const res = await readJson<BulkReprocessResult>(
      await h.api('/v1/documents/reprocess', {
        method: 'POST',
        key: viewer,
        json: { documentIds: [other, outside, slow] },
      }),
    );
    expect(res).toEqual({ success: true, queued: [], skippedPending: [], denied: [other, slow], notFound: [outside] });
    expect(await h.db.get("SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')")).toEqual({ n: 0 });
  });

  it('bulk: 1 to 50 uuids; anything else → 400', async () => {
    const post = (body: string | undefined, type: string | null = 'application/json'): Promise<Response> =>
      h.api('/v1/documents/reprocess', {
        method: 'POST',
        ...(body === undefined ? {} : { body }),
        headers: type ? { 'Content-Type': type } : {},
      });
    const uuids = (n: number): string[] => Array.from({ length: n }, () => crypto.randomUUID());
    await expectError(
      await post(JSON.stringify({ documentIds: [] })),
      400,
      'Invalid parameter documentIds: documentIds must have 1 to 50 entries',
    );
    await expectError(
      await post(JSON.stringify({ documentIds: uuids(51) })),
      400,
      'Invalid parameter documentIds: documentIds must have 1 to 50 entries',
    );
    const fifty = await readJson<BulkReprocessResult>(await post(JSON.stringify({ documentIds: uuids(50) })));
    expect(fifty.notFound).toHaveLength(50);
    await expectError(
      await post(JSON.stringify({ documentIds: [slow, 'nope'] })),
      400,
      'Invalid parameter documentIds.1: every entry must be a uuid',
    );
    await expectError(
      await post(JSON.stringify({ documentIds: [1] })),
      400,
      'Invalid parameter documentIds.0: every entry must be a uuid',
    );
    await expectError(
      await post(JSON.stringify({ documentIds: slow })),
      400,
      'Invalid parameter documentIds: documentIds must be an array of uuids',
    );
    await expectError(
      await post(JSON.stringify({})),
      400,
      'Invalid parameter documentIds: documentIds must be an array of uuids',
    );
    await expectError(await post(JSON.stringify({ documentIds: [slow], force: true })), 400, 'Unknown parameter force');
    await expectError(
      await post(JSON.stringify([slow])),
      400,
      'Invalid body: body must be a JSON object { documentIds }',
    );
    await expectError(await post('{"documentIds": ['), 400, 'Malformed JSON body');
    await expectError(await post(''), 400, 'Malformed JSON body');
    await expectError(await post(undefined, null), 400, 'Expected Content-Type application/json');
    await expectError(
      await post(JSON.stringify({ documentIds: [slow] }), 'text/plain'),
      400,
      'Expected Content-Type application/json',
    );
    expect(await h.db.get("SELECT count(*) AS n FROM jobs WHERE state IN ('queued', 'running')")).toEqual({ n: 0 });
  });
});
