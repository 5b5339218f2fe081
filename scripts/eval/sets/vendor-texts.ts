/**
 * Vendor-style invoice texts (test/fixtures/vendor-texts): invented invoices, bills, reminders and receipts as a PDF
 * text layer gives them, each with its truth (an invoice's fields as a person reads them; a payment reminder is a
 * notice). Read by the understanding step alone.
 */
import { INVOICE_FIELDS } from '../fields.ts';
import { loadTextDocuments } from './text-documents.ts';
import type { EvalDoc } from './types.ts';

export function loadVendorTexts(dir: string): EvalDoc[] {
  return loadTextDocuments(dir, () => INVOICE_FIELDS);
}
