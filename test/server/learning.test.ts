import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail, Category } from '../../common/archive-types.ts';
import { normalizeSenderName, senderKeys } from '../../server/learning/sender-identity.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

// Invented senders and accounts; the IBANs carry valid check digits.
const ACCOUNT = 'DE45 1203 0000 1234 5678 90';
const OTHER_ACCOUNT = 'DE11 7605 0000 0098 7654 32';

let h: Harness;
let utilities: Category;

const invoiceLines = (sender: string, account: string | null, number: string): string[] => [
  sender,
  'Gartenweg 3, 12345 Beispielstadt',
  '',
  'Herrn Erik Beispiel',
  'Musterallee 9',
  '54321 Irgendwo',
  '',
  'Rechnung',
  `Rechnungsnummer: ${number}`,
  'Rechnungsdatum: 02.03.2026',
  'Abschlag Strom März',
  'Gesamtbetrag: 84,00 EUR',
  'Zahlbar bis 16.03.2026',
  ...(account ? [`Bankverbindung: IBAN ${account}`] : []),
];

async function uploadInvoice(
  sender: string,
  account: string | null,
  number: string,
  metadata?: unknown,
): Promise<string> {
  const bytes = await makePdf(invoiceLines(sender, account, number));
  return uploadAndProcess(h, { bytes, name: `${number}.pdf` }, metadata ? { metadata } : {});
}
async function document(id: string): Promise<ArchiveDocumentDetail> {
  return ((await (await h.api(`/v1/documents/${id}`)).json()) as { document: ArchiveDocumentDetail }).document;
}
const field = (doc: ArchiveDocumentDetail, name: string) =>
  (doc.extracted_data as Record<string, { value: unknown; source: string }>)[name];

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  const res = await h.api('/v1/categories', {
    method: 'POST',
    json: { name: 'Household energy', space_id: h.defaultSpaceId },
  });
  utilities = ((await res.json()) as { category: Category }).category;
});
afterAll(async () => {
  await h?.close();
});

describe('sender identity keys', () => {
  it("reads bank accounts, VAT ids and register numbers, not the reader's own account", () => {
    const keys = senderKeys(
      [
        'IBAN: DE45 1203 0000 1234 5678 90',
        'USt-IdNr.: DE 123 456 789',
        'Amtsgericht Beispielstadt HRB 98765',
        'Wir buchen von Ihrem Konto IBAN DE11 7605 0000 0098 7654 32 ab',
        'IBAN DE00 1203 0000 1234 5678 90',
      ].join('\n'),
      'Müller & Söhne GmbH',
    );
    expect(keys).toEqual([
      { kind: 'iban', value: 'DE45120300001234567890' },
      { kind: 'vat', value: 'DE123456789' },
      { kind: 'register', value: '98765' },
      { kind: 'name', value: 'mueller soehne' },
    ]);
  });

  it("gives a scan's misreadings the printed number's key: letters for digits, a character glued to an IBAN", () => {
    const printed = senderKeys('CIF: B12345678\nIBAN ES81 3456 7890 1234 5678 9012', null);
    const scanned = senderKeys('CIF: 812345678\nIBAN ES81 3456 7890 1234 5678 9012X', null);
    expect(scanned).toEqual(printed);
    expect(printed.map((k) => k.kind).sort()).toEqual(['iban', 'register']);
  });

  it('normalises a name without case, accents, punctuation or legal form', () => {
    expect(normalizeSenderName('MÜLLER + SÖHNE G.m.b.H.')).toBe(normalizeSenderName('Müller & Söhne GmbH'));
    expect(normalizeSenderName('Éclair Services SARL')).toBe('eclair services');
  });
});

describe('learning from corrections', () => {
  let corrected = '';
  beforeAll(async () => {
    corrected = await uploadInvoice('Lindenhof Energie GmbH', ACCOUNT, 'LE-1001');
    const res = await h.api(`/v1/documents/${corrected}`, {
      method: 'PATCH',
      json: { sender_name: 'Lindenhof Power', category_id: utilities.id, tags: ['Energy', 'House'] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('a later document with the same IBAN and another spelling of the name gets the corrected sender, category and tags', async () => {
    const doc = await document(await uploadInvoice('LINDENHOF Stadtwerk Energievertrieb', ACCOUNT, 'LE-1002'));
    expect(doc.sender_name).toBe('Lindenhof Power');
    expect(doc.category_id).toBe(utilities.id);
    expect([...doc.tags].sort()).toEqual(['Energy', 'House']);
    expect(field(doc, 'sender_name')).toMatchObject({ value: 'Lindenhof Power', source: 'learned' });
    expect(field(doc, 'category')).toMatchObject({ value: 'Household energy', source: 'learned' });
    expect(field(doc, 'tags')).toMatchObject({ source: 'learned' });
  });

  it('a document without the account is recognised by its normalised name', async () => {
    const doc = await document(await uploadInvoice('LINDENHOF ENERGIE G.m.b.H.', null, 'LE-1003'));
    expect(doc.sender_name).toBe('Lindenhof Power');
    expect(doc.category_id).toBe(utilities.id);
  });

  it('another sender learns nothing from it', async () => {
    const doc = await document(await uploadInvoice('Waldblick Wasserwerke AG', OTHER_ACCOUNT, 'WW-77'));
    expect(doc.sender_name).not.toBe('Lindenhof Power');
    expect(Object.values(doc.extracted_data as Record<string, { source: string }>).map((f) => f.source)).not.toContain(
      'learned',
    );
  });

  it('upload metadata still wins over learned values', async () => {
    const doc = await document(
      await uploadInvoice('Lindenhof Energie GmbH', ACCOUNT, 'LE-1004', {
        category: 'Rent',
        sender_name: 'As uploaded',
      }),
    );
    expect(doc.sender_name).toBe('As uploaded');
    expect(doc.category_name).toBe('Rent');
    expect([...doc.tags].sort()).toEqual(['Energy', 'House']);
  });

  it('a sender corrected through PATCH /v1/events/{id} is learned too', async () => {
    const first = await uploadInvoice('Seeblick Versicherung', OTHER_ACCOUNT, 'SV-1');
    const event = ((await (await h.api(`/v1/events?document_id=${first}`)).json()) as { items: Array<{ id: string }> })
      .items[0]!;
    await h.api(`/v1/events/${event.id}`, { method: 'PATCH', json: { sender_name: 'Seeblick Insurance' } });
    const doc = await document(await uploadInvoice('SEEBLICK VERSICHERUNG', null, 'SV-2'));
    expect(field(doc, 'sender_name')).toMatchObject({ value: 'Seeblick Insurance', source: 'learned' });
  });
});
