/**
 * What a person decides about possible duplicates (server/events/possible-duplicates.ts), and what a deletion changes:
 * until then the one-invoice rule keeps the later copy `received`, so the bill is payable once.
 */

import type { Database } from '../db/database.ts';
import { redecideEventAfterEdit } from './event-writer.ts';
import { MAIN_EVENT } from './hand-edits.ts';
import { touch, twins } from './possible-duplicates.ts';

/**
 * A person says this document is no copy of its possible duplicates: remembered per pair (both ways), so neither is
 * flagged again for the other, even after reprocessing. An event the one-invoice rule had left `received` as the
 * same invoice as the other's is decided again (an unpaid bill opens). Returns the documents whose flag changed.
 */
export function declareDifferentBills(db: Database, documentId: string, now: string): string[] {
  const others = twins(db, documentId);
  const remember = db.prepare(
    'INSERT OR IGNORE INTO distinct_bills (document_id, other_id, decided_at) VALUES (?, ?, ?)',
  );
  for (const other of others) {
    remember.run(documentId, other, now);
    remember.run(other, documentId, now);
  }
  const changed = [documentId, ...others];
  touch(db, changed, now);
  for (const eventId of sameInvoiceEventsAmong(db, changed)) redecideEventAfterEdit(db, eventId, 'not a duplicate');
  return changed;
}

/**
 * A document was deleted: its twins lose their flag, and a copy the one-invoice rule had left `received` because of
 * it is decided again, so the bill stays payable once.
 */
export function afterDocumentDeleted(db: Database, documentId: string, now: string): void {
  const others = twins(db, documentId);
  touch(db, others, now);
  const deletedEvents = (
    db.prepare(`SELECT id FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}'`).all(documentId) as Array<{
      id: string;
    }>
  ).map((r) => r.id);
  for (const eventId of sameInvoiceEventsAmong(db, others, deletedEvents))
    redecideEventAfterEdit(db, eventId, 'original deleted');
}

/**
 * Main events of these documents still `received` because the one-invoice rule found them the same invoice as
 * another event (of `of`, when given), and not set so by hand.
 */
function sameInvoiceEventsAmong(db: Database, documentIds: readonly string[], of?: readonly string[]): string[] {
  if (documentIds.length === 0) return [];
  const rows = db
    .prepare(
      `SELECT e.id, (SELECT h.cause FROM event_history h WHERE h.event_id = e.id ORDER BY h.rowid DESC LIMIT 1) AS cause
    FROM events e WHERE e.purpose = '${MAIN_EVENT}' AND e.state = 'received'
      AND e.document_id IN (${documentIds.map(() => '?').join(', ')})`,
    )
    .all(...documentIds) as Array<{ id: string; cause: string | null }>;
  return rows
    .filter(({ cause }) => {
      const m = cause ? /same invoice as event ([0-9a-f-]{36})$/.exec(cause) : null;
      return m !== null && (!of || of.includes(m[1]!));
    })
    .map((r) => r.id);
}
