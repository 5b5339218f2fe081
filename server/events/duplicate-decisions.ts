/**
 * What a person decides about possible duplicates (server/events/possible-duplicates.ts), and what a deletion changes:
 * until then the one-invoice rule keeps the later copy `received`, so the bill is payable once.
 */

import type { Sql } from '../db/sql.ts';
import { redecideEventAfterEdit } from './event-writer.ts';
import { MAIN_EVENT } from './hand-edits.ts';
import { touch, twins } from './possible-duplicates.ts';

/**
 * A person says this document is no copy of its possible duplicates: remembered per pair (both ways), so neither is
 * flagged again for the other, even after reprocessing. An event the one-invoice rule had left `received` as the
 * same invoice as the other's is decided again (an unpaid bill opens). Returns the documents whose flag changed.
 */
export async function declareDifferentBills(db: Sql, documentId: string, now: string): Promise<string[]> {
  const others = await twins(db, documentId);
  const remember =
    'INSERT INTO distinct_bills (document_id, other_id, decided_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';
  for (const other of others) {
    await db.run(remember, documentId, other, now);
    await db.run(remember, other, documentId, now);
  }
  const changed = [documentId, ...others];
  await touch(db, changed, now);
  for (const eventId of await sameInvoiceEventsAmong(db, changed))
    await redecideEventAfterEdit(db, eventId, 'not a duplicate');
  return changed;
}

/**
 * A document was deleted: its twins lose their flag, and a copy the one-invoice rule had left `received` because of
 * it is decided again, so the bill stays payable once.
 */
export async function afterDocumentDeleted(db: Sql, documentId: string, now: string): Promise<void> {
  const others = await twins(db, documentId);
  await touch(db, others, now);
  const deletedEvents = (
    await db.all<{
      id: string;
    }>(`SELECT id FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}'`, documentId)
  ).map((r) => r.id);
  for (const eventId of await sameInvoiceEventsAmong(db, others, deletedEvents))
    await redecideEventAfterEdit(db, eventId, 'original deleted');
}

/**
 * Main events of these documents still `received` because the one-invoice rule found them the same invoice as
 * another event (of `of`, when given), and not set so by hand.
 */
async function sameInvoiceEventsAmong(
  db: Sql,
  documentIds: readonly string[],
  of?: readonly string[],
): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const rows = await db.all<{ id: string; cause: string | null }>(
    `SELECT e.id, (SELECT h.cause FROM event_history h WHERE h.event_id = e.id ORDER BY h.id DESC LIMIT 1) AS cause
    FROM events e WHERE e.purpose = '${MAIN_EVENT}' AND e.state = 'received'
      AND e.document_id IN (${documentIds.map(() => '?').join(', ')})`,
    ...documentIds,
  );
  return rows
    .filter(({ cause }) => {
      const m = cause ? /same invoice as event ([0-9a-f-]{36})$/.exec(cause) : null;
      return m !== null && (!of || of.includes(m[1]!));
    })
    .map((r) => r.id);
}
