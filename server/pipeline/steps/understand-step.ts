import { readEInvoiceFromPdf } from '../../intelligence/einvoice.ts';
import { understand } from '../../intelligence/understand.ts';
import type { AnalysisStep } from '../analysis.ts';

/**
 * Turns the text (and an embedded ZUGFeRD / Factur-X / XRechnung invoice, which is read first and wins) into field
 * suggestions with their source and confidence. Runs after the text steps; upload metadata overrides it later.
 */
const NAME_FIELDS = new Set(['sender_name', 'buyer_name']);

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
      // A name read by OCR is right only if every letter is: its confidence is scaled by how well the page was read.
      const scaled =
        typeof ocr === 'number' && field.source === 'text' && NAME_FIELDS.has(name)
          ? { ...field, confidence: Math.round(field.confidence * Math.min(1, ocr) * 100) / 100 }
          : field;
      analysis.fields[name] = scaled;
    }
    if (einvoice) analysis.fields.einvoice = { value: einvoice, source: 'e-invoice', confidence: 1 };
    analysis.title = understanding.title?.value ?? analysis.title;
    const language = understanding.language?.value;
    if (language && language !== 'und') analysis.language ??= language;
  },
};
