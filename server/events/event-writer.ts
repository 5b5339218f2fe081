import { randomUUID } from 'node:crypto';
import type { Amount, EventState, EventType, UploadMetadata } from '../../common/archive-types.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { senderIdFor } from '../documents/document-rows.ts';
import type { NoticePeriod } from '../intelligence/contract-terms.ts';
import { initialEventState, redecidedState } from './event-state.ts';
import { amountOf, eventEditKey, HAND_SET_STATE, MAIN_EVENT, readEditedFields } from './hand-edits.ts';
import { writeNoticeDeadlineEvent } from './notice-deadline.ts';
import { writeBillKey } from './possible-duplicates.ts';
import { earlierInvoiceEvent } from './same-invoice.ts';

/** The facts about a document an event is built from, already merged (metadata over extraction). */
export interface EventInput {
  eventType: EventType | null;
  title: string;
  amount: Amount | null;
  dueDate: string | null;
  referenceNumber: string | null;
  senderName: string | null;
  metadata: UploadMetadata | null;
  /** A contract's or policy's term end (else its due date) and notice period: they make its notice-deadline event. */
  contractEnd?: string | null;
  noticePeriod?: NoticePeriod | null;
}

interface ExistingEvent {
  id: string;
  state: EventState;
  event_type: EventType;
  amount_value: number | null;
  amount_currency: string | null;
  due_date: string | null;
  reference_number: string | null;
}

/**
 * Creates or refreshes the event of a document. An event exists when the document has an event type, or carries
 * payment facts (amount, due date, paid_at; an invoice then). Recorded payments, settled states, states a person set
 * and hand-edited event fields (POST /v1/events/{id}/state, PATCH /v1/events/{id}) survive.
 */
