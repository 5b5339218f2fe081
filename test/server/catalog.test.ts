import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category, Sender, Space, Tag } from '../../common/archive-types.ts';
import {
  asPostgresAdmin,
  makePdf,
  startHarness,
  testBackend,
  uploadAndProcess,
  type Harness,
} from '../helpers/archive-harness.ts';
import { POSTGRES_URL_ENV } from '../helpers/postgres.ts';

interface List<T> {
  success: true;
  items: T[];
  total: number;
}
interface ErrorJson {
  success: false;
  error: string;
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

let h: Harness;
let spaceA = '';
let spaceB = '';
let keyA = '';

async function list<T>(path: string, key?: string): Promise<List<T>> {
  const res = await h.api(path, key === undefined ? {} : { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<List<T>>(res);
}
async function expectError(res: Response, status: number, message: string): Promise<void> {
  expect({ status: res.status, body: await json<ErrorJson>(res) }).toEqual({
    status,
    body: { success: false, error: message },
  });
}
const createCategory = (body: unknown, key?: string) =>
  h.api('/v1/categories', { method: 'POST', json: body, ...(key === undefined ? {} : { key }) });

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  spaceA = await h.createSpace('Alpha space');
  spaceB = await h.createSpace('Beta space');
  keyA = await h.createKey({ name: 'A only', spaces: [spaceA] });
});
afterAll(async () => {
  await h?.close();
});

describe('categories', () => {
  it('POST creates one: 201 with the record', async () => {
    const res = await createCategory({ name: 'Versicherung', space_id: spaceA });
    expect(res.status).toBe(201);
    const { success, category } = await json<{ success: boolean; category: Category }>(res);
    expect(success).toBe(true);
    expect(category).toMatchObject({ name: 'Versicherung', space_id: spaceA, document_count: 0 });
    expect(category.id).toMatch(/^[0-9a-f-]{36}$/);
    // There is no GET /v1/categories/:id, so no Location header that would point nowhere (docs/api.md).
    expect(res.headers.get('Location')).toBeNull();
  });

  it('a name exists once per space, case-insensitively: 409', async () => {
    for (const name of ['Versicherung', 'versicherung', 'VERSICHERUNG', '  Versicherung  ']) {
      await expectError(await createCategory({ name, space_id: spaceA }), 409, 'Category already exists in this space');
    }
  });

  it('the same name in another space is fine', async () => {
    expect((await createCategory({ name: 'versicherung', space_id: spaceB })).status).toBe(201);
    const all = await list<Category>('/v1/categories');
    expect(
      all.items
        .filter((c) => c.name.toLowerCase() === 'versicherung')
        .map((c) => c.space_id)
        .sort(),
    ).toEqual([spaceA, spaceB].sort());
  });

  it('invalid bodies are 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ space_id: spaceA }, 'Invalid parameter name: must be a string'],
      [{ name: '', space_id: spaceA }, 'Invalid parameter name: must not be empty'],
      [{ name: '   ', space_id: spaceA }, 'Invalid parameter name: must not be empty'],
      [{ name: 7, space_id: spaceA }, 'Invalid parameter name: must be a string'],
      [{ name: 'x'.repeat(201), space_id: spaceA }, 'Invalid parameter name: at most 200 characters'],
      [{ name: 'No space' }, 'Invalid parameter space_id: must be a uuid'],
      [{ name: 'Bad space', space_id: 'abc' }, 'Invalid parameter space_id: must be a uuid'],
      [{ name: 'Extra', space_id: spaceA, color: 'red' }, 'Unknown parameter color'],
    ];
    for (const [body, message] of cases) await expectError(await createCategory(body), 400, message);
  });

