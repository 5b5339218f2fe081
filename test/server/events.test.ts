import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveEvent, ArchiveEventDetail } from '../../common/archive-types.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

interface List<T> {
  success: true;
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
interface ErrorJson {
  success: false;
  error: string;
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

let h: Harness;
let spaceB = '';
/** Document id by fixture name, and back. */
const docs: Record<string, string> = {};
const nameOf = (documentId: string): string =>
  Object.entries(docs).find(([, id]) => id === documentId)?.[0] ?? documentId;

const EUR = (value: number) => ({ value, currency: 'EUR' });
const FIXTURES: Array<[name: string, metadata: Record<string, unknown> | null, inB?: boolean]> = [
  [
    'open',
    {
      event_type: 'invoice',
      amount: EUR(100),
      due_date: '2026-12-15',
      sender_name: 'Stadtwerke',
      reference_number: 'R-1',
    },
  ],
  ['needsInput', { event_type: 'invoice', due_date: '2026-11-01' }],
  ['paid', { event_type: 'invoice', amount: EUR(50), due_date: '2026-01-31', paid_at: '2026-01-10' }],
  ['active', { event_type: 'contract', due_date: '2099-12-31' }],
  ['expired', { event_type: 'contract', due_date: '2020-01-01' }],
  ['received', { event_type: 'receipt', amount: EUR(9.99) }],
  ['hintOpen', { event_type: 'invoice', state_hint: 'open' }],
  ['hintActive', { event_type: 'contract', due_date: '2020-06-01', state_hint: 'active' }],
  ['implicitInvoice', { amount: EUR(20) }],
  ['inB', { event_type: 'invoice', amount: EUR(70), due_date: '2026-12-20' }, true],
  ['plain', null],
];

async function listEvents(query = '', key?: string): Promise<List<ArchiveEvent>> {
  const res = await h.api(`/v1/events${query}`, key === undefined ? {} : { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<List<ArchiveEvent>>(res);
}
const names = (list: List<ArchiveEvent>): string[] => list.items.map((e) => nameOf(e.document_id)).sort();
const eventOf = async (name: string): Promise<ArchiveEvent> =>
  (await listEvents(`?document_id=${docs[name]}`)).items[0]!;

async function expectError(res: Response, status: number, message: string): Promise<void> {
  expect({ status: res.status, body: await json<ErrorJson>(res) }).toEqual({
    status,
    body: { success: false, error: message },
  });
}

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  spaceB = await h.createSpace('B');
  for (const [name, metadata, inB] of FIXTURES) {
    const res = await h.upload(
      { bytes: await makePdf(`Event fixture ${name}`), name: `${name}.pdf` },
      {
        ...(metadata ? { metadata } : {}),
        ...(inB ? { space_id: spaceB } : {}),
      },
    );
    expect(res.status).toBe(202);
    docs[name] = (await json<{ id: string }>(res)).id;
  }
  await h.service.processor.idle();
});
afterAll(async () => {
  await h?.close();
});

describe('events from upload metadata', () => {
  it('each document gets the state its metadata calls for', async () => {
    const list = await listEvents('?limit=100');
    const states = Object.fromEntries(list.items.map((e) => [nameOf(e.document_id), e.state]));
    expect(states).toEqual({
      open: 'open',
      needsInput: 'needs_input',
      paid: 'paid',
      active: 'active',
      expired: 'expired',
      received: 'received',
      hintOpen: 'open',
      hintActive: 'active',
      implicitInvoice: 'open',
      inB: 'open',
    });
    expect(list.total).toBe(10); // 'plain' has no metadata and no event
  });

  it('an event carries amount, due date, reference, sender and its document', async () => {
    const event = await eventOf('open');
    expect(event).toMatchObject({
      document_id: docs.open,
      space_id: h.defaultSpaceId,
      event_type: 'invoice',
      state: 'open',
      amount: { value: 100, currency: 'EUR' },
      due_date: '2026-12-15',
      reference_number: 'R-1',
      sender_name: 'Stadtwerke',
    });
    expect((await eventOf('implicitInvoice')).event_type).toBe('invoice');
  });

  it('paid_at: state paid, a confirmed metadata payment and the history', async () => {
    const { id } = await eventOf('paid');
    const res = await h.api(`/v1/events/${id}`);
    expect(res.status).toBe(200);
    const { success, event } = await json<{ success: boolean; event: ArchiveEventDetail }>(res);
    expect(success).toBe(true);
    expect(event.state).toBe('paid');
    expect(event.payments).toEqual([
      {
        id: expect.any(String),
        paid_at: '2026-01-10',
        confirmed: true,
        source: 'metadata',
        amount: { value: 50, currency: 'EUR' },
        created_at: expect.any(String),
      },
    ]);
    expect(event.history).toEqual([{ from: null, to: 'paid', at: expect.any(String), cause: expect.any(String) }]);
    expect(event.document).toMatchObject({
      id: docs.paid,
      space_id: h.defaultSpaceId,
      status: 'completed',
      original_filename: 'paid.pdf',
    });
  });

  it('the document detail links its events', async () => {
    const { document } = await json<{ document: { event_ids: string[] } }>(await h.api(`/v1/documents/${docs.open}`));
    expect(document.event_ids).toEqual([(await eventOf('open')).id]);
  });
});

describe('GET /v1/events filters', () => {
  it('state and event_type', async () => {
    expect(names(await listEvents('?state=open'))).toEqual(['hintOpen', 'implicitInvoice', 'inB', 'open']);
    expect(names(await listEvents('?state=needs_input'))).toEqual(['needsInput']);
    expect(names(await listEvents('?event_type=contract'))).toEqual(['active', 'expired', 'hintActive']);
    expect(names(await listEvents('?event_type=contract&state=expired'))).toEqual(['expired']);
    expect(names(await listEvents('?state=cancelled'))).toEqual([]);
  });

  it('due_before and due_after include the boundary date', async () => {
    expect(names(await listEvents('?due_before=2026-12-15'))).toEqual([
      'expired',
      'hintActive',
      'needsInput',
      'open',
      'paid',
    ]);
    expect(names(await listEvents('?due_before=2026-12-14'))).toEqual(['expired', 'hintActive', 'needsInput', 'paid']);
    expect(names(await listEvents('?due_after=2026-12-15'))).toEqual(['active', 'inB', 'open']);
    expect(names(await listEvents('?due_after=2026-12-16'))).toEqual(['active', 'inB']);
    expect(names(await listEvents('?due_after=2026-12-15&due_before=2026-12-15'))).toEqual(['open']);
  });

  it('space_id and document_id', async () => {
    expect(names(await listEvents(`?space_id=${spaceB}`))).toEqual(['inB']);
    expect((await listEvents(`?space_id=${h.defaultSpaceId}`)).total).toBe(9);
    expect(names(await listEvents(`?document_id=${docs.needsInput}`))).toEqual(['needsInput']);
    expect(names(await listEvents(`?document_id=${docs.plain}`))).toEqual([]);
    expect(names(await listEvents(`?document_id=${crypto.randomUUID()}`))).toEqual([]);
  });

  it('limit 1-100 (default 25) and offset page through without overlap', async () => {
    const all = await listEvents();
    expect(all).toMatchObject({ success: true, limit: 25, offset: 0, total: 10 });
    expect(all.items).toHaveLength(10);
    const pages: string[] = [];
    for (let offset = 0; offset < 10; offset += 3) {
      const page = await listEvents(`?limit=3&offset=${offset}`);
      expect(page).toMatchObject({ limit: 3, offset, total: 10 });
      pages.push(...page.items.map((e) => e.id));
    }
    expect(pages).toEqual(all.items.map((e) => e.id));
    expect((await listEvents('?limit=100')).limit).toBe(100);
    expect((await listEvents('?limit=1')).items).toHaveLength(1);
    expect((await listEvents('?offset=10')).items).toEqual([]);
  });

  it('soonest due date first, undated last', async () => {
    const dues = (await listEvents()).items.map((e) => e.due_date);
    const dated = dues.filter((d) => d !== null);
    expect(dated).toEqual([...dated].sort());
    expect(dues.slice(dated.length).every((d) => d === null)).toBe(true);
  });

  it('invalid values are 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'Invalid parameter limit: expected an integer from 1 to 100'],
      ['limit=101', 'Invalid parameter limit: expected an integer from 1 to 100'],
      ['limit=abc', 'Invalid parameter limit: expected an integer from 1 to 100'],
      ['offset=-1', 'Invalid parameter offset: expected an integer of at least 0'],
      ['due_before=2026-13-01', 'Invalid parameter due_before: expected a date YYYY-MM-DD'],
      ['due_after=15.12.2026', 'Invalid parameter due_after: expected a date YYYY-MM-DD'],
      ['due_before=2026-02-30', 'Invalid parameter due_before: expected a date YYYY-MM-DD'],
      ['due_after=2026-12-15T00:00:00Z', 'Invalid parameter due_after: expected a date YYYY-MM-DD'],
      ['space_id=abc', 'Invalid parameter space_id: expected a uuid'],
      ['document_id=123', 'Invalid parameter document_id: expected a uuid'],
      ['foo=1', 'Unknown parameter foo'],
      ['state=open&state=paid', 'Invalid parameter state: given more than once'],
    ];
    for (const [query, message] of cases) await expectError(await h.api(`/v1/events?${query}`), 400, message);
    const state = await json<ErrorJson>(await h.api('/v1/events?state=done'));
    expect(state.error).toMatch(/^Invalid parameter state: expected one of .*needs_input/);
    const type = await json<ErrorJson>(await h.api('/v1/events?event_type=bill'));
    expect(type.error).toMatch(/^Invalid parameter event_type: expected one of .*credit_note/);
  });

