import { randomUUID } from 'node:crypto';
import type { Amount, EventType, UploadMetadata } from '../../common/archive-types.ts';
import { nowIso, type Database } from '../db/database.ts';
import { senderIdFor } from '../documents/document-rows.ts';
import { initialEventState, SETTLED_STATES } from './event-state.ts';

/** The facts about a document an event is built from, already merged (metadata over extraction). */
export interface EventInput {
  eventType: EventType | null;
  title: string;
  amount: Amount | null;
  dueDate: string | null;
  referenceNumber: string | null;
  senderName: string | null;
  metadata: UploadMetadata | null;
}

/**
 * Creates or refreshes the event of a document. An event exists when the document has an event type, or carries
 * payment facts (amount, due date, paid_at; an invoice then). Recorded payments and settled states survive.
 */
export function writeDocumentEvent(db: Database, documentId: string, input: EventInput): void {
  const meta = input.metadata;
  const eventType = input.eventType ?? (input.amount || input.dueDate || meta?.paid_at ? 'invoice' : null);
  const existing = db.prepare('SELECT id, state FROM events WHERE document_id = ? ORDER BY created_at LIMIT 1').get(documentId) as
    { id: string; state: string } | undefined;
  if (!eventType) return;

  const now = nowIso();
  const senderId = input.senderName ? senderIdFor(db, input.senderName, now) : null;
  const paidAt = meta?.paid_at ?? null;
  const decided = initialEventState({
    eventType, hasAmount: input.amount !== null, dueDate: input.dueDate, paidAt,
    stateHint: meta?.state_hint ?? null, today: now.slice(0, 10),
  });

  let eventId: string;
  if (!existing) {
    eventId = randomUUID();
    db.prepare(`INSERT INTO events (id, document_id, event_type, state, title, amount_value, amount_currency, due_date,
      reference_number, sender_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      eventId, documentId, eventType, decided.state, input.title, input.amount?.value ?? null, input.amount?.currency ?? null,
      input.dueDate, input.referenceNumber, senderId, now, now);
    recordStateChange(db, eventId, null, decided.state, decided.cause, now);
  } else {
    eventId = existing.id;
    const keepState = SETTLED_STATES.has(existing.state as never);
    const state = keepState ? existing.state : decided.state;
    db.prepare(`UPDATE events SET event_type = ?, state = ?, title = ?, amount_value = ?, amount_currency = ?, due_date = ?,
      reference_number = ?, sender_id = ?, updated_at = ? WHERE id = ?`).run(
      eventType, state, input.title, input.amount?.value ?? null, input.amount?.currency ?? null, input.dueDate,
      input.referenceNumber, senderId, now, eventId);
    if (state !== existing.state) recordStateChange(db, eventId, existing.state, state, `reprocessed: ${decided.cause}`, now);
  }

  if (paidAt) {
    const hasPayment = db.prepare('SELECT 1 FROM payments WHERE event_id = ? AND source = ?').get(eventId, 'metadata');
    if (!hasPayment) {
      db.prepare(`INSERT INTO payments (id, event_id, amount_value, amount_currency, paid_at, confirmed, source, created_at)
        VALUES (?, ?, ?, ?, ?, 1, 'metadata', ?)`).run(randomUUID(), eventId, input.amount?.value ?? null,
        input.amount?.currency ?? null, paidAt, now);
    }
  }
}

function recordStateChange(db: Database, eventId: string, from: string | null, to: string, cause: string, at: string): void {
  db.prepare('INSERT INTO event_history (event_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)')
    .run(eventId, from, to, at, cause);
}
