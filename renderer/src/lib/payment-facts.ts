/** What the Document screen's payment card shows: how to pay this document's bill, from its fields and events. */

import type { Amount, ArchiveEvent } from '../../../common/archive-types.ts';
import { groupIban } from '../../../common/payment-codes.ts';
import { epcPayload, type EpcResult } from './epc-payload.ts';
import { extractedFields } from './format.ts';

export interface PaymentFacts {
  payee: string | null;
  /** Compact, as a banking app takes it, and grouped in fours, as people read it. */
  iban: { compact: string; grouped: string } | null;
  bic: string | null;
  reference: string | null;
  amount: Amount | null;
  qr: EpcResult;
}

/** Bills a person pays; a receipt, credit note or payslip asks for no transfer. */
const PAYABLE_TYPES: ReadonlySet<string> = new Set(['invoice', 'notice']);

const text = (data: Record<string, unknown>, name: string): string | null => {
  const value = extractedFields(data).find((f) => f.name === name)?.raw;
  return typeof value === 'string' && value.trim() ? value.trim() : null;
};

/**
 * The payment facts of a document, or null when it names no account and no payment reference. The amount is its
 * payable event's (a hand edit shows there), the reference the extracted payment reference, else the bill's number.
 */
export function paymentFacts(
  doc: { sender_name: string | null; extracted_data: Record<string, unknown> },
  events: readonly ArchiveEvent[],
): PaymentFacts | null {
  const iban = text(doc.extracted_data, 'iban')?.replace(/\s+/g, '').toUpperCase() ?? null;
  const paymentReference = text(doc.extracted_data, 'payment_reference');
  if (!iban && !paymentReference) return null;
  const payable = events.find((e) => PAYABLE_TYPES.has(e.event_type));
  const amount = payable?.amount ?? null;
  const reference = paymentReference ?? payable?.reference_number ?? null;
  const bic = text(doc.extracted_data, 'bic');
  return {
    payee: doc.sender_name,
    iban: iban ? { compact: iban, grouped: groupIban(iban) } : null,
    bic,
    reference,
    amount,
    qr: epcPayload({ name: doc.sender_name, iban, bic, amount, reference }),
  };
}