  it('GET /v1/events/:id: unknown id 404, malformed id 400', async () => {
    await expectError(await h.api(`/v1/events/${crypto.randomUUID()}`), 404, 'Event not found');
    await expectError(await h.api('/v1/events/not-a-uuid'), 400, 'Invalid parameter id: expected a uuid');
  });
});

describe('visibility', () => {
  it('events of spaces the key cannot see are neither listed nor found', async () => {
    const key = await h.createKey({ name: 'default only', spaces: [h.defaultSpaceId] });
    const list = await listEvents('?limit=100', key);
    expect(list.total).toBe(9);
    expect(names(list)).not.toContain('inB');
    const inB = await eventOf('inB');
    await expectError(await h.api(`/v1/events/${inB.id}`, { key }), 404, 'Event not found');
    await expectError(await h.api(`/v1/events?space_id=${spaceB}`, { key }), 403, 'Access denied to this space');
    // Filtering by the id of B's document reveals nothing either.
    expect((await listEvents(`?document_id=${docs.inB}`, key)).items).toEqual([]);
  });

  it('events of a soft-deleted document disappear and come back on restore', async () => {
    const event = await eventOf('open');
    expect((await h.api(`/v1/documents/${docs.open}`, { method: 'DELETE' })).status).toBe(200);
    expect(names(await listEvents('?limit=100'))).not.toContain('open');
    expect((await listEvents(`?document_id=${docs.open}`)).items).toEqual([]);
    await expectError(await h.api(`/v1/events/${event.id}`), 404, 'Event not found');

    expect((await h.api(`/v1/documents/${docs.open}/restore`, { method: 'POST' })).status).toBe(200);
    const back = await h.api(`/v1/events/${event.id}`);
    expect(back.status).toBe(200);
    expect((await json<{ event: ArchiveEventDetail }>(back)).event).toMatchObject({ id: event.id, state: 'open' });
    expect(names(await listEvents('?limit=100'))).toContain('open');
  });
});

