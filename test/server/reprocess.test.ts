import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail, ArchiveEventDetail } from '../../common/archive-types.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

/** A German electricity invoice whose text names a sender, a number, a date, a total and a due date. */
const INVOICE_LINES = [
  'Stadtwerke Musterstadt GmbH',
  'Hauptstrasse 1, 12345 Musterstadt',
  '',
  'Rechnung',
  'Rechnungsnummer: RE-2026-0815',
  'Rechnungsdatum: 02.11.2026',
  '',
  'Stromlieferung Oktober 2026',
  'Nettobetrag 197,11 EUR',
  'MwSt 19 % 37,45 EUR',
  'Gesamtbetrag 234,56 EUR',
  'Zahlbar bis 30.11.2026',
];
/** A number of its own makes it another bill: the same number from the same sender is a copy of one (one open event). */
const invoicePdf = (extra = '', number = 'RE-2026-0815'): Promise<Uint8Array> =>
  makePdf([...INVOICE_LINES.map((line) => line.replace('RE-2026-0815', number)), extra]);

type Field = { value: unknown; source: string; confidence: number };
interface Doc extends Omit<ArchiveDocumentDetail, 'extracted_data'> {
  extracted_data: Record<string, Field>;
}

let h: Harness;
let utilities = '';
let other = '';
beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  const category = async (name: string): Promise<string> => {
    const res = await h.api('/v1/categories', { method: 'POST', json: { name, space_id: h.defaultSpaceId } });
    return ((await res.json()) as { category: { id: string } }).category.id;
  };
  utilities = await category('Utilities');
  other = await category('Household');
});
afterAll(async () => {
  await h?.close();
});

const documentOf = async (id: string): Promise<Doc> =>
  ((await (await h.api(`/v1/documents/${id}`)).json()) as { document: Doc }).document;
const eventOf = async (documentId: string): Promise<ArchiveEventDetail> => {
  const { document } = (await (await h.api(`/v1/documents/${documentId}`)).json()) as {
    document: { event_ids: string[] };
  };
  return ((await (await h.api(`/v1/events/${document.event_ids[0]!}`)).json()) as { event: ArchiveEventDetail }).event;
};
async function reprocess(id: string): Promise<void> {
  expect((await h.api(`/v1/documents/${id}/reprocess`, { method: 'POST' })).status).toBe(202);
  await h.service.processor.idle();
}

describe('metadata precedence over a real invoice text', () => {
  it('metadata wins field by field; the fields it leaves out come from the text', async () => {
    const id = await uploadAndProcess(
      h,
      { bytes: await invoicePdf('precedence'), name: 'scan_0042.pdf' },
      {
        metadata: {
          amount: { value: 99, currency: 'EUR' },
          sender_name: 'Metadata Energie AG',
          due_date: '2026-12-24',
        },
      },
    );
    const doc = await documentOf(id);
    // The text was read: the pipeline did find its own values, so precedence is really exercised.
    expect(doc.content).toContain('Gesamtbetrag 234,56 EUR');
    expect(doc.sender_name).toBe('Metadata Energie AG');
    expect(doc.document_date).toBe('2026-11-02');
    expect(doc.category_name).toBe('Utilities');
    expect(doc.extracted_data).toMatchObject({
      amount: { value: { value: 99, currency: 'EUR' }, source: 'metadata', confidence: 1 },
      sender_name: { value: 'Metadata Energie AG', source: 'metadata', confidence: 1 },
      due_date: { value: '2026-12-24', source: 'metadata', confidence: 1 },
      reference_number: { value: 'RE-2026-0815', source: 'text' },
      document_date: { value: '2026-11-02', source: 'text' },
      event_type: { value: 'invoice', source: 'text' },
    });
    const event = await eventOf(id);
    expect(event).toMatchObject({
      event_type: 'invoice',
      state: 'open',
      amount: { value: 99, currency: 'EUR' },
      due_date: '2026-12-24',
      sender_name: 'Metadata Energie AG',
      reference_number: 'RE-2026-0815',
    });
  });
});

