import { readEInvoiceFromPdf } from '../../intelligence/einvoice.ts';
import { understand } from '../../intelligence/understand.ts';
import type { AnalysisStep } from '../analysis.ts';

/**
 * Turns the text (and an embedded ZUGFeRD / Factur-X / XRechnung invoice, which is read first and wins) into field
 * suggestions with their source and confidence. Runs after the text steps; upload metadata overrides it later.
 */
export const understandStep: AnalysisStep = {
  name: 'understand',
  async run(input, analysis) {
    const einvoice = input.format === 'pdf' ? await readEInvoiceFromPdf(input.filePath) : null;
    const understanding = understand({
      text: analysis.content, filename: input.originalFilename, categories: input.categories, einvoice, today: input.today,
      layout: analysis.layout,
    });
    for (const [name, field] of Object.entries(understanding)) {
      if (field) analysis.fields[name] = field;
    }
    if (einvoice) analysis.fields.einvoice = { value: einvoice, source: 'e-invoice', confidence: 1 };
    analysis.title = understanding.title?.value ?? analysis.title;
    const language = understanding.language?.value;
    if (language && language !== 'und') analysis.language ??= language;
  },
};