describe('reprocessing', () => {
  it('keeps a paid event paid, with its one payment and its history', async () => {
    const { id } = await eventOf('paid');
    const before = (await json<{ event: ArchiveEventDetail }>(await h.api(`/v1/events/${id}`))).event;
    const res = await h.api(`/v1/documents/${docs.paid}/reprocess`, { method: 'POST' });
    expect(res.status).toBe(202);
    await h.service.processor.idle();
    const after = (await json<{ event: ArchiveEventDetail }>(await h.api(`/v1/events/${id}`))).event;
    expect(after.state).toBe('paid');
    expect(after.payments).toEqual(before.payments);
    expect(after.history).toEqual(before.history);
    expect((await listEvents(`?document_id=${docs.paid}`)).total).toBe(1);
  });

  it('keeps a paid state the metadata does not explain (settled by hand)', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Settled by hand'), name: 'settled.pdf' },
      {
        metadata: { event_type: 'invoice', amount: EUR(30) },
      },
    );
    const event = (await listEvents(`?document_id=${doc}`)).items[0]!;
    expect(event.state).toBe('open');
    await h.db.run("UPDATE events SET state = 'paid' WHERE id = ?", event.id);
    expect((await h.api(`/v1/documents/${doc}/reprocess`, { method: 'POST' })).status).toBe(202);
    await h.service.processor.idle();
    expect((await listEvents(`?document_id=${doc}`)).items[0]!.state).toBe('paid');
  });

  it('refreshes an unsettled event in place (same id, no second event)', async () => {
    const event = await eventOf('needsInput');
    expect((await h.api(`/v1/documents/${docs.needsInput}/reprocess`, { method: 'POST' })).status).toBe(202);
    await h.service.processor.idle();
    const list = await listEvents(`?document_id=${docs.needsInput}`);
    expect(list.items.map((e) => [e.id, e.state])).toEqual([[event.id, 'needs_input']]);
  });
});