describe('reprocessing', () => {
  it('rebuilds AI fields: text, title, category, extracted fields and the embedding', async () => {
    const id = await uploadAndProcess(h, { bytes: await invoicePdf('rebuild'), name: 'rebuild.pdf' });
    const fresh = await documentOf(id);
    expect(fresh.extracted_data.amount).toMatchObject({ value: { value: 234.56, currency: 'EUR' }, source: 'text' });
    // What an older pipeline might have left behind.
    await h.db.run(
      `UPDATE documents SET content = 'stale text', title = 'Stale title', category_id = NULL,
      extracted_data = '{"stale":{"value":1,"source":"text","confidence":0.1}}' WHERE id = ?`,
      id,
    );
    await h.db.run('DELETE FROM document_embeddings WHERE document_id = ?', id);
    await reprocess(id);
    const rebuilt = await documentOf(id);
    expect(rebuilt.content).toBe(fresh.content);
    expect(rebuilt.title).toBe(fresh.title);
    expect(rebuilt.title).not.toBe('Stale title');
    expect(rebuilt.category_id).toBe(utilities);
    expect(rebuilt.extracted_data.stale).toBeUndefined();
    expect(rebuilt.extracted_data.amount).toEqual(fresh.extracted_data.amount);
    expect(await h.db.get('SELECT 1 FROM document_embeddings WHERE document_id = ?', id)).toBeDefined();
  });

  it('keeps hand-edited title, document_date and category_id, and extracted_data shows them as edits', async () => {
    const id = await uploadAndProcess(h, { bytes: await invoicePdf('edited'), name: 'edited.pdf' });
    expect((await documentOf(id)).extracted_data.document_date).toMatchObject({ value: '2026-11-02', source: 'text' });
    const res = await h.api(`/v1/documents/${id}`, {
      method: 'PATCH',
      json: { title: 'Strom Oktober', document_date: '2026-10-31', category_id: other },
    });
    expect(res.status).toBe(200);
    const edit = (value: unknown): Field => ({ value, source: 'edit', confidence: 1 });
    const expected = {
      title: 'Strom Oktober',
      document_date: '2026-10-31',
      category_id: other,
      extracted_data: expect.objectContaining({
        title: edit('Strom Oktober'),
        document_date: edit('2026-10-31'),
        category: edit('Household'),
      }) as unknown,
    };
    expect(((await res.json()) as { document: Doc }).document).toMatchObject(expected);
    await reprocess(id);
    const after = await documentOf(id);
    expect(after).toMatchObject(expected);
    // Fields nobody edited are still the pipeline's.
    expect(after.extracted_data.amount).toMatchObject({ source: 'text' });
    expect((await eventOf(id)).title).toBe('Strom Oktober');
  });

  it('keeps a manual payment and its paid state', async () => {
    const id = await uploadAndProcess(h, {
      bytes: await invoicePdf('manual payment', 'RE-2026-0816'),
      name: 'manual-payment.pdf',
    });
    const event = await eventOf(id);
    expect(event.state).toBe('open');
    const paid = await h.api(`/v1/events/${event.id}/state`, {
      method: 'POST',
      json: { state: 'paid', paid_at: '2026-11-20' },
    });
    expect(paid.status).toBe(200);
    const before = await eventOf(id);
    await reprocess(id);
    const after = await eventOf(id);
    expect(after.id).toBe(event.id);
    expect(after.state).toBe('paid');
    expect(after.payments).toEqual(before.payments);
    expect(after.payments).toEqual([
      expect.objectContaining({
        source: 'manual',
        confirmed: true,
        paid_at: '2026-11-20',
        amount: { value: 234.56, currency: 'EUR' },
      }),
    ]);
    expect(after.history).toEqual(before.history);
  });

  it('a state change reprocessing causes is recorded with its cause (needs_input → open)', async () => {
    const id = await uploadAndProcess(h, {
      bytes: await invoicePdf('found amount', 'RE-2026-0817'),
      name: 'found-amount.pdf',
    });
    const event = await eventOf(id);
    // As an earlier pipeline that missed the total would have left it.
    await h.db.run(
      "UPDATE events SET amount_value = NULL, amount_currency = NULL, state = 'needs_input' WHERE id = ?",
      event.id,
    );
    await reprocess(id);
    const after = await eventOf(id);
    expect(after).toMatchObject({ state: 'open', amount: { value: 234.56, currency: 'EUR' } });
    expect(after.history.at(-1)).toEqual({
      from: 'needs_input',
      to: 'open',
      at: expect.any(String),
      cause: 'reprocessed: payable with amount',
    });
  });
});

describe('tags from upload metadata', () => {
  it('are applied by the reprocess that follows a failed first run', async () => {
    const corrupt = new TextEncoder().encode(`%PDF-1.7\n${'not a pdf body \u0001\u00ff '.repeat(300)}`);
    const id = await uploadAndProcess(
      h,
      { bytes: corrupt, name: 'first-fails.pdf' },
      { metadata: { tags: ['Strom', 'Haus'] } },
    );
    const failed = await documentOf(id);
    expect(failed.status).toBe('failed');
    expect(failed.tags).toEqual([]);
    // The stored original becomes readable (as after a reader update), and the document is reprocessed.
    await h.overwriteStoredFile(failed.sha256, await invoicePdf('readable now'));
    await reprocess(id);
    const done = await documentOf(id);
    expect(done.status).toBe('completed');
    expect(done.tags).toEqual(expect.arrayContaining(['Haus', 'Strom']));
  });

  it('are not brought back once the person has edited the tags', async () => {
    const id = await uploadAndProcess(
      h,
      { bytes: await invoicePdf('tags edited'), name: 'tags-edited.pdf' },
      { metadata: { tags: ['Strom'] } },
    );
    expect((await documentOf(id)).tags).toContain('Strom');
    expect((await h.api(`/v1/documents/${id}`, { method: 'PATCH', json: { tags: [] } })).status).toBe(200);
    await reprocess(id);
    const after = await documentOf(id);
    expect(after.tags).toEqual([]);
    expect(after.extracted_data.tags).toEqual({ value: [], source: 'edit', confidence: 1 });
  });
});
