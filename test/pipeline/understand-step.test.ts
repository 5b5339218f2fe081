import { describe, expect, it } from 'vitest';
import { emptyAnalysis, type Analysis } from '../../server/pipeline/analysis.ts';
import { understandStep } from '../../server/pipeline/steps/understand-step.ts';

// Invented documents.
const TEXT =
  'Ostwind Gerüstbau GmbH\nHafenstraße 12\n24103 Kiel\nRechnung Nr. 2027-118\nDatum: 12.03.2027\nGesamtbetrag 480,00 EUR';
/** Net + tax = gross: the total is confirmed by the document's own arithmetic. */
const ADDS_UP =
  'Ostwind Gerüstbau GmbH\nHafenstraße 12\n24103 Kiel\nRechnung Nr. 2027-119\nDatum: 12.03.2027\n' +
  'Nettobetrag 400,00 EUR\nMwSt 19 % 76,00 EUR\nGesamtbetrag 476,00 EUR';
const input = {
  documentId: '00000000-0000-4000-8000-000000000001',
  filePath: '/nonexistent.png',
  format: 'png' as const,
  originalFilename: 'scan.png',
  categories: [],
  today: '2027-04-01',
};

async function fields(text: string, ocrConfidence: number | null): Promise<Analysis['fields']> {
  const analysis = emptyAnalysis();
  analysis.content = text;
  if (ocrConfidence !== null) analysis.fields.ocr_confidence = { value: ocrConfidence, source: 'ocr', confidence: 1 };
  await understandStep.run(input, analysis);
  return analysis.fields;
}

describe('understand step: confidence of fields read by OCR', () => {
  it("scales a name's confidence by how well the page was read, and leaves a text layer's alone", async () => {
    const fromText = (await fields(TEXT, null)).sender_name;
    const fromScan = (await fields(TEXT, 0.6)).sender_name;
    expect(fromText?.value).toBe('Ostwind Gerüstbau GmbH');
    expect(fromScan?.value).toBe('Ostwind Gerüstbau GmbH');
    expect(fromScan!.confidence).toBeCloseTo(Math.round(fromText!.confidence * 0.6 * 100) / 100, 2);
  });

  it('lowers an amount, a date and a reference read from a page read poorly, not from one read clearly', async () => {
    const fromText = await fields(TEXT, null);
    const clear = await fields(TEXT, 0.9);
    const poor = await fields(TEXT, 0.6);
    for (const name of ['amount', 'document_date', 'reference_number']) {
      expect(fromText[name], name).toBeDefined();
      expect(clear[name]!.confidence, name).toBe(fromText[name]!.confidence);
      expect(poor[name]!.value, name).toEqual(fromText[name]!.value);
      expect(poor[name]!.confidence, name).toBeCloseTo((fromText[name]!.confidence * 0.6) / 0.8, 1);
      expect(poor[name]!.confidence, name).toBeLessThan(0.8);
    }
  });

  it("keeps an amount the document's arithmetic confirms, however the page read", async () => {
    const fromText = (await fields(ADDS_UP, null)).amount;
    const poor = (await fields(ADDS_UP, 0.6)).amount;
    expect(fromText?.value).toEqual({ value: 476, currency: 'EUR' });
    expect(fromText!.confidence).toBeGreaterThanOrEqual(0.95);
    expect(poor!.confidence).toBe(fromText!.confidence);
  });
});
