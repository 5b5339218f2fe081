import { describe, expect, it } from 'vitest';
import { emptyAnalysis } from '../../server/pipeline/analysis.ts';
import { understandStep } from '../../server/pipeline/steps/understand-step.ts';

// Invented document.
const TEXT =
  'Ostwind Gerüstbau GmbH\nHafenstraße 12\n24103 Kiel\nRechnung Nr. 2027-118\nDatum: 12.03.2027\nGesamtbetrag 480,00 EUR';
const input = {
  documentId: '00000000-0000-4000-8000-000000000001',
  filePath: '/nonexistent.png',
  format: 'png' as const,
  originalFilename: 'scan.png',
  categories: [],
  today: '2027-04-01',
};

async function sender(ocrConfidence: number | null): Promise<{ value: unknown; confidence: number } | undefined> {
  const analysis = emptyAnalysis();
  analysis.content = TEXT;
  if (ocrConfidence !== null) analysis.fields.ocr_confidence = { value: ocrConfidence, source: 'ocr', confidence: 1 };
  await understandStep.run(input, analysis);
  return analysis.fields.sender_name;
}

describe('understand step: confidence of names read by OCR', () => {
  it("scales a name's confidence by how well the page was read, and leaves a text layer's alone", async () => {
    const fromText = await sender(null);
    const fromScan = await sender(0.6);
    expect(fromText?.value).toBe('Ostwind Gerüstbau GmbH');
    expect(fromScan?.value).toBe('Ostwind Gerüstbau GmbH');
    expect(fromScan!.confidence).toBeCloseTo(Math.round(fromText!.confidence * 0.6 * 100) / 100, 2);
  });
});
