import type { Amount } from '../../common/archive-types.ts';
import type { Sql } from '../db/sql.ts';
import { MAIN_EVENT } from './hand-edits.ts';

/** References compared as printed, without case, spaces or punctuation ("RE-2026/17" = "re 2026 17"). */
export const referenceKey = (reference: string): string => reference.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

export interface PayableFacts {
  referenceNumber: string | null;
  senderId: string | null;
  amount: Amount | null;
}

/**
 * The invoice event an earlier document of the same space already holds for the same bill: same reference and same
 * sender (the same sender name, or a bank account, VAT id or register number both print; where a name is missing, the
 * same amount). A second copy of an invoice (the e-mailed PDF and the paper
 * scan) or a payment reminder about it refers to that event and opens no payable of its own: one invoice, one open
 * event. "Earlier" is by upload, so the first document of a bill keeps its event whatever is reprocessed later.
 */
export async function earlierInvoiceEvent(db: Sql, documentId: string, facts: PayableFacts): Promise<string | null> {
  if (!facts.referenceNumber) return null;
  const key = referenceKey(facts.referenceNumber);
  if (key.length < 3) return null;
  const candidates = await db.all<{
    id: string;
    reference_number: string;
    sender_id: string | null;
    amount_value: number | null;
    amount_currency: string | null;
    shares_key: number;
  }>(
    `SELECT e.id, e.reference_number, e.sender_id, e.amount_value, e.amount_currency,
      CASE WHEN EXISTS (SELECT 1 FROM document_sender_keys mine JOIN document_sender_keys theirs ON theirs.kind = mine.kind
        AND theirs.value = mine.value AND theirs.document_id = d.id WHERE mine.document_id = me.id AND mine.kind <> 'name')
        THEN 1 ELSE 0 END AS shares_key
    FROM documents me JOIN documents d ON d.space_id = me.space_id AND d.deleted_at IS NULL AND d.id <> me.id
      AND (d.created_at < me.created_at OR (d.created_at = me.created_at AND d.rowid < me.rowid))
      AND NOT EXISTS (SELECT 1 FROM distinct_bills x WHERE x.document_id = me.id AND x.other_id = d.id)
    JOIN events e ON e.document_id = d.id AND e.purpose = '${MAIN_EVENT}' AND e.event_type = 'invoice'
    WHERE me.id = ? AND e.reference_number IS NOT NULL
    ORDER BY d.created_at, d.rowid`,
    documentId,
  );
  for (const event of candidates) {
    if (referenceKey(event.reference_number) !== key) continue;
    const sameSender =
      event.shares_key === 1 ||
      (facts.senderId !== null && event.sender_id !== null
        ? facts.senderId === event.sender_id
        : facts.amount !== null &&
          event.amount_value === facts.amount.value &&
          event.amount_currency === facts.amount.currency);
    if (sameSender) return event.id;
  }
  return null;
}