export async function writeDocumentEvent(db: Sql, documentId: string, input: EventInput): Promise<void> {
  const meta = input.metadata;
  const existing = await db.get<ExistingEvent>(
    `SELECT id, state, event_type, amount_value, amount_currency, due_date, reference_number
    FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}' ORDER BY created_at LIMIT 1`,
    documentId,
  );
  const edited = await readEditedFields(db, documentId);
  const keep = (field: Parameters<typeof eventEditKey>[0]): boolean =>
    existing !== undefined && edited.has(eventEditKey(field));
  const extractedType = input.eventType ?? (input.amount || input.dueDate || meta?.paid_at ? 'invoice' : null);
  const givenAmount = keep('amount') ? amountOf(existing!) : input.amount;
  // A bill for a negative sum is money coming back: a credit note, whatever its heading said.
  const eventType = keep('event_type')
    ? existing!.event_type
    : extractedType === 'invoice' && givenAmount && givenAmount.value < 0
      ? 'credit_note'
      : extractedType;
  if (!eventType) return;
  const amount = signedAmount(eventType, givenAmount);
  const dueDate = keep('due_date') ? existing!.due_date : input.dueDate;
  const referenceNumber = keep('reference_number') ? existing!.reference_number : input.referenceNumber;

  const now = nowIso();
  const senderId = input.senderName ? await senderIdFor(db, documentId, input.senderName, now) : null;
  const paidAt = meta?.paid_at ?? null;
  const ruled = initialEventState({
    eventType,
    hasAmount: amount !== null,
    dueDate,
    paidAt,
    stateHint: meta?.state_hint ?? null,
    hintGivenOn: await uploadDay(db, documentId),
    today: now.slice(0, 10),
  });
  const sameBill =
    PAYABLE_STATES.has(ruled.state) && (eventType === 'invoice' || eventType === 'notice') && !meta?.state_hint
      ? await earlierInvoiceEvent(db, documentId, { referenceNumber, senderId, amount })
      : null;
  const decided = sameBill
    ? {
        state: 'received' as const,
        cause: `${eventType === 'notice' ? 'reminder about' : 'same invoice as'} event ${sameBill}`,
      }
    : ruled;

  let eventId: string;
  if (!existing) {
    eventId = randomUUID();
    await db.run(
      `INSERT INTO events (id, document_id, event_type, state, title, amount_value, amount_currency, due_date,
      reference_number, sender_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      eventId,
      documentId,
      eventType,
      decided.state,
      input.title,
      amount?.value ?? null,
      amount?.currency ?? null,
      dueDate,
      referenceNumber,
      senderId,
      now,
      now,
    );
    await recordStateChange(db, eventId, null, decided.state, decided.cause, now);
  } else {
    eventId = existing.id;
    const state = redecidedState(existing.state, decided.state, edited.has(HAND_SET_STATE));
    await db.run(
      `UPDATE events SET event_type = ?, state = ?, title = ?, amount_value = ?, amount_currency = ?, due_date = ?,
      reference_number = ?, sender_id = ?, updated_at = ? WHERE id = ?`,
      eventType,
      state,
      input.title,
      amount?.value ?? null,
      amount?.currency ?? null,
      dueDate,
      referenceNumber,
      senderId,
      now,
      eventId,
    );
    if (state !== existing.state)
      await recordStateChange(db, eventId, existing.state, state, `reprocessed: ${decided.cause}`, now);
  }

  if (paidAt) {
    const hasPayment = await db.get('SELECT 1 FROM payments WHERE event_id = ? AND source = ?', eventId, 'metadata');
    if (!hasPayment) {
      await db.run(
        `INSERT INTO payments (id, event_id, amount_value, amount_currency, paid_at, confirmed, source, created_at)
        VALUES (?, ?, ?, ?, ?, 1, 'metadata', ?)`,
        randomUUID(),
        eventId,
        amount?.value ?? null,
        amount?.currency ?? null,
        paidAt,
        now,
      );
    }
  }

  await writeBillKey(db, documentId, { senderName: input.senderName, referenceNumber, amount }, now);
  await writeNoticeDeadlineEvent(db, documentId, {
    eventType,
    title: input.title,
    senderId,
    termEnd: input.contractEnd ?? dueDate,
    noticePeriod: input.noticePeriod ?? null,
    today: now.slice(0, 10),
    now,
    record: (id, from, to, cause) => recordStateChange(db, id, from, to, cause, now),
  });
}

/** States that ask the reader to pay: a second document of the same bill must not add one. */
const PAYABLE_STATES: ReadonlySet<EventState> = new Set(['open', 'needs_input']);

/** A credit note's amount is what comes back: stored negative, whichever sign it was given with. */
export function signedAmount(type: EventType, amount: Amount | null): Amount | null {
  return amount && type === 'credit_note' && amount.value > 0 ? { ...amount, value: -amount.value } : amount;
}

/**
 * Decides an event's state again from its current fields, after a person edited them (PATCH /v1/events/{id}): e.g.
 * an invoice given its missing amount goes needs_input → open, with cause `edited: <rule>` (`why` names another
 * decision: `not a duplicate`, `original deleted`). Settled states and states a person set stay. Returns the new state.
 */
export async function redecideEventAfterEdit(db: Sql, eventId: string, why = 'edited'): Promise<EventState> {
  const row = await db.get<ExistingEvent & { document_id: string; metadata: string | null }>(
    `SELECT e.id, e.document_id, e.state, e.event_type, e.amount_value, e.amount_currency, e.due_date, e.reference_number,
      d.metadata FROM events e JOIN documents d ON d.id = e.document_id WHERE e.id = ?`,
    eventId,
  );
  if (!row) throw new Error(`no event ${eventId}`);
  const meta = row.metadata ? (JSON.parse(row.metadata) as UploadMetadata) : null;
  const now = nowIso();
  const signed = signedAmount(row.event_type, amountOf(row));
  if (signed && signed.value !== row.amount_value) {
    await db.run('UPDATE events SET amount_value = ? WHERE id = ?', signed.value, eventId);
  }
  const decided = initialEventState({
    eventType: row.event_type,
    hasAmount: amountOf(row) !== null,
    dueDate: row.due_date,
    paidAt: meta?.paid_at ?? null,
    stateHint: meta?.state_hint ?? null,
    hintGivenOn: await uploadDay(db, row.document_id),
    today: now.slice(0, 10),
  });
  const state = redecidedState(
    row.state,
    decided.state,
    (await readEditedFields(db, row.document_id)).has(HAND_SET_STATE),
  );
  if (state !== row.state) {
    await db.run('UPDATE events SET state = ?, updated_at = ? WHERE id = ?', state, now, eventId);
    await recordStateChange(db, eventId, row.state, state, `${why}: ${decided.cause}`, now);
  }
  return state;
}

export async function recordStateChange(
  db: Sql,
  eventId: string,
  from: string | null,
  to: string,
  cause: string,
  at: string,
): Promise<void> {
  await db.run(
    'INSERT INTO event_history (event_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)',
    eventId,
    from,
    to,
    at,
    cause,
  );
}

/** The day the document (and so its metadata) was uploaded. */
async function uploadDay(db: Sql, documentId: string): Promise<string | null> {
  const row = (await db.get('SELECT created_at FROM documents WHERE id = ?', documentId)) as
    { created_at: string } | undefined;
  return row ? row.created_at.slice(0, 10) : null;
}