  it('a space the key cannot write is 403; an unknown space 404 for an unrestricted key', async () => {
    await expectError(
      await createCategory({ name: 'Nope', space_id: spaceB }, keyA),
      403,
      'Access denied to this space',
    );
    const viewer = await h.createKey({ name: 'viewer', role: 'viewer' });
    await expectError(
      await createCategory({ name: 'Nope', space_id: spaceA }, viewer),
      403,
      'Access denied to this space',
    );
    await expectError(await createCategory({ name: 'Nope', space_id: crypto.randomUUID() }), 404, 'Space not found');
    expect((await list<Category>('/v1/categories')).items.map((c) => c.name)).not.toContain('Nope');
  });

  it('GET lists per space and respects space access', async () => {
    expect((await createCategory({ name: 'Arzt', space_id: spaceA })).status).toBe(201);
    const inA = await list<Category>(`/v1/categories?space_id=${spaceA}`);
    expect(inA.items.map((c) => c.name)).toEqual(['Arzt', 'Versicherung']);
    expect(inA.items.every((c) => c.space_id === spaceA)).toBe(true);
    expect((await list<Category>('/v1/categories', keyA)).items.map((c) => c.name)).toEqual(['Arzt', 'Versicherung']);
    await expectError(
      await h.api(`/v1/categories?space_id=${spaceB}`, { key: keyA }),
      403,
      'Access denied to this space',
    );
    await expectError(await h.api('/v1/categories?space=1'), 400, 'Unknown parameter space');
  });

  it('document_count counts live documents of the category', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Policy letter'), name: 'policy.pdf' },
      {
        space_id: spaceA,
        metadata: { category: 'versicherung' },
      },
    );
    const counted = async () =>
      (await list<Category>(`/v1/categories?space_id=${spaceA}`)).items.find((c) => c.name === 'Versicherung')!;
    expect((await counted()).document_count).toBe(1);
    expect((await h.api(`/v1/documents/${doc}`, { method: 'DELETE' })).status).toBe(200);
    expect((await counted()).document_count).toBe(0);
    // The metadata named an existing category (other case): no second one was made.
    expect((await list<Category>(`/v1/categories?space_id=${spaceA}`)).total).toBe(2);
  });
});

describe('GET /v1/spaces', () => {
  it('lists spaces with access, is_default and ocr_languages, default first', async () => {
    await h.db.run('UPDATE spaces SET ocr_languages = ? WHERE id = ?', '["eng"]', spaceB);
    const all = await list<Space>('/v1/spaces');
    expect(all.items.map((s) => [s.id, s.is_default, s.access])).toEqual([
      [h.defaultSpaceId, true, 'editor'],
      [spaceA, false, 'editor'],
      [spaceB, false, 'editor'],
    ]);
    expect(all.items.map((s) => s.name)).toEqual(['Default', 'Alpha space', 'Beta space']);
    const viewer = await h.createKey({ name: 'viewer of B', role: 'viewer', spaces: [spaceB] });
    const viewed = await list<Space>('/v1/spaces', viewer);
    expect(viewed.items).toEqual([
      {
        id: spaceB,
        name: 'Beta space',
        is_default: false,
        access: 'viewer',
        created_at: expect.any(String),
        ocr_languages: ['eng'],
      },
    ]);
    expect(all.items.map((s) => s.ocr_languages)).toEqual([null, null, ['eng']]);
    expect((await list<Space>('/v1/spaces', keyA)).items.map((s) => s.id)).toEqual([spaceA]);
    await expectError(await h.api('/v1/spaces?x=1'), 400, 'Unknown parameter x');
  });
});

