/** The fields the evaluation judges, what a document's truth says about them, and how one field is judged. */
import type { Analysis } from '../../server/pipeline/analysis.ts';
import type { Truth } from '../corpus/model.ts';
import { asAmount, asDate, asText, normaliseReference, SENDER_THRESHOLD, senderSimilarity } from './metrics.ts';

export const FIELDS = [
  'event_type',
  'sender_name',
  'reference_number',
  'amount',
  'currency',
  'document_date',
  'due_date',
  'category',
  'contract_start',
  'contract_end',
  'notice_period',
] as const;
export type Field = (typeof FIELDS)[number];
/** A contract's or policy's term: judged only by the sets that label it (the paperwork texts). */
export const TERM_FIELDS: readonly Field[] = ['contract_start', 'contract_end', 'notice_period'];
/** What an invoice's own data names: every field but the category (a space's own choice) and a contract's term. */
export const INVOICE_FIELDS: readonly Field[] = FIELDS.filter(
  (field) => field !== 'category' && !TERM_FIELDS.includes(field),
);

/** The truth of one document; a set judges only the fields it has labels for. */
export type Expected = Pick<
  Truth,
  'event_type' | 'sender_name' | 'reference_number' | 'amount' | 'document_date' | 'due_date'
> & {
  category: string | null;
  /** A contract's term, where the set labels it (YYYY-MM-DD; the notice period as a count and a unit). */
  contract_start?: string | null;
  contract_end?: string | null;
  notice_period?: { count: number; unit: string } | null;
};

export interface Check {
  field: Field;
  expected: unknown;
  got: unknown;
  correct: boolean;
  expectedPresent: boolean;
  gotPresent: boolean;
  /** The confidence the pipeline gave the value (currency shares the amount's), null when it gave none. */
  confidence: number | null;
}

/**
 * Where the truth is null only null counts as right. Sender: token overlap of the normalised names (case,
 * punctuation, diacritics and legal forms ignored) at least SENDER_THRESHOLD. Amount: equal to the cent.
 * Reference: equal ignoring spaces and case. Category: equal ignoring case.
 */
export function compare(expected: Expected, fields: Analysis['fields'], judged: readonly Field[]): Check[] {
  const value = (name: string): unknown => fields[name]?.value ?? null;
  const checks: Check[] = [];
  const add = (field: Field, want: unknown, got: unknown, correct: boolean): void => {
    if (!judged.includes(field)) return;
    const gotPresent = got !== null && got !== undefined && got !== '';
    const source = fields[field === 'currency' ? 'amount' : field];
    checks.push({
      field,
      expected: want,
      got,
      correct,
      expectedPresent: want !== null,
      gotPresent,
      confidence: gotPresent && typeof source?.confidence === 'number' ? source.confidence : null,
    });
  };

  const type = asText(value('event_type'));
  add('event_type', expected.event_type, type, type === expected.event_type);

  const sender = asText(value('sender_name'));
  add(
    'sender_name',
    expected.sender_name,
    sender,
    sender !== null && senderSimilarity(expected.sender_name, sender) >= SENDER_THRESHOLD,
  );

  const reference = asText(value('reference_number'));
  add(
    'reference_number',
    expected.reference_number,
    reference,
    expected.reference_number === null
      ? reference === null
      : reference !== null && normaliseReference(reference) === normaliseReference(expected.reference_number),
  );

  const amount = asAmount(value('amount'));
  const gotValue = amount?.value ?? null;
  add(
    'amount',
    expected.amount?.value ?? null,
    gotValue,
    expected.amount === null
      ? gotValue === null
      : gotValue !== null && Math.round(gotValue * 100) === Math.round(expected.amount.value * 100),
  );
  const gotCurrency = amount?.currency ?? null;
  add(
    'currency',
    expected.amount?.currency ?? null,
    gotCurrency,
    expected.amount === null ? gotCurrency === null : gotCurrency === expected.amount.currency,
  );

  const docDate = asDate(value('document_date'));
  add('document_date', expected.document_date, docDate, docDate === expected.document_date);
  const due = asDate(value('due_date'));
  add('due_date', expected.due_date, due, due === expected.due_date);

  const start = asDate(value('contract_start'));
  add('contract_start', expected.contract_start ?? null, start, start === (expected.contract_start ?? null));
  const end = asDate(value('contract_end'));
  add('contract_end', expected.contract_end ?? null, end, end === (expected.contract_end ?? null));
  const notice = asNotice(value('notice_period'));
  const wantNotice = expected.notice_period ? `${expected.notice_period.count} ${expected.notice_period.unit}` : null;
  add('notice_period', wantNotice, notice, notice === wantNotice);

  const category = asText(value('category'));
  add(
    'category',
    expected.category,
    category,
    category !== null && expected.category !== null && category.toLowerCase() === expected.category.toLowerCase(),
  );
  return checks;
}

/** A notice period as "3 month", or null. */
function asNotice(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const { count, unit } = value as { count?: unknown; unit?: unknown };
  return typeof count === 'number' && typeof unit === 'string' ? `${count} ${unit}` : null;
}
