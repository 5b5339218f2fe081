/**
 * Vendor-style invoice texts (test/fixtures/vendor-texts): invented documents as a PDF text layer gives them, each
 * with its truth in NN-lang-kind.json. Read by the understanding step alone: the set measures extraction, not PDF
 * or OCR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventType } from '../../../common/archive-types.ts';
import type { Field } from '../fields.ts';
import type { EvalDoc } from './types.ts';

export const VENDOR_TEXT_FIELDS: readonly Field[] = [
  'event_type',
  'sender_name',
  'reference_number',
  'amount',
  'currency',
  'document_date',
  'due_date',
];

interface VendorTruth {
  event_type: EventType;
  sender_name: string;
  reference_number: string | null;
  amount: { value: number; currency: string } | null;
  document_date: string;
  due_date: string | null;
}

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
        fields: VENDOR_TEXT_FIELDS,
        truth: null,
        einvoice: false,
        expected: { ...truth, category: null },
      };
    });
}
