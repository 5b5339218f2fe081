import { readEInvoiceFromPdf } from '../../intelligence/einvoice.ts';
import { CONFIRMED_BY_ARITHMETIC } from '../../intelligence/amounts/label-scores.ts';
import type { ExtractedField } from '../../intelligence/understand.ts';
import { understand } from '../../intelligence/understand.ts';
import type { AnalysisStep } from '../analysis.ts';

/**
 * Turns the text (and an embedded ZUGFeRD / Factur-X / XRechnung invoice, which is read first and wins) into field
 * suggestions with their source and confidence. Runs after the text steps; upload metadata overrides it later.
 */
const NAME_FIELDS = new Set(['sender_name', 'buyer_name']);
/** Values a misread character changes without trace (an IBAN has its checksum, so it is not among them). */
const VALUE_FIELDS = new Set(['amount', 'document_date', 'due_date', 'reference_number']);
/** A page read at least this well keeps its values' confidence; below it they are scaled down in proportion. */
const CLEAR_READING = 0.8;

/**
 * How sure a field read by OCR is: a name is right only if every letter is, so its confidence is scaled by how well
 * the page was read; a value (a few digits) is scaled only when the page read less than clearly. An amount that the
 * document's own arithmetic confirms keeps its confidence: the sum agreeing checks the digits.
 */
function readingConfidence(name: string, field: ExtractedField, ocr: number): number {
  if (field.source !== 'text') return field.confidence;
  let factor = 1;
  if (NAME_FIELDS.has(name)) factor = Math.min(1, ocr);
  else if (VALUE_FIELDS.has(name) && !(name === 'amount' && field.confidence >= CONFIRMED_BY_ARITHMETIC))
    factor = Math.min(1, ocr / CLEAR_READING);
  return Math.round(field.confidence * factor * 100) / 100;
}

export const understandStep: AnalysisStep = {
  name: 'understand',
  async run(input, analysis) {
    const einvoice = input.format === 'pdf' ? await readEInvoiceFromPdf(input.filePath) : null;
    const understanding = understand({
      text: analysis.content,
      filename: input.originalFilename,
      categories: input.categories,
      einvoice,
      today: input.today,
      layout: analysis.layout,
    });
    const ocr = analysis.fields.ocr_confidence?.value;
    for (const [name, field] of Object.entries(understanding)) {
      if (!field) continue;
      analysis.fields[name] =
        typeof ocr === 'number' ? { ...field, confidence: readingConfidence(name, field, ocr) } : field;
    }
    if (einvoice) analysis.fields.einvoice = { value: einvoice, source: 'e-invoice', confidence: 1 };
    analysis.title = understanding.title?.value ?? analysis.title;
    const language = understanding.language?.value;
    if (language && language !== 'und') analysis.language ??= language;
  },
};
