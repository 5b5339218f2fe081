/**
 * Possible duplicates: the same bill stored twice as different files (the e-mailed PDF and its paper scan, a page
 * scanned again). Two live documents of a space are possible duplicates when their main events have the same sender,
 * reference and amount; a byte-identical upload is a duplicate of its own (`duplicate_of`) and never gets this far.
 * Each document names the other in `possible_duplicate_of` until a person says they are different bills
 * (PATCH /v1/documents/{id} with `possible_duplicate_of: null`) or deletes one of them.
 */

import type { Amount } from '../../common/archive-types.ts';
import type { Sql } from '../db/sql.ts';
import { normalizeSenderName } from '../learning/sender-identity.ts';
import { referenceKey } from './same-invoice.ts';

export interface BillFacts {
  senderName: string | null;
  referenceNumber: string | null;
  amount: Amount | null;
}

/**
 * What two copies of one bill share: sender (its name without case, accents or legal form), reference (without case,
 * spaces or punctuation) and amount with currency. Null when any of them is unknown: a bill is never guessed a
 * duplicate on less.
 */
export function billKey(facts: BillFacts): string | null {
  const sender = facts.senderName ? normalizeSenderName(facts.senderName) : '';
  const reference = facts.referenceNumber ? referenceKey(facts.referenceNumber) : '';
  if (!sender || reference.length < 3 || !facts.amount) return null;
  return JSON.stringify([sender, reference, facts.amount.value, facts.amount.currency]);
}

/**
 * `possible_duplicate_of` of a documents row (alias d): the earliest other live document of its space with the same
 * bill key and other bytes that no person declared a different bill. Read at query time, so a deleted or restored
 * twin shows at once.
 */
export const POSSIBLE_DUPLICATE_SQL = `(SELECT o.id FROM documents o WHERE d.bill_key IS NOT NULL
    AND o.space_id = d.space_id AND o.bill_key = d.bill_key AND o.id <> d.id AND o.deleted_at IS NULL AND o.sha256 <> d.sha256
    AND NOT EXISTS (SELECT 1 FROM distinct_bills x WHERE x.document_id = d.id AND x.other_id = o.id)
    ORDER BY o.created_at, o.rowid LIMIT 1)`;

/** The other live documents `possible_duplicate_of` may name for this one (every twin, not only the earliest). */
export async function twins(db: Sql, documentId: string): Promise<string[]> {
  return (
    await db.all<{ id: string }>(
      `SELECT o.id FROM documents d JOIN documents o ON d.bill_key IS NOT NULL AND o.space_id = d.space_id
      AND o.bill_key = d.bill_key AND o.id <> d.id AND o.deleted_at IS NULL AND o.sha256 <> d.sha256
      AND NOT EXISTS (SELECT 1 FROM distinct_bills x WHERE x.document_id = d.id AND x.other_id = o.id)
    WHERE d.id = ?`,
      documentId,
    )
  ).map((r) => r.id);
}

/**
 * Stores a document's bill key as its event was written. The documents that share the old or the new key change
 * their `possible_duplicate_of` with it, so their `updated_at` moves too and an incremental sync brings the flag to
 * both sides of the pair.
 */
export async function writeBillKey(db: Sql, documentId: string, facts: BillFacts, now: string): Promise<void> {
  const key = billKey(facts);
  const row = (await db.get('SELECT bill_key FROM documents WHERE id = ?', documentId)) as
    { bill_key: string | null } | undefined;
  if (!row || row.bill_key === key) return;
  const affected = new Set(await twins(db, documentId));
  await db.run('UPDATE documents SET bill_key = ? WHERE id = ?', key, documentId);
  for (const id of await twins(db, documentId)) affected.add(id);
  await touch(db, [...affected], now);
}

/** After a hand edit of the main event or the sender: the key from the event as it now stands. */
export async function refreshBillKey(db: Sql, documentId: string, now: string): Promise<void> {
  const event = (await db.get(
    `SELECT s.name AS sender_name, e.reference_number, e.amount_value, e.amount_currency
    FROM events e LEFT JOIN senders s ON s.id = e.sender_id WHERE e.document_id = ? AND e.purpose = 'main'
    ORDER BY e.created_at LIMIT 1`,
    documentId,
  )) as
    | {
        sender_name: string | null;
        reference_number: string | null;
        amount_value: number | null;
        amount_currency: string | null;
      }
    | undefined;
  const amount =
    event?.amount_value != null && event.amount_currency
      ? { value: event.amount_value, currency: event.amount_currency }
      : null;
  await writeBillKey(
    db,
    documentId,
    { senderName: event?.sender_name ?? null, referenceNumber: event?.reference_number ?? null, amount },
    now,
  );
}

export async function touch(db: Sql, documentIds: readonly string[], now: string): Promise<void> {
  const update = 'UPDATE documents SET updated_at = ? WHERE id = ?';
  for (const id of documentIds) await db.run(update, now, id);
}
