import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ArchiveEvent } from '../../common/archive-types.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

// Senders and references are invented.

let h: Harness;
let fileNo = 0;

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
});
afterAll(async () => {
  await h?.close();
});

const bill = (reference: string, value = 84.2) => ({
  event_type: 'invoice',
  sender_name: 'Stadtwerke Beispiel GmbH',
  reference_number: reference,
  amount: { value, currency: 'EUR' },
  due_date: '2099-03-31',
});

/** Each upload a different file: a second scan of a bill never has the first one's bytes. */
async function upload(metadata: Record<string, unknown>): Promise<string> {
  fileNo++;
  return uploadAndProcess(h, { bytes: await makePdf([`Scan ${fileNo}`]), name: `scan-${fileNo}.pdf` }, { metadata });
}
async function documentOf(id: string): Promise<ArchiveDocument> {
  return ((await (await h.api(`/v1/documents/${id}`)).json()) as { document: ArchiveDocument }).document;
}
async function listed(id: string): Promise<ArchiveDocument | undefined> {
  const body = (await (await h.api('/v1/documents?limit=100')).json()) as { items: ArchiveDocument[] };
  return body.items.find((d) => d.id === id);
}
async function eventOf(documentId: string): Promise<ArchiveEvent> {
  return ((await (await h.api(`/v1/events?document_id=${documentId}`)).json()) as { items: ArchiveEvent[] }).items[0]!;
}

// Every test processes two to four scans, most read by OCR (their text is short): 3-13 s on a quiet machine, and a
// busy CI machine took more than the default 30 s for four.
describe('possible duplicates', { timeout: 60_000 }, () => {
  it('flags the same bill scanned twice on both documents, in lists too, and leaves one open event', async () => {
    const first = await upload(bill('RE-2099-101'));
    expect((await documentOf(first)).possible_duplicate_of).toBeNull();
    const firstSeen = (await documentOf(first)).updated_at;
    const second = await upload({ ...bill('re 2099 101'), sender_name: 'STADTWERKE BEISPIEL' });
    expect((await documentOf(second)).possible_duplicate_of).toBe(first);
    expect((await documentOf(first)).possible_duplicate_of).toBe(second);
    expect((await listed(first))?.possible_duplicate_of).toBe(second);
    // The first one's flag changed: an incremental sync must see it.
    expect((await documentOf(first)).updated_at > firstSeen).toBe(true);
    // The one-invoice rule knows a sender by its name as written, so both bills are open: the flag is what tells a
    // client to count them once.
    expect((await eventOf(first)).state).toBe('open');
    expect((await eventOf(second)).state).toBe('open');
  });

  it('does not flag another amount, another reference or another sender', async () => {
    const base = await upload(bill('RE-2099-202'));
    // Each differs from the base, and from one another, in one fact at least: in any order none is flagged.
    const others = await Promise.all([
      upload(bill('RE-2099-202', 99)),
      upload(bill('RE-2099-203')),
      upload({ ...bill('RE-2099-202'), sender_name: 'Other Utility AG' }),
    ]);
    expect((await documentOf(base)).possible_duplicate_of).toBeNull();
    for (const id of others) expect((await documentOf(id)).possible_duplicate_of).toBeNull();
  });

  it('"not a duplicate" clears both flags for good and opens the second bill', async () => {
    const first = await upload(bill('RE-2099-303'));
    const second = await upload(bill('RE-2099-303'));
    expect((await eventOf(second)).state).toBe('received');
    const res = await h.api(`/v1/documents/${second}`, { method: 'PATCH', json: { possible_duplicate_of: null } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { document: ArchiveDocument }).document.possible_duplicate_of).toBeNull();
    expect((await documentOf(first)).possible_duplicate_of).toBeNull();
    expect(await eventOf(second)).toMatchObject({ state: 'open' });
    const history = (
      (await (await h.api(`/v1/events/${(await eventOf(second)).id}`)).json()) as {
        event: { history: Array<{ to: string; cause: string }> };
      }
    ).event.history;
    expect(history.at(-1)).toMatchObject({ to: 'open', cause: 'not a duplicate: payable with amount' });
    // Reprocessing reads the same facts again: the decision stands.
    expect((await h.api(`/v1/documents/${second}/reprocess`, { method: 'POST' })).status).toBe(202);
    await h.service.processor.idle();
    expect((await documentOf(second)).possible_duplicate_of).toBeNull();
    expect((await eventOf(second)).state).toBe('open');
  });

  it('follows a hand edit: a corrected amount on one copy clears both flags', async () => {
    const first = await upload(bill('RE-2099-606'));
    const second = await upload(bill('RE-2099-606'));
    expect((await documentOf(first)).possible_duplicate_of).toBe(second);
    const res = await h.api(`/v1/events/${(await eventOf(second)).id}`, {
      method: 'PATCH',
      json: { amount: { value: 48.2, currency: 'EUR' } },
    });
    expect(res.status).toBe(200);
    expect((await documentOf(first)).possible_duplicate_of).toBeNull();
    expect((await documentOf(second)).possible_duplicate_of).toBeNull();
    // A sender corrected to the other's flags them again.
    const third = await upload({ ...bill('RE-2099-606'), sender_name: 'Somebody Else' });
    expect((await documentOf(third)).possible_duplicate_of).toBeNull();
    expect(
      (await h.api(`/v1/documents/${third}`, { method: 'PATCH', json: { sender_name: 'Stadtwerke Beispiel GmbH' } }))
        .status,
    ).toBe(200);
    expect((await documentOf(third)).possible_duplicate_of).toBe(first);
  });

  it('refuses any other value than null', async () => {
    const first = await upload(bill('RE-2099-404'));
    const res = await h.api(`/v1/documents/${first}`, { method: 'PATCH', json: { possible_duplicate_of: first } });
    expect(res.status).toBe(400);
  });

  it('deleting the first copy unflags the second and leaves its bill payable', async () => {
    const first = await upload(bill('RE-2099-505'));
    const second = await upload(bill('RE-2099-505'));
    expect((await eventOf(second)).state).toBe('received');
    expect((await h.api(`/v1/documents/${first}`, { method: 'DELETE' })).status).toBe(200);
    expect((await documentOf(second)).possible_duplicate_of).toBeNull();
    expect(await eventOf(second)).toMatchObject({ state: 'open' });
  });
});
