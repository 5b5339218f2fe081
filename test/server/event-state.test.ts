import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialEventState } from '../../server/events/event-state.ts';
import { expireEndedTerms } from '../../server/events/state-sweeper.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

// Several cases process a short scan twice (OCR, then a reprocess): 10-20 s on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 } });
});
afterAll(() => h.close());

async function eventOf(documentId: string): Promise<{ id: string; state: string }> {
  const res = await h.api(`/v1/events?document_id=${documentId}`);
  const body = (await res.json()) as { items: Array<{ id: string; state: string }> };
  return body.items[0]!;
}

const setState = (id: string, json: unknown, key?: string) =>
  h.api(`/v1/events/${id}/state`, { method: 'POST', json, ...(key ? { key } : {}) });

describe('event state transitions', () => {
  it('pays an open invoice with a confirmed manual payment and records the change', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Invoice 1'), name: 'i1.pdf' },
      { metadata: { event_type: 'invoice', amount: { value: 80, currency: 'EUR' }, due_date: '2030-01-10' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('open');
    const res = await setState(event.id, { state: 'paid', paid_at: '2026-11-20', cause: 'bank transfer' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      event: { state: string; payments: unknown[]; history: Array<{ from: string; to: string; cause: string }> };
    };
    expect(body.event.state).toBe('paid');
    expect(body.event.payments).toEqual([
      expect.objectContaining({
        confirmed: true,
        source: 'manual',
        paid_at: '2026-11-20',
        amount: { value: 80, currency: 'EUR' },
      }),
    ]);
    expect(body.event.history.at(-1)).toMatchObject({ from: 'open', to: 'paid', cause: 'bank transfer' });
  });

  it('refuses a move the state machine does not allow, and bad bodies', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Receipt 1'), name: 'r1.pdf' },
      { metadata: { event_type: 'receipt' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('received');
    const res = await setState(event.id, { state: 'expired' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ success: false, error: 'Cannot change an event from received to expired' });
    expect((await setState(event.id, { state: 'gone' })).status).toBe(400);
    expect((await setState(event.id, { state: 'archived', paid_at: '2026-01-01' })).status).toBe(400);
    expect((await setState(crypto.randomUUID(), { state: 'archived' })).status).toBe(404);
  });

  it('needs editor access in the space', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Contract 1'), name: 'c1.pdf' },
      { metadata: { event_type: 'contract' } },
    );
    const event = await eventOf(doc);
    const viewer = await h.createKey({ role: 'viewer' });
    const res = await setState(event.id, { state: 'cancelled' }, viewer);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('Access denied to this space');
  });

  it('expires contracts whose end date has passed, once, with the cause recorded', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Contract 2'), name: 'c2.pdf' },
      { metadata: { event_type: 'contract', due_date: '2030-06-30' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('active');
    expect(await expireEndedTerms(h.service.db, '2030-06-30')).toBe(0); // the end date itself is still in force
    expect(await expireEndedTerms(h.service.db, '2030-07-01')).toBeGreaterThanOrEqual(1);
    expect(await expireEndedTerms(h.service.db, '2030-07-01')).toBe(0);
    const detail = (await (await h.api(`/v1/events/${event.id}`)).json()) as {
      event: { state: string; history: Array<{ cause: string }> };
    };
    expect(detail.event.state).toBe('expired');
    expect(detail.event.history.at(-1)!.cause).toBe('end date passed');
  });
});

interface Detail {
  id: string;
  state: string;
  event_type: string;
  due_date: string | null;
  amount: { value: number; currency: string } | null;
  reference_number: string | null;
  sender_name: string | null;
  payments: Array<{ confirmed: boolean; source: string; paid_at: string }>;
  history: Array<{ from: string | null; to: string; cause: string }>;
}

const detailOf = async (eventId: string): Promise<Detail> =>
  ((await (await h.api(`/v1/events/${eventId}`)).json()) as { event: Detail }).event;

async function reprocess(documentId: string): Promise<void> {
  expect((await h.api(`/v1/documents/${documentId}/reprocess`, { method: 'POST' })).status).toBe(202);
  await h.service.processor.idle();
}

const patchEvent = (id: string, json: unknown, key?: string) =>
  h.api(`/v1/events/${id}`, { method: 'PATCH', json, ...(key ? { key } : {}) });

describe('decisions a person made survive reprocessing and the sweeper', () => {
  it('received → open by hand stays open after reprocessing', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Kassenbon'), name: 'kept-open.pdf' },
      { metadata: { event_type: 'receipt' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('received');
    expect((await setState(event.id, { state: 'open', cause: 'refund to claim' })).status).toBe(200);
    await reprocess(doc);
    const after = await detailOf(event.id);
    expect(after.state).toBe('open');
    expect(after.history.at(-1)).toMatchObject({ from: 'received', to: 'open', cause: 'refund to claim' });
  });

  it('paid → open (payment reversed) unconfirms the payment, stays open despite paid_at, and paying again confirms once', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Reversed'), name: 'reversed.pdf' },
      {
        metadata: { event_type: 'invoice', amount: { value: 42, currency: 'EUR' }, paid_at: '2026-10-01' },
      },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('paid');
    const reversed = await setState(event.id, { state: 'open', cause: 'payment reversed' });
    expect(reversed.status).toBe(200);
    expect(((await reversed.json()) as { event: Detail }).event.payments).toEqual([
      expect.objectContaining({ source: 'metadata', confirmed: false }),
    ]);
    await reprocess(doc);
    const afterReprocess = await detailOf(event.id);
    expect(afterReprocess.state).toBe('open');
    expect(afterReprocess.payments).toEqual([expect.objectContaining({ source: 'metadata', confirmed: false })]);

    expect((await setState(event.id, { state: 'paid', paid_at: '2026-11-02' })).status).toBe(200);
    const paid = await detailOf(event.id);
    expect(paid.payments.filter((p) => p.confirmed)).toEqual([
      expect.objectContaining({ source: 'manual', paid_at: '2026-11-02' }),
    ]);
    expect(paid.payments).toHaveLength(2);
  });

  it('a renewal (expired → active by hand) is not expired again on its old end date; a new end date expires it', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Renewed contract'), name: 'renewed.pdf' },
      { metadata: { event_type: 'contract', due_date: '2020-01-01' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('expired');
    expect((await setState(event.id, { state: 'active', cause: 'renewed' })).status).toBe(200);
    await expireEndedTerms(h.service.db);
    expect((await detailOf(event.id)).state).toBe('active');
    await reprocess(doc);
    expect((await detailOf(event.id)).state).toBe('active');

    // The renewal's term gets its end date later: that one passes, and the contract expires.
    const patched = await patchEvent(event.id, { due_date: '2030-06-30' });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { event: Detail }).event).toMatchObject({
      state: 'active',
      due_date: '2030-06-30',
    });
    await expireEndedTerms(h.service.db, '2030-06-30');
    expect((await detailOf(event.id)).state).toBe('active');
    await expireEndedTerms(h.service.db, '2030-07-01');
    expect((await detailOf(event.id)).history.at(-1)).toMatchObject({
      from: 'active',
      to: 'expired',
      cause: 'end date passed',
    });
  });

  it('a renewal can carry its new end date in the state change, kept by reprocessing', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Renewed policy'), name: 'renewed-policy.pdf' },
      { metadata: { event_type: 'policy', due_date: '2021-03-31' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('expired');
    const res = await setState(event.id, { state: 'active', due_date: '2031-03-31' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { event: Detail }).event).toMatchObject({ state: 'active', due_date: '2031-03-31' });
    await reprocess(doc);
    expect(await detailOf(event.id)).toMatchObject({ state: 'active', due_date: '2031-03-31' });
    await expireEndedTerms(h.service.db, '2031-04-01');
    expect((await detailOf(event.id)).state).toBe('expired');
    const wrong = await setState(event.id, { state: 'archived', due_date: '2032-01-01' });
    expect(await wrong.json()).toEqual({ success: false, error: 'Invalid parameter due_date: only with state active' });
  });

  it('state_hint active on a contract whose end date had passed at upload stays active', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Tacitly renewed'), name: 'hinted.pdf' },
      { metadata: { event_type: 'contract', due_date: '2020-06-01', state_hint: 'active' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('active');
    await expireEndedTerms(h.service.db);
    expect((await detailOf(event.id)).state).toBe('active');
    await reprocess(doc);
    expect((await detailOf(event.id)).state).toBe('active');
  });

  it('state_hint active with an end date still ahead expires once that date passes', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Hinted running contract'), name: 'hinted-future.pdf' },
      { metadata: { event_type: 'contract', due_date: '2030-09-30', state_hint: 'active' } },
    );
    const event = await eventOf(doc);
    await expireEndedTerms(h.service.db, '2030-10-01');
    expect((await detailOf(event.id)).state).toBe('expired');
  });
});

describe('hand edits from two requests at once', () => {
  it('a document edit whose body arrives slowly keeps an event edit that finished meanwhile', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Invoice for a slow edit'), name: 'slow.pdf' },
      { metadata: { event_type: 'invoice', due_date: '2030-03-01' } },
    );
    const event = await eventOf(doc);
    const body = JSON.stringify({ title: 'Renamed by hand' });
    const { port } = new URL(h.url);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('"success"')) resolve(text);
      });
    });
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // The headers and half the body: the server has read the document row and waits for the rest.
    socket.write(
      `PATCH /v1/documents/${doc} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.adminKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await patchEvent(event.id, { amount: { value: 12.5, currency: 'EUR' } })).status).toBe(200);
    socket.write(body.slice(5));
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();

    const row = (await h.db.get<{ edited_fields: string }>('SELECT edited_fields FROM documents WHERE id = ?', doc))!;
    expect(new Set(JSON.parse(row.edited_fields) as string[])).toEqual(new Set(['title', 'event.amount']));
  });
});

describe('PATCH /v1/events/:id gives an event its missing input', () => {
  it('an invoice without amount cannot be opened by hand, and opens by itself once given an amount', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Invoice without amount'), name: 'needs.pdf' },
      { metadata: { event_type: 'invoice', due_date: '2030-02-01' } },
    );
    const event = await eventOf(doc);
    expect(event.state).toBe('needs_input');
    const refused = await setState(event.id, { state: 'open' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      success: false,
      error: 'Cannot change an event from needs_input to open without an amount (set it with PATCH /v1/events/{id})',
    });

    const res = await patchEvent(event.id, {
      amount: { value: 89.9, currency: 'eur' },
      reference_number: 'INV-77',
      sender_name: 'Hand Sender',
    });
    expect(res.status).toBe(200);
    const edited = ((await res.json()) as { event: Detail }).event;
    expect(edited).toMatchObject({
      state: 'open',
      amount: { value: 89.9, currency: 'EUR' },
      reference_number: 'INV-77',
      sender_name: 'Hand Sender',
    });
    expect(edited.history.at(-1)).toEqual(
      expect.objectContaining({ from: 'needs_input', to: 'open', cause: 'edited: payable with amount' }),
    );

    const document = (
      (await (await h.api(`/v1/documents/${doc}`)).json()) as {
        document: { sender_name: string; extracted_data: Record<string, unknown> };
      }
    ).document;
    expect(document.sender_name).toBe('Hand Sender');
    expect(document.extracted_data.amount).toEqual({
      value: { value: 89.9, currency: 'EUR' },
      source: 'edit',
      confidence: 1,
    });
    expect(document.extracted_data.reference_number).toEqual({ value: 'INV-77', source: 'edit', confidence: 1 });

    // The edits are the person's: reprocessing (whose text has no amount) keeps them, and the state.
    await reprocess(doc);
    expect(await detailOf(event.id)).toMatchObject({
      state: 'open',
      amount: { value: 89.9, currency: 'EUR' },
      reference_number: 'INV-77',
      sender_name: 'Hand Sender',
      due_date: '2030-02-01',
    });
    const again = (
      (await (await h.api(`/v1/documents/${doc}`)).json()) as { document: { extracted_data: Record<string, unknown> } }
    ).document;
    expect(again.extracted_data.amount).toMatchObject({ source: 'edit' });
  });

  it('changes the type and re-decides the state the rules set, never a settled one', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('A letter really a notice'), name: 'notice.pdf' },
      { metadata: { event_type: 'receipt' } },
    );
    const event = await eventOf(doc);
    const res = await patchEvent(event.id, { event_type: 'notice', due_date: '2030-05-05' });
    expect(((await res.json()) as { event: Detail }).event).toMatchObject({ event_type: 'notice', state: 'open' });
    expect((await setState(event.id, { state: 'cancelled' })).status).toBe(200);
    const cancelled = await patchEvent(event.id, { due_date: null });
    expect(((await cancelled.json()) as { event: Detail }).event).toMatchObject({ state: 'cancelled', due_date: null });
  });

  it('needs documents:write and editor access; rejects unknown fields and bad values', async () => {
    const doc = await uploadAndProcess(
      h,
      { bytes: await makePdf('Access'), name: 'access.pdf' },
      { metadata: { event_type: 'invoice' } },
    );
    const event = await eventOf(doc);
    const viewer = await h.createKey({ role: 'viewer' });
    expect(await (await patchEvent(event.id, { amount: null }, viewer)).json()).toEqual({
      success: false,
      error: 'Access denied to this space',
    });
    const readOnly = await h.createKey({ scopes: ['events:read', 'documents:read'] });
    const scoped = await patchEvent(event.id, { amount: null }, readOnly);
    expect({ status: scoped.status, body: await scoped.json() }).toEqual({
      status: 403,
      body: { success: false, error: 'Insufficient scope' },
    });
    const elsewhere = await h.createKey({ spaces: [await h.createSpace('Elsewhere')] });
    expect((await patchEvent(event.id, { amount: null }, elsewhere)).status).toBe(404);
    expect(await (await patchEvent(event.id, { state: 'open' })).json()).toEqual({
      success: false,
      error: 'Unknown parameter state',
    });
    const badCurrency = await patchEvent(event.id, { amount: { value: 1, currency: 'EURO' } });
    expect(badCurrency.status).toBe(400);
    expect(((await badCurrency.json()) as { error: string }).error).toMatch(/^Invalid parameter amount\.currency: /);
    expect((await patchEvent(event.id, { due_date: '2030-02-30' })).status).toBe(400);
    expect((await patchEvent(crypto.randomUUID(), {})).status).toBe(404);
    expect((await detailOf(event.id)).state).toBe('needs_input');
  });
});

describe('initial state from a state_hint', () => {
  const facts = {
    eventType: 'contract' as const,
    hasAmount: false,
    paidAt: null,
    stateHint: 'active' as const,
    today: '2026-11-24',
  };
  it('a hint given while the end date had passed stands; one whose end date passed since expires', () => {
    expect(initialEventState({ ...facts, dueDate: '2020-06-01', hintGivenOn: '2026-11-20' }).state).toBe('active');
    expect(initialEventState({ ...facts, dueDate: '2026-11-21', hintGivenOn: '2026-11-20' })).toEqual({
      state: 'expired',
      cause: 'end date passed',
    });
    expect(initialEventState({ ...facts, dueDate: '2026-11-24', hintGivenOn: '2026-11-20' }).state).toBe('active');
  });
});
