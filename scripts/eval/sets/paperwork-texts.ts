/**
 * Paperwork other than bills (test/fixtures/paperwork-texts): invented contracts, policies, payslips, statements,
 * notices, offers, letters and credit notes as a PDF text layer gives them, each with its truth in NNN-lang-kind.json,
 * a contract's term included. Read by the understanding step alone, as the vendor-style texts are.
 *
 * Two conventions differ between the truths and the archive, so those fields are not judged here: the truths give a
 * due date only where money must be paid by it, while the archive dates a contract, a policy and an offer by the end of
 * its term or validity (the deadline its event reminds of); and the truths give a statement no amount, while the
 * archive reads its closing balance.
 */
import { INVOICE_FIELDS, TERM_FIELDS } from '../fields.ts';
import { loadTextDocuments } from './text-documents.ts';
import type { EvalDoc } from './types.ts';

const DATED_BY_TERM = new Set(['contract', 'policy', 'offer']);
const BALANCE_ONLY = new Set(['statement']);

export function loadPaperworkTexts(dir: string): EvalDoc[] {
  return loadTextDocuments(dir, (truth) =>
    [...INVOICE_FIELDS, ...TERM_FIELDS].filter(
      (field) =>
        !(field === 'due_date' && DATED_BY_TERM.has(truth.event_type)) &&
        !((field === 'amount' || field === 'currency') && BALANCE_ONLY.has(truth.event_type)),
    ),
  );
}
