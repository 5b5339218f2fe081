import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArchiveEvent, ArchiveEventDetail } from '../../common/archive-types.ts';
import { applyAnalysis } from '../../server/pipeline/apply-analysis.ts';
import { emptyAnalysis } from '../../server/pipeline/analysis.ts';
import { noticeDeadline } from '../../server/events/notice-deadline.ts';
import { expireEndedTerms } from '../../server/events/state-sweeper.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

// Tests here process two or three documents each, one after another:
// 14-18 s each on a busy CI machine, close to the default 30 s.
vi.setConfig({ testTimeout: 60_000 });

interface List<T> {
  success: true;
  items: T[];
  total: number;
}

let h: Harness;
let fileNo = 0;
const EUR = (value: number) => ({ value, currency: 'EUR' });

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
});
afterAll(async () => {
  await h?.close();
});

/** Each upload a different file, so none is a byte-for-byte duplicate of another. */
async function upload(metadata: Record<string, unknown>, lines: string[] = []): Promise<string> {
  fileNo++;
  return uploadAndProcess(
    h,
    { bytes: await makePdf([`Document ${fileNo}`, ...lines]), name: `doc-${fileNo}.pdf` },
    { metadata },
  );
}
async function eventsOf(documentId: string): Promise<ArchiveEvent[]> {
  const res = await h.api(`/v1/events?document_id=${documentId}`);
  return ((await res.json()) as List<ArchiveEvent>).items;
}
async function detail(eventId: string): Promise<ArchiveEventDetail> {
  return ((await (await h.api(`/v1/events/${eventId}`)).json()) as { event: ArchiveEventDetail }).event;
}

describe('credit notes', () => {
  it('are stored negative and never open, whatever the hint or a person asks', async () => {
    const id = await upload({
      event_type: 'credit_note',
      amount: EUR(5),
      state_hint: 'open',
      sender_name: 'Invented Shop',
    });
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({ event_type: 'credit_note', state: 'received', amount: EUR(-5) });
    const res = await h.api(`/v1/events/${event!.id}/state`, { method: 'POST', json: { state: 'open' } });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      success: false,
      error: 'Cannot change a credit note to open: it asks for no payment',
    });
  });

  it('an amount of zero or less is refused for any other type', async () => {
    for (const metadata of [{ amount: EUR(-5) }, { event_type: 'invoice', amount: EUR(0) }]) {
      const res = await h.upload({ bytes: await makePdf('Minus five'), name: 'minus.pdf' }, { metadata });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        success: false,
        error: 'Invalid metadata: amount.value must be greater than 0 unless event_type is credit_note',
      });
    }
  });

  it('a document typed credit note by hand gets its amount negative', async () => {
    const id = await upload({ event_type: 'invoice', amount: EUR(12.5), due_date: '2099-01-31' });
    const [event] = await eventsOf(id);
    expect(event).toMatchObject({ state: 'open', amount: EUR(12.5) });
    const res = await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { event_type: 'credit_note' } });
    expect(res.status).toBe(200);
    expect((await eventsOf(id))[0]).toMatchObject({ event_type: 'credit_note', state: 'received', amount: EUR(-12.5) });
  });
});

describe("the document's type set by hand", () => {
  it('gives a document without an event one of that type, kept by reprocessing', async () => {
    const id = await upload({});
    expect(await eventsOf(id)).toEqual([]);
    const res = await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { event_type: 'invoice' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { extracted_data: Record<string, unknown> } };
    expect(body.document.extracted_data.event_type).toMatchObject({ value: 'invoice', source: 'edit' });
    expect(await eventsOf(id)).toMatchObject([{ event_type: 'invoice', state: 'needs_input' }]);
    await h.api(`/v1/documents/${id}/reprocess`, { method: 'POST' });
    await h.service.processor.idle();
    expect(await eventsOf(id)).toMatchObject([{ event_type: 'invoice', state: 'needs_input' }]);
  });
});

describe('one invoice, one open event', () => {
  it('a second copy of an invoice (same reference and sender) opens nothing', async () => {
    const bill = {
      event_type: 'invoice',
      amount: EUR(120),
      due_date: '2099-03-01',
      reference_number: 'INV-4711',
      sender_name: 'Invented Plumbing',
    };
    const first = await upload(bill);
    const second = await upload({ ...bill, reference_number: 'inv 4711' });
    const [original] = await eventsOf(first);
    const [copy] = await eventsOf(second);
    expect(original!.state).toBe('open');
    expect(copy!.state).toBe('received');
    expect((await detail(copy!.id)).history[0]!.cause).toBe(`same invoice as event ${original!.id}`);
    // Reprocessing the first copy leaves it the open one.
    await h.api(`/v1/documents/${first}/reprocess`, { method: 'POST' });
    await h.service.processor.idle();
    expect((await eventsOf(first))[0]!.state).toBe('open');
  });

  it("another sender's invoice with the same number is a bill of its own", async () => {
    const first = await upload({
      event_type: 'invoice',
      amount: EUR(10),
      reference_number: 'A-1001',
      sender_name: 'Invented Bakery',
    });
    const second = await upload({
      event_type: 'invoice',
      amount: EUR(10),
      reference_number: 'A-1001',
      sender_name: 'Invented Garage',
    });
    expect((await eventsOf(first))[0]!.state).toBe('open');
    expect((await eventsOf(second))[0]!.state).toBe('open');
  });

  it('a payment reminder about an invoice opens no second payable', async () => {
    const invoice = await upload({
      event_type: 'invoice',
      amount: EUR(80),
      reference_number: 'R-2099-15',
      sender_name: 'Invented Telecom',
    });
    const reminder = await upload({
      event_type: 'notice',
      due_date: '2099-05-01',
      reference_number: 'R-2099-15',
      sender_name: 'Invented Telecom',
    });
    const [original] = await eventsOf(invoice);
    const [notice] = await eventsOf(reminder);
    expect(notice).toMatchObject({ event_type: 'notice', state: 'received' });
    expect((await detail(notice!.id)).history[0]!.cause).toBe(`reminder about event ${original!.id}`);
    const open = (await (await h.api('/v1/events?state=open&limit=100')).json()) as List<ArchiveEvent>;
    expect(open.items.filter((e) => e.reference_number === 'R-2099-15').map((e) => e.id)).toEqual([original!.id]);
  });
});