describe('tags and senders', () => {
  beforeAll(async () => {
    const upload = async (text: string, space: string, metadata: Record<string, unknown>) =>
      uploadAndProcess(h, { bytes: await makePdf(text), name: `${text}.pdf` }, { space_id: space, metadata });
    await upload('tagged one', spaceA, {
      tags: ['alpha', 'beta'],
      sender_name: 'Stadtwerke',
      event_type: 'invoice',
      amount: { value: 1, currency: 'EUR' },
    });
    await upload('tagged two', spaceB, { tags: ['Alpha', 'gamma'], sender_name: 'Versicherer AG' });
    const gone = await upload('tagged three', spaceA, { tags: ['deleted-only'], sender_name: 'Vergessen GmbH' });
    expect((await h.api(`/v1/documents/${gone}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('tags: counts over visible, live documents', async () => {
    const all = await list<Tag>('/v1/tags');
    expect(all.items).toEqual([
      { name: 'alpha', document_count: 2 },
      { name: 'beta', document_count: 1 },
      { name: 'gamma', document_count: 1 },
    ]);
    expect((await list<Tag>('/v1/tags', keyA)).items).toEqual([
      { name: 'alpha', document_count: 1 },
      { name: 'beta', document_count: 1 },
    ]);
  });

  it('senders: only those seen through visible documents, with counts', async () => {
    const all = await list<Sender>('/v1/senders');
    expect(all.items.map((s) => [s.name, s.document_count, s.event_count])).toEqual([
      ['Stadtwerke', 1, 1],
      ['Versicherer AG', 1, 0],
    ]);
    expect((await list<Sender>('/v1/senders', keyA)).items.map((s) => s.name)).toEqual(['Stadtwerke']);
    const onlyB = await h.createKey({ name: 'B only', spaces: [spaceB] });
    expect((await list<Sender>('/v1/senders', onlyB)).items.map((s) => s.name)).toEqual(['Versicherer AG']);
  });
});

describe('tag and sender names are kept per space', () => {
  let docA = '';
  let docB = '';
  let keyB = '';
  beforeAll(async () => {
    keyB = await h.createKey({ name: 'B only', spaces: [spaceB] });
    // Space B spells them first: an archive-wide name would show B's spelling in space A.
    docB = await uploadAndProcess(
      h,
      { bytes: await makePdf('per space B'), name: 'b.pdf' },
      {
        space_id: spaceB,
        metadata: {
          tags: ['SharedTag'],
          sender_name: 'Stadtwerke Muster',
          event_type: 'invoice',
          amount: { value: 5, currency: 'EUR' },
        },
      },
    );
    docA = await uploadAndProcess(
      h,
      { bytes: await makePdf('per space A'), name: 'a.pdf' },
      {
        space_id: spaceA,
        metadata: {
          tags: ['SHAREDTAG'],
          sender_name: 'STADTWERKE MUSTER',
          event_type: 'invoice',
          amount: { value: 7, currency: 'EUR' },
        },
      },
    );
  });

  const documentOf = async (id: string, key: string) =>
    (
      await json<{ document: { tags: string[]; sender_name: string | null; event_ids: string[] } }>(
        await h.api(`/v1/documents/${id}`, { key }),
      )
    ).document;
  const eventSender = async (id: string, key: string) =>
    (await json<{ event: { sender_name: string | null } }>(await h.api(`/v1/events/${id}`, { key }))).event.sender_name;

  it("a restricted key sees its own space's spelling everywhere", async () => {
    expect((await list<Tag>('/v1/tags', keyA)).items).toContainEqual({ name: 'SHAREDTAG', document_count: 1 });
    expect((await list<Tag>('/v1/tags', keyA)).items.map((t) => t.name)).not.toContain('SharedTag');
    expect((await list<Sender>('/v1/senders', keyA)).items.map((s) => s.name)).toContain('STADTWERKE MUSTER');
    const a = await documentOf(docA, keyA);
    expect(a).toMatchObject({ tags: ['SHAREDTAG'], sender_name: 'STADTWERKE MUSTER' });
    expect(await eventSender(a.event_ids[0]!, keyA)).toBe('STADTWERKE MUSTER');

    expect((await list<Tag>('/v1/tags', keyB)).items).toEqual([
      { name: 'Alpha', document_count: 1 },
      { name: 'gamma', document_count: 1 },
      { name: 'SharedTag', document_count: 1 },
    ]);
    expect((await list<Sender>('/v1/senders', keyB)).items.map((s) => s.name)).toEqual([
      'Stadtwerke Muster',
      'Versicherer AG',
    ]);
    expect(await documentOf(docB, keyB)).toMatchObject({ tags: ['SharedTag'], sender_name: 'Stadtwerke Muster' });
  });

  it('a key that sees both gets one tag entry counting both, and each space its own sender', async () => {
    const tags = (await list<Tag>('/v1/tags')).items.filter((t) => t.name.toLowerCase() === 'sharedtag');
    expect(tags).toEqual([{ name: 'SharedTag', document_count: 2 }]); // a tie: the spelling first used
    const senders = (await list<Sender>('/v1/senders')).items.filter(
      (s) => s.name.toLowerCase() === 'stadtwerke muster',
    );
    expect(senders.map((s) => [s.name, s.document_count, s.event_count])).toEqual([
      ['Stadtwerke Muster', 1, 1],
      ['STADTWERKE MUSTER', 1, 1],
    ]);
    expect(new Set(senders.map((s) => s.id)).size).toBe(2);
    // Told apart by their spaces as well as their ids.
    expect(new Set(senders.map((s) => s.space_id)).size).toBe(2);
  });

  it("editing in one space never changes the other space's spelling", async () => {
    const patch = (id: string, body: unknown, key: string) =>
      h.api(`/v1/documents/${id}`, { method: 'PATCH', json: body, key });
    expect((await patch(docA, { tags: ['sharedtag', 'Neu'] }, keyA)).status).toBe(200);
    expect((await documentOf(docB, keyB)).tags).toEqual(['SharedTag']);
    expect((await documentOf(docA, keyA)).tags).toEqual(['Neu', 'SHAREDTAG']); // the space's spelling, kept
    const b = await documentOf(docB, keyB);
    expect(
      (
        await h.api(`/v1/events/${b.event_ids[0]!}`, {
          method: 'PATCH',
          json: { sender_name: 'stadtwerke muster' },
          key: keyB,
        })
      ).status,
    ).toBe(200);
    expect((await documentOf(docA, keyA)).sender_name).toBe('STADTWERKE MUSTER');
    expect((await documentOf(docB, keyB)).sender_name).toBe('Stadtwerke Muster');
  });
});

// A database whose collation is not code point order (ICU's root locale, as an en_US database would sort): names still
// come in the order SQLite gives them.
describe.skipIf(testBackend() !== 'postgres')('name order on a database with a language collation', () => {
  const name = `archive_test_icu_${process.pid}`;
  let icu: Harness;
  beforeAll(async () => {
    await asPostgresAdmin(
      `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'und'`,
    );
    const url = new URL(process.env[POSTGRES_URL_ENV]!);
    url.pathname = `/${name}`;
    icu = await startHarness({ database: url.toString() });
  });
  afterAll(async () => {
    await icu?.close();
    await asPostgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('lists spaces, categories and tags in code point order, as on SQLite', async () => {
    const names = ['cherry', 'Banana', 'apple', 'éclair', 'fig'];
    for (const name of names) {
      await icu.createSpace(name);
      const created = await icu.api('/v1/categories', {
        method: 'POST',
        json: { name, space_id: icu.defaultSpaceId },
      });
      expect(created.status).toBe(201);
    }
    const doc = await uploadAndProcess(icu, { bytes: await makePdf('Named things'), name: 'named.pdf' });
    const patched = await icu.api(`/v1/documents/${doc}`, { method: 'PATCH', json: { tags: names } });
    expect(patched.status).toBe(200);
    const listed = async (path: string) =>
      ((await (await icu.api(path)).json()) as { items: Array<{ name: string }> }).items.map((item) => item.name);
    expect((await listed('/v1/spaces')).slice(1)).toEqual(['Banana', 'apple', 'cherry', 'fig', 'éclair']);
    // Compared in lower case: SQLite's lower() and PostgreSQL's agree on ASCII.
    expect(await listed('/v1/categories')).toEqual(['apple', 'Banana', 'cherry', 'fig', 'éclair']);
    expect(await listed('/v1/tags')).toEqual(['apple', 'Banana', 'cherry', 'fig', 'éclair']);
  });
});
