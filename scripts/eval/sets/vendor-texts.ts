/**
 * Vendor-style invoice texts (test/fixtures/vendor-texts): invented documents as a PDF text layer gives them, each
 * with its truth in NN-lang-kind.json. Read by the understanding step alone: the set measures extraction, not PDF
 * or OCR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVOICE_FIELDS, type Expected } from '../fields.ts';
import type { EvalDoc } from './types.ts';

/** The truth file: an invoice's fields as a person reads them (a payment reminder is a notice). */
type VendorTruth = Omit<Expected, 'category'>;

export function loadVendorTexts(dir: string): EvalDoc[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const name = file.replace(/\.txt$/, '');
      const truth = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as VendorTruth;
      return {
        name,
        file,
        filePath: join(dir, file),
        kind: truth.event_type,
        fields: INVOICE_FIELDS,
        truth: null,
        einvoice: false,
        expected: { ...truth, category: null },
      };
    });
}