describe("a contract's notice deadline", () => {
  it("is the end minus the notice period, the month's last day when shorter", () => {
    expect(noticeDeadline('2099-12-31', { count: 3, unit: 'month' })).toBe('2099-09-30');
    expect(noticeDeadline('2027-03-31', { count: 1, unit: 'month' })).toBe('2027-02-28');
    expect(noticeDeadline('2027-03-31', { count: 2, unit: 'week' })).toBe('2027-03-17');
    expect(noticeDeadline('2027-03-31', { count: 30, unit: 'day' })).toBe('2027-03-01');
    expect(noticeDeadline('2028-06-30', { count: 1, unit: 'year' })).toBe('2027-06-30');
  });

  it("is read from a contract's own text: an uploaded rental agreement gets its notice event", async () => {
    // Invented wording; the rules read the term's end and the notice period, the event writer the deadline.
    const id = await upload({}, [
      'Mietvertrag über eine Garage',
      'Zwischen der Invented Vermietung GmbH und Frau Erika Beispiel',
      'Mietbeginn: 01.04.2097',
      'Das Mietverhältnis endet am 31.03.2099.',
      'Kündigungsfrist: 3 Monate zum Vertragsende.',
    ]);
    const events = await eventsOf(id);
    expect(events.find((e) => e.event_type === 'notice')).toMatchObject({ state: 'open', due_date: '2098-12-31' });
  });

  it("becomes a notice event of the contract's document, follows reprocessing and is not edited by hand", async () => {
    const id = await upload({ event_type: 'contract', due_date: '2099-12-31', sender_name: 'Invented Landlord' });
    const contractTerms = {
      ...emptyAnalysis(),
      content: 'Rental agreement',
      title: 'Rental agreement',
      fields: {
        event_type: { value: 'contract', source: 'text', confidence: 0.9 },
        contract_start: { value: '2090-01-01', source: 'text', confidence: 0.8 },
        contract_end: { value: '2099-12-31', source: 'text', confidence: 0.8 },
        notice_period: { value: { count: 3, unit: 'month' }, source: 'text', confidence: 0.8 },
      },
    };
    await applyAnalysis(h.service.db, id, contractTerms, false);
    const events = await eventsOf(id);
    const notice = events.find((e) => e.event_type === 'notice');
    expect(events.find((e) => e.event_type === 'contract')).toMatchObject({ state: 'active', due_date: '2099-12-31' });
    expect(notice).toMatchObject({ state: 'open', due_date: '2099-09-30', sender_name: 'Invented Landlord' });

    const patch = await h.api(`/v1/events/${notice!.id}`, { method: 'PATCH', json: { due_date: '2099-01-01' } });
    expect(patch.status).toBe(409);

    // The day after the deadline the sweeper expires it; the contract itself still runs.
    await expireEndedTerms(h.service.db, '2099-10-01');
    expect((await eventsOf(id)).map((e) => [e.event_type, e.state]).sort()).toEqual([
      ['contract', 'active'],
      ['notice', 'expired'],
    ]);
    expect((await detail(notice!.id)).history.at(-1)!.cause).toBe('notice deadline passed');

    // A longer period moves the deadline (and, still ahead, reopens it); without one the derived event goes.
    await applyAnalysis(
      h.service.db,
      id,
      {
        ...contractTerms,
        fields: {
          ...contractTerms.fields,
          notice_period: { value: { count: 6, unit: 'month' }, source: 'text', confidence: 0.8 },
        },
      },
      false,
    );
    expect((await eventsOf(id)).find((e) => e.id === notice!.id)).toMatchObject({
      due_date: '2099-06-30',
      state: 'open',
    });
    const { notice_period: _dropped, ...withoutPeriod } = contractTerms.fields;
    await applyAnalysis(h.service.db, id, { ...contractTerms, fields: withoutPeriod }, false);
    expect((await eventsOf(id)).map((e) => e.event_type)).toEqual(['contract']);
  });
});
