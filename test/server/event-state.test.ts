import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireEndedTerms } from '../../server/events/state-sweeper.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

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
    const doc = await uploadAndProcess(h, { bytes: await makePdf('Invoice 1'), name: 'i1.pdf' },
      { metadata: { event_type: 'invoice', amount: { value: 80, currency: 'EUR' }, due_date: '2030-01-10' } });
    const event = await eventOf(doc);
    expect(event.state).toBe('open');
    const res = await setState(event.id, { state: 'paid', paid_at: '2026-11-20', cause: 'bank transfer' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { event: { state: string; payments: unknown[]; history: Array<{ from: string; to: string; cause: string }> } };
    expect(body.event.state).toBe('paid');
    expect(body.event.payments).toEqual([expect.objectContaining({
      confirmed: true, source: 'manual', paid_at: '2026-11-20', amount: { value: 80, currency: 'EUR' },
    })]);
    expect(body.event.history.at(-1)).toMatchObject({ from: 'open', to: 'paid', cause: 'bank transfer' });
  });

  it('refuses a move the state machine does not allow, and bad bodies', async () => {
    const doc = await uploadAndProcess(h, { bytes: await makePdf('Receipt 1'), name: 'r1.pdf' }, { metadata: { event_type: 'receipt' } });
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
    const doc = await uploadAndProcess(h, { bytes: await makePdf('Contract 1'), name: 'c1.pdf' }, { metadata: { event_type: 'contract' } });
    const event = await eventOf(doc);
    const viewer = h.createKey({ role: 'viewer' });
    const res = await setState(event.id, { state: 'cancelled' }, viewer);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('Access denied to this space');
  });

  it('expires contracts whose end date has passed, once, with the cause recorded', async () => {
    const doc = await uploadAndProcess(h, { bytes: await makePdf('Contract 2'), name: 'c2.pdf' },
      { metadata: { event_type: 'contract', due_date: '2030-06-30' } });
    const event = await eventOf(doc);
    expect(event.state).toBe('active');
    expect(expireEndedTerms(h.service.db, '2030-06-30')).toBe(0); // the end date itself is still in force
    expect(expireEndedTerms(h.service.db, '2030-07-01')).toBeGreaterThanOrEqual(1);
    expect(expireEndedTerms(h.service.db, '2030-07-01')).toBe(0);
    const detail = (await (await h.api(`/v1/events/${event.id}`)).json()) as { event: { state: string; history: Array<{ cause: string }> } };
    expect(detail.event.state).toBe('expired');
    expect(detail.event.history.at(-1)!.cause).toBe('end date passed');
  });
});
