import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCOPES,
  type ArchiveDocument,
  type ArchiveEvent,
  type BulkReprocessResult,
  type Category,
  type KeyInfo,
  type Scope,
  type Space,
} from '../../common/archive-types.ts';
import { buildRouter } from '../../server/archive-service.ts';
import { revokeApiKey } from '../../server/auth/api-keys.ts';
import type { Route } from '../../server/http/router.ts';
import { makePdf, startHarness, testBackend, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

interface ErrorJson {
  success: false;
  error: string;
}
interface List<T> {
  success: true;
  items: T[];
  total: number;
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

let h: Harness;
let pdfCounter = 0;
/** Every upload gets distinct bytes: the same bytes twice in a space would end as a skipped duplicate. */
const uniquePdf = async (label = 'auth') => ({
  bytes: await makePdf(`${label} document number ${++pdfCounter}`),
  name: `${label}-${pdfCounter}.pdf`,
});

async function expectError(res: Response, status: number, message: string): Promise<void> {
  const body = await json<ErrorJson>(res);
  expect({ status: res.status, body }).toEqual({ status, body: { success: false, error: message } });
}

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
});
afterAll(async () => {
  await h?.close();
});

describe('401 Invalid or missing API key', () => {
  const wellFormedUnknown = `das_${'0'.repeat(32)}_${'A'.repeat(43)}`;
  const cases: Array<[string, () => Record<string, string>]> = [
    ['no Authorization header', () => ({})],
    ['Basic scheme', () => ({ Authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` })],
    ['Basic scheme carrying a valid key', () => ({ Authorization: `Basic ${h.adminKey}` })],
    ['Bearer without a key', () => ({ Authorization: 'Bearer' })],
    ['malformed key', () => ({ Authorization: 'Bearer not-a-key' })],
    ['valid key with a character cut off', () => ({ Authorization: `Bearer ${h.adminKey.slice(0, -1)}` })],
    ['unknown well-formed key', () => ({ Authorization: `Bearer ${wellFormedUnknown}` })],
    ['known id with a wrong secret', () => ({ Authorization: `Bearer ${h.adminKey.slice(0, 37)}${'B'.repeat(43)}` })],
  ];
  for (const [name, headers] of cases) {
    it(name, async () => {
      const res = await h.api('/v1/documents', { key: null, headers: headers() });
      await expectError(res, 401, 'Invalid or missing API key');
      expect(res.headers.get('RateLimit-Limit')).toMatch(/^\d+$/);
      expect(res.headers.get('RateLimit-Remaining')).toMatch(/^\d+$/);
      expect(res.headers.get('RateLimit-Reset')).toMatch(/^\d+$/);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    });
  }

  it('a revoked key, at once', async () => {
    const key = await h.createKey({ name: 'to revoke' });
    expect((await h.api('/v1/me', { key })).status).toBe(200);
    expect(await revokeApiKey(h.service.db, keyIdOf(key))).toBe(true);
    const res = await h.api('/v1/me', { key });
    await expectError(res, 401, 'Invalid or missing API key');
    expect(res.headers.get('RateLimit-Remaining')).toMatch(/^\d+$/);
  });

  it('401 comes before 404 and 405: an unknown path does not reveal itself without a key', async () => {
    await expectError(await h.api('/v1/nothing-here', { key: null }), 401, 'Invalid or missing API key');
    await expectError(await h.api('/v1/spaces', { key: null, method: 'DELETE' }), 401, 'Invalid or missing API key');
  });

  it('public routes need no key', async () => {
    expect((await h.api('/v1/health', { key: null })).status).toBe(200);
    expect((await h.api('/v1/openapi.json', { key: null })).status).toBe(200);
  });
});

const keyIdOf = (key: string): string => key.split('_')[1]!;

describe('scope × endpoint matrix (generated from buildRouter().list())', () => {
  const scoped = buildRouter()
    .list()
    .filter((r): r is Route & { scope: Scope } => r.scope !== null && !r.public);
  let sharedDocId = '';
  let eventId = '';

  beforeAll(async () => {
    sharedDocId = await uploadAndProcess(h, await uniquePdf('scope'), {
      metadata: { event_type: 'invoice', amount: { value: 12.5, currency: 'EUR' } },
    });
    const events = await json<List<ArchiveEvent>>(await h.api(`/v1/events?document_id=${sharedDocId}`));
    eventId = events.items[0]!.id;
  });

  it('covers every scope the routes use', () => {
    // tags:write guards a PATCH field rather than a route; it is checked separately below.
    const used = new Set(scoped.map((r) => r.scope));
    expect([...used]).toEqual(expect.arrayContaining(SCOPES.filter((s) => s !== 'tags:write')));
  });

  /** Bodies that make these requests succeed for a fully privileged key. */
  const bodies = (docId: string): Record<string, unknown> => ({
    'PATCH /v1/documents/:id': { title: 'Edited by the scope matrix' },
    'POST /v1/documents/reprocess': { documentIds: [docId] },
    'POST /v1/search': { query: 'document' },
    'POST /v1/categories': { name: `Scope category ${++pdfCounter}`, space_id: h.defaultSpaceId },
  });
  /**
   * Routes for which send() builds a complete request (ids, body), so success is expected. A route added later is
   * still checked for its scope; until it is listed here its request may lack a body, so only "not 401/403" is asserted.
   */
  const WELL_FORMED = new Set([
    'POST /v1/documents',
    'GET /v1/documents',
    'GET /v1/documents/:id',
    'PATCH /v1/documents/:id',
    'DELETE /v1/documents/:id',
    'POST /v1/documents/:id/restore',
    'POST /v1/documents/reprocess',
    'POST /v1/documents/:id/reprocess',
    'GET /v1/document/:id/download',
    'GET /v1/documents/:id/download',
    'GET /v1/events',
    'GET /v1/events/:id',
    'POST /v1/search',
    'GET /v1/spaces',
    'GET /v1/categories',
    'POST /v1/categories',
    'GET /v1/tags',
    'GET /v1/senders',
  ]);

  async function send(route: Route, key: string, docId: string): Promise<Response> {
    if (route.upload) return h.upload(await uniquePdf('scope-upload'), { key });
    const path = route.path.replace(/:[A-Za-z]+/g, route.path.startsWith('/v1/events') ? eventId : docId);
    const body = bodies(docId)[`${route.method} ${route.path}`];
    return h.api(path, { method: route.method, key, ...(body === undefined ? {} : { json: body }) });
  }

  for (const route of scoped) {
    it(`${route.method} ${route.path} needs ${route.scope}`, async () => {
      const without = await h.createKey({
        name: `all but ${route.scope}`,
        scopes: SCOPES.filter((s) => s !== route.scope),
      });
      await expectError(await send(route, without, sharedDocId), 403, 'Insufficient scope');

      // A document of its own, so a DELETE or PATCH here cannot disturb another row of the matrix.
      const ownDoc =
        route.path.includes(':') && !route.path.startsWith('/v1/events')
          ? (await json<{ id: string }>(await h.upload(await uniquePdf('scope-own')))).id
          : sharedDocId;
      const only = await h.createKey({ name: `only ${route.scope}`, scopes: [route.scope] });
      const res = await send(route, only, ownDoc);
      const text = await res.text();
      expect(res.status, text).not.toBe(403);
      expect(res.status, text).not.toBe(401);
      expect(res.status, text).toBeLessThan(WELL_FORMED.has(`${route.method} ${route.path}`) ? 400 : 500);
    });
  }

  it('routes without a scope accept any valid key, even one with no scopes', async () => {
    const none = await h.createKey({ name: 'no scopes', scopes: [] });
    for (const route of buildRouter()
      .list()
      .filter((r) => r.scope === null && !r.public)) {
      const res = await h.api(route.path, { method: route.method, key: none });
      expect(res.status, `${route.method} ${route.path}`).toBe(200);
    }
  });

  it('PATCH of tags needs tags:write on top of documents:write', async () => {
    const key = await h.createKey({ scopes: SCOPES.filter((s) => s !== 'tags:write') });
    await expectError(
      await h.api(`/v1/documents/${sharedDocId}`, { method: 'PATCH', key, json: { tags: ['x'] } }),
      403,
      'Insufficient scope',
    );
    const res = await h.api(`/v1/documents/${sharedDocId}`, {
      method: 'PATCH',
      key: await h.createKey({ scopes: ['documents:write', 'tags:write'] }),
      json: { tags: ['x'] },
    });
    expect(res.status).toBe(200);
  });
});

describe('space restriction', () => {
  let spaceA = '';
  let spaceB = '';
  let docA = '';
  let docB = '';
  let eventB = '';
  let keyA = '';

  beforeAll(async () => {
    spaceA = await h.createSpace('Space A');
    spaceB = await h.createSpace('Space B');
    const invoice = { event_type: 'invoice', amount: { value: 10, currency: 'EUR' }, due_date: '2026-12-01' };
    docA = await uploadAndProcess(h, await uniquePdf('space-a'), {
      space_id: spaceA,
      metadata: { ...invoice, category: 'Cat A' },
    });
    docB = await uploadAndProcess(h, await uniquePdf('space-b'), {
      space_id: spaceB,
      metadata: { ...invoice, category: 'Cat B' },
    });
    eventB = (await json<List<ArchiveEvent>>(await h.api(`/v1/events?document_id=${docB}`))).items[0]!.id;
    keyA = await h.createKey({ name: 'only A', spaces: [spaceA] });
  });

  it('lists only the documents, events, categories and spaces of A', async () => {
    const docs = await json<List<ArchiveDocument>>(await h.api('/v1/documents', { key: keyA }));
    expect(docs.items.map((d) => d.id)).toEqual([docA]);
    expect(docs.total).toBe(1);
    const events = await json<List<ArchiveEvent>>(await h.api('/v1/events', { key: keyA }));
    expect(events.items.map((e) => e.document_id)).toEqual([docA]);
    const categories = await json<List<Category>>(await h.api('/v1/categories', { key: keyA }));
    expect(categories.items.map((c) => c.name)).toEqual(['Cat A']);
    const spaces = await json<List<Space>>(await h.api('/v1/spaces', { key: keyA }));
    expect(spaces.items.map((s) => s.id)).toEqual([spaceA]);
    // Deleted documents of B stay invisible too.
    const deleted = await json<List<ArchiveDocument>>(await h.api('/v1/documents?deleted=true', { key: keyA }));
    expect(deleted.items.every((d) => d.space_id === spaceA)).toBe(true);
  });

  it("B's document is 404 Document not found for every document route", async () => {
    const requests: Array<[string, string, unknown?]> = [
      ['GET', `/v1/documents/${docB}`],
      ['DELETE', `/v1/documents/${docB}`],
      ['PATCH', `/v1/documents/${docB}`, { title: 'x' }],
      ['POST', `/v1/documents/${docB}/restore`],
      ['POST', `/v1/documents/${docB}/reprocess`],
      ['GET', `/v1/document/${docB}/download`],
      ['GET', `/v1/documents/${docB}/download`],
    ];
    for (const [method, path, body] of requests) {
      const res = await h.api(path, { method, key: keyA, ...(body === undefined ? {} : { json: body }) });
      expect(res.headers.get('Location'), `${method} ${path}`).toBeNull();
      await expectError(res, 404, 'Document not found');
    }
    // Nothing happened to it.
    const doc = await json<{ document: ArchiveDocument }>(await h.api(`/v1/documents/${docB}`));
    expect(doc.document.deleted_at).toBeNull();
    expect(doc.document.title).not.toBe('x');
  });

  it("B's event is 404 Event not found", async () => {
    await expectError(await h.api(`/v1/events/${eventB}`, { key: keyA }), 404, 'Event not found');
  });

  it('bulk reprocess reports B under notFound, never queued', async () => {
    const res = await h.api('/v1/documents/reprocess', { method: 'POST', key: keyA, json: { documentIds: [docB] } });
    expect(res.status).toBe(200);
    const body = await json<BulkReprocessResult>(res);
    expect(body).toEqual({ success: true, queued: [], skippedPending: [], denied: [], notFound: [docB] });
  });

  it('writing into B (or the default space, or a space that does not exist) is 403 Access denied to this space', async () => {
    await expectError(
      await h.upload(await uniquePdf('to-b'), { key: keyA, space_id: spaceB }),
      403,
      'Access denied to this space',
    );
    await expectError(await h.upload(await uniquePdf('to-default'), { key: keyA }), 403, 'Access denied to this space');
    await expectError(
      await h.upload(await uniquePdf('to-nowhere'), { key: keyA, space_id: crypto.randomUUID() }),
      403,
      'Access denied to this space',
    );
    await expectError(
      await h.api('/v1/categories', { method: 'POST', key: keyA, json: { name: 'Sneaky', space_id: spaceB } }),
      403,
      'Access denied to this space',
    );
    await expectError(
      await h.api('/v1/categories', {
        method: 'POST',
        key: keyA,
        json: { name: 'Sneaky', space_id: crypto.randomUUID() },
      }),
      403,
      'Access denied to this space',
    );
    const inB = await json<List<ArchiveDocument>>(await h.api(`/v1/documents?space_id=${spaceB}`));
    expect(inB.items.map((d) => d.id)).toEqual([docB]);
  });

  it('space_id=B as a filter is 403 on every list', async () => {
    for (const path of ['/v1/documents', '/v1/events', '/v1/categories']) {
      await expectError(await h.api(`${path}?space_id=${spaceB}`, { key: keyA }), 403, 'Access denied to this space');
    }
    await expectError(
      await h.api('/v1/search', { method: 'POST', key: keyA, json: { query: 'document', space_id: spaceB } }),
      403,
      'Access denied to this space',
    );
    const own = await json<List<ArchiveDocument>>(await h.api(`/v1/documents?space_id=${spaceA}`, { key: keyA }));
    expect(own.items.map((d) => d.id)).toEqual([docA]);
  });

  it('a restricted editor can write in its own space', async () => {
    const res = await h.upload(await uniquePdf('a-editor'), { key: keyA, space_id: spaceA });
    expect(res.status).toBe(202);
    const created = await h.api('/v1/categories', {
      method: 'POST',
      key: keyA,
      json: { name: 'Own', space_id: spaceA },
    });
    expect(created.status).toBe(201);
  });
});

describe('viewer vs editor', () => {
  let doc = '';
  let deletedDoc = '';
  let viewer = '';

  beforeAll(async () => {
    doc = await uploadAndProcess(h, await uniquePdf('viewer'));
    deletedDoc = await uploadAndProcess(h, await uniquePdf('viewer-deleted'));
    expect((await h.api(`/v1/documents/${deletedDoc}`, { method: 'DELETE' })).status).toBe(200);
    viewer = await h.createKey({ name: 'viewer', role: 'viewer' });
  });

  it('a viewer can read', async () => {
    expect((await h.api('/v1/documents', { key: viewer })).status).toBe(200);
    expect((await h.api(`/v1/documents/${doc}`, { key: viewer })).status).toBe(200);
    const download = await h.api(`/v1/document/${doc}/download`, { key: viewer });
    expect(download.status).toBe(302);
    const file = await h.api(download.headers.get('Location')!, { key: null });
    expect(file.status).toBe(200);
    expect((await h.api('/v1/search', { method: 'POST', key: viewer, json: { query: 'viewer' } })).status).toBe(200);
    expect((await h.api('/v1/events', { key: viewer })).status).toBe(200);
  });

  it('a viewer cannot upload, delete, restore, patch, reprocess or create categories', async () => {
    await expectError(
      await h.upload(await uniquePdf('viewer-upload'), { key: viewer }),
      403,
      'Access denied to this space',
    );
    const requests: Array<[string, string, unknown?]> = [
      ['DELETE', `/v1/documents/${doc}`],
      ['POST', `/v1/documents/${deletedDoc}/restore`],
      ['PATCH', `/v1/documents/${doc}`, { title: 'viewer edit' }],
      ['POST', `/v1/documents/${doc}/reprocess`],
      ['POST', '/v1/categories', { name: 'Viewer category', space_id: h.defaultSpaceId }],
    ];
    for (const [method, path, body] of requests) {
      await expectError(
        await h.api(path, { method, key: viewer, ...(body === undefined ? {} : { json: body }) }),
        403,
        'Access denied to this space',
      );
    }
    const after = await json<{ document: ArchiveDocument }>(await h.api(`/v1/documents/${doc}`));
    expect(after.document.deleted_at).toBeNull();
    expect(after.document.title).not.toBe('viewer edit');
    expect(await h.service.processor.jobs.isActive(doc)).toBe(false);
    const stillDeleted = await json<{ document: ArchiveDocument }>(await h.api(`/v1/documents/${deletedDoc}`));
    expect(stillDeleted.document.deleted_at).not.toBeNull();
  });

  it('bulk reprocess by a viewer lists the ids under denied', async () => {
    const missing = crypto.randomUUID();
    const res = await h.api('/v1/documents/reprocess', {
      method: 'POST',
      key: viewer,
      json: { documentIds: [doc, missing] },
    });
    expect(res.status).toBe(200);
    expect(await json<BulkReprocessResult>(res)).toEqual({
      success: true,
      queued: [],
      skippedPending: [],
      denied: [doc],
      notFound: [missing],
    });
  });

  it('an editor can do what the viewer could not', async () => {
    expect((await h.api(`/v1/documents/${doc}`, { method: 'PATCH', json: { title: 'editor edit' } })).status).toBe(200);
    expect((await h.api(`/v1/documents/${deletedDoc}/restore`, { method: 'POST' })).status).toBe(200);
    expect((await h.api(`/v1/documents/${doc}/reprocess`, { method: 'POST' })).status).toBe(202);
    await h.service.processor.idle();
  });
});

describe('GET /v1/me', () => {
  it("returns the key's id, name, role, scopes and spaces", async () => {
    const space = await h.createSpace('Me space');
    const key = await h.createKey({
      name: 'me test',
      role: 'viewer',
      scopes: ['documents:read', 'events:read'],
      spaces: [space],
    });
    const res = await h.api('/v1/me', { key });
    expect(res.status).toBe(200);
    expect(await json<{ success: true; key: KeyInfo }>(res)).toEqual({
      success: true,
      key: {
        id: keyIdOf(key),
        name: 'me test',
        role: 'viewer',
        scopes: ['documents:read', 'events:read'],
        spaces: [space],
      },
    });
    const admin = await json<{ key: KeyInfo }>(await h.api('/v1/me'));
    expect(admin.key.spaces).toBeNull();
    expect([...admin.key.scopes].sort()).toEqual([...SCOPES].sort());
  });
});

describe('key storage', () => {
  // Reads SQLite's own files; on PostgreSQL the same rows are written by the same code (server/auth/api-keys.ts).
  it.skipIf(testBackend() !== 'sqlite')('the raw key is never written to the database files', async () => {
    const key = await h.createKey({ name: 'plaintext check' });
    expect((await h.api('/v1/me', { key })).status).toBe(200);
    const secret = key.slice('das_'.length + 32 + 1); // base64url: the secret itself may contain '_'
    expect(secret).toHaveLength(43);
    const files = ['archive.sqlite', 'archive.sqlite-wal'].map((f) => join(h.dataDir, f)).filter((f) => existsSync(f));
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    // Sanity: the key row is in what we read (its id is stored in the clear).
    expect(bytes.includes(keyIdOf(key))).toBe(true);
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(secret)).toBe(false);
    expect(bytes.includes(Buffer.from(secret, 'base64url').toString('hex'))).toBe(false);
    expect(bytes.includes(Buffer.from(secret, 'base64url'))).toBe(false);
  });
});
