import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ArchiveEvent, ArchiveEventDetail, EventState, EventType, Payment } from '../../common/archive-types.ts';
import { EVENT_STATES, EVENT_TYPES } from '../../common/archive-types.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { isCalendarDate } from '../../common/dates.ts';
import { eventPatchSchema } from '../../common/event-patch.ts';
import { canRead, canWrite, spaceFilter } from '../auth/access.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { learnFromCorrection } from '../learning/learned-senders.ts';
import { setSenderByHand } from './document-corrections.ts';
import { canTransition, needsAmountToOpen } from './event-state.ts';
import { recordStateChange, redecideEventAfterEdit } from './event-writer.ts';
import { refreshBillKey } from './possible-duplicates.ts';
import {
  addEditedFields,
  amountOf,
  eventEditKey,
  HAND_SET_STATE,
  MAIN_EVENT,
  refreshEditOverlay,
  type EventEditField,
} from './hand-edits.ts';
import { pathId } from '../documents/document-access.ts';
import { HttpError } from '../http/http-error.ts';
import { param, parseQuery } from '../http/query.ts';
import type { RequestContext, Route } from '../http/router.ts';

interface EventRow {
  id: string;
  document_id: string;
  space_id: string;
  event_type: string;
  state: string;
  title: string;
  amount_value: number | null;
  amount_currency: string | null;
  due_date: string | null;
  reference_number: string | null;
  sender_name: string | null;
  created_at: string;
  updated_at: string;
  purpose: string;
  document_title: string;
  document_status: string;
  document_filename: string;
}

// The inner join is the rule "events without a (visible) document are never returned".
const EVENT_SELECT = `
  SELECT e.*, d.space_id, s.name AS sender_name, d.title AS document_title, d.status AS document_status,
    d.original_filename AS document_filename
  FROM events e JOIN documents d ON d.id = e.document_id AND d.deleted_at IS NULL
  LEFT JOIN senders s ON s.id = e.sender_id`;

const LIST_QUERY = {
  state: { parse: param.oneOf(EVENT_STATES) },
  event_type: { parse: param.oneOf(EVENT_TYPES) },
  due_before: { parse: param.date() },
  due_after: { parse: param.date() },
  space_id: { parse: param.uuid() },
  document_id: { parse: param.uuid() },
  updated_after: { parse: param.timestamp() },
  limit: { parse: param.integer(1, 100), default: 25 },
  offset: { parse: param.integer(0, Number.MAX_SAFE_INTEGER), default: 0 },
};

function toEvent(row: EventRow): ArchiveEvent {
  return {
    id: row.id,
    document_id: row.document_id,
    space_id: row.space_id,
    event_type: row.event_type as EventType,
    state: row.state as EventState,
    title: row.title,
    amount: amountOf(row),
    due_date: row.due_date,
    reference_number: row.reference_number,
    sender_name: row.sender_name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function listEvents(ctx: RequestContext) {
  const q = parseQuery(ctx.url.searchParams, LIST_QUERY);
  const spaces = spaceFilter(ctx.principal, 'd.space_id');
  const where = [spaces.sql];
  const args: Array<string | number> = [...spaces.params];
  if (q.space_id) {
    if (!canRead(ctx.principal, q.space_id)) throw new HttpError(403, ErrorMessage.spaceDenied);
    where.push('d.space_id = ?');
    args.push(q.space_id);
  }
  if (q.state) {
    where.push('e.state = ?');
    args.push(q.state);
  }
  if (q.event_type) {
    where.push('e.event_type = ?');
    args.push(q.event_type);
  }
  if (q.due_before) {
    where.push('e.due_date <= ?');
    args.push(q.due_before);
  }
  if (q.due_after) {
    where.push('e.due_date >= ?');
    args.push(q.due_after);
  }
  if (q.document_id) {
    where.push('e.document_id = ?');
    args.push(q.document_id);
  }
  if (q.updated_after) {
    where.push('e.updated_at > ?');
    args.push(q.updated_after);
  }
  const whereSql = where.join(' AND ');
  const { db } = ctx.service;
  const total = Number(
    (await db.get<{ n: number }>(`SELECT count(*) AS n FROM (${EVENT_SELECT} WHERE ${whereSql}) matching`, ...args))!.n,
  );
  // Soonest due first (undated last), then newest: the order a "what is due" view wants.
  const rows = await db.all<EventRow>(
    `${EVENT_SELECT} WHERE ${whereSql} ORDER BY e.due_date IS NULL, e.due_date ASC, e.created_at DESC, e.id
    LIMIT ? OFFSET ?`,
    ...args,
    q.limit,
    q.offset,
  );
  return { status: 200, body: { success: true, items: rows.map(toEvent), total, limit: q.limit, offset: q.offset } };
}

async function getEvent(ctx: RequestContext) {
  const id = pathId(ctx);
  const { db } = ctx.service;
  const row = await db.get<EventRow>(`${EVENT_SELECT} WHERE e.id = ?`, id);
  if (!row || !canRead(ctx.principal, row.space_id)) throw new HttpError(404, ErrorMessage.eventNotFound);
  const payments = (
    await db.all<{
      id: string;
      amount_value: number | null;
      amount_currency: string | null;
      paid_at: string;
      confirmed: number;
      source: Payment['source'];
      created_at: string;
    }>('SELECT * FROM payments WHERE event_id = ? ORDER BY paid_at', id)
  ).map((p): Payment => ({
    id: p.id,
    paid_at: p.paid_at,
    confirmed: p.confirmed === 1,
    source: p.source,
    created_at: p.created_at,
    amount: amountOf(p),
  }));
  const history = (
    await db.all<{
      from_state: EventState | null;
      to_state: EventState;
      at: string;
      cause: string;
    }>('SELECT from_state, to_state, at, cause FROM event_history WHERE event_id = ? ORDER BY id', id)
  ).map((h) => ({ from: h.from_state, to: h.to_state, at: h.at, cause: h.cause }));
  const event: ArchiveEventDetail = {
    ...toEvent(row),
    document: {
      id: row.document_id,
      title: row.document_title,
      space_id: row.space_id,
      status: row.document_status as ArchiveEventDetail['document']['status'],
      original_filename: row.document_filename,
    },
    payments,
    history,
  };
  return { status: 200, body: { success: true, event } };
}

const calendarDate = z.string().refine(isCalendarDate, { error: 'must be a date YYYY-MM-DD' }).meta({ format: 'date' });

export const stateChangeRequestSchema = z
  .strictObject(
    {
      state: z
        .enum(EVENT_STATES, { error: `must be one of ${EVENT_STATES.join(', ')}` })
        .describe('The new state; must be an allowed move from the current one (or equal to it: no change).'),
      cause: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('Why, for the history (default "set by <key name>").'),
      paid_at: calendarDate
        .optional()
        .describe('Only with state paid: the payment date of the recorded payment (default today, UTC).'),
      due_date: calendarDate
        .optional()
        .describe('Only with state active: the new end date of a renewal (kept as a hand edit of the event).'),
    },
    { error: 'body must be a JSON object { state, cause?, paid_at?, due_date? }' },
  )
  .describe('A state change made by a person.');

/**
 * POST /v1/events/:id/state (designed here): a person settles or files an event. Allowed moves are in
 * MANUAL_TRANSITIONS; → paid records a confirmed manual payment, paid → open marks the latest confirmed payment
 * unconfirmed (reversed), → active may carry the renewal's new end date (due_date). The state is remembered as set by
 * hand: reprocessing and the sweeper keep it. Needs documents:write and editor access.
 */
async function transitionEvent(ctx: RequestContext) {
  const id = pathId(ctx);
  const { db } = ctx.service;
  const row = await writableEvent(ctx, id);
  const { state, cause, paid_at: paidAt, due_date: dueDate } = await parseJsonBody(ctx.req, stateChangeRequestSchema);
  const from = row.state as EventState;
  if (state !== from && !canTransition(from, state, row.event_type as EventType)) {
    throw new HttpError(
      409,
      row.event_type === 'credit_note' && state === 'open'
        ? 'Cannot change a credit note to open: it asks for no payment'
        : `Cannot change an event from ${from} to ${state}`,
    );
  }
  if (paidAt && state !== 'paid') throw new HttpError(400, 'Invalid parameter paid_at: only with state paid');
  if (dueDate && state !== 'active') throw new HttpError(400, 'Invalid parameter due_date: only with state active');
  if (
    state === 'open' &&
    from !== 'open' &&
    row.amount_value === null &&
    needsAmountToOpen(row.event_type as EventType)
  ) {
    throw new HttpError(
      409,
      `Cannot change an event from ${from} to open without an amount (set it with PATCH /v1/events/{id})`,
    );
  }
  if (state !== from || dueDate) {
    await db.transaction(async (tx) => {
      const now = nowIso();
      if (state !== from) {
        await tx.run('UPDATE events SET state = ?, updated_at = ? WHERE id = ?', state, now, id);
        await recordStateChange(tx, id, from, state, cause ?? `set by ${ctx.principal.name}`, now);
        // A derived event (a notice deadline) follows its contract; only the main event's state is the document's.
        if (row.purpose === MAIN_EVENT) await addEditedFields(tx, row.document_id, [HAND_SET_STATE]);
        if (state === 'paid') {
          await tx.run(
            `INSERT INTO payments (id, event_id, amount_value, amount_currency, paid_at, confirmed, source, created_at)
            VALUES (?, ?, ?, ?, ?, 1, 'manual', ?)`,
            randomUUID(),
            id,
            row.amount_value,
            row.amount_currency,
            paidAt ?? now.slice(0, 10),
            now,
          );
        }
        if (from === 'paid' && state === 'open') await reverseLatestPayment(tx, id);
      }
      if (dueDate) {
        await tx.run('UPDATE events SET due_date = ?, updated_at = ? WHERE id = ?', dueDate, now, id);
        await addEditedFields(tx, row.document_id, [eventEditKey('due_date')]);
        await refreshEditOverlay(tx, row.document_id);
      }
    });
  }
  return await getEvent(ctx);
}

/**
 * A payment reversed (paid → open): the latest confirmed one no longer counts. Kept, not deleted, for the record. Two
 * payments of one millisecond are told apart by id (payments has no rowid on PostgreSQL), arbitrary but the same on
 * both back ends.
 */
async function reverseLatestPayment(db: Sql, eventId: string): Promise<void> {
  await db.run(
    `UPDATE payments SET confirmed = 0 WHERE id = (SELECT id FROM payments WHERE event_id = ? AND confirmed = 1
    ORDER BY paid_at DESC, created_at DESC, id DESC LIMIT 1)`,
    eventId,
  );
}

/**
 * PATCH /v1/events/:id (designed here): a person gives an event the facts extraction missed or got wrong. Each given
 * field is remembered as a hand edit (reprocessing keeps it; extracted_data shows it with source "edit"), and the
 * state is decided again from the new facts unless it is settled or was set by hand: an invoice that gets its amount
 * moves needs_input → open (cause "edited: payable with amount"). The sender is the document's sender too.
 * Scope documents:write (the spec has no events:write) and editor access to the document's space.
 */
async function patchEvent(ctx: RequestContext) {
  const id = pathId(ctx);
  const { db } = ctx.service;
  const row = await writableEvent(ctx, id);
  const patch = await parseJsonBody(ctx.req, eventPatchSchema);
  if (row.purpose !== MAIN_EVENT)
    throw new HttpError(409, "A notice deadline follows its contract: edit the contract's event");
  const given = (Object.keys(patch) as Array<keyof typeof patch>).filter((k) => patch[k] !== undefined);
  if (given.length > 0) {
    await db.transaction(async (tx) => {
      const now = nowIso();
      const set = async (column: string, value: string | number | null): Promise<void> =>
        void (await tx.run(`UPDATE events SET ${column} = ? WHERE id = ?`, value, id));
      if (patch.event_type !== undefined) await set('event_type', patch.event_type);
      if (patch.amount !== undefined) {
        await set('amount_value', patch.amount?.value ?? null);
        await set('amount_currency', patch.amount?.currency ?? null);
      }
      if (patch.due_date !== undefined) await set('due_date', patch.due_date);
      if (patch.reference_number !== undefined) await set('reference_number', patch.reference_number);
      if (patch.sender_name !== undefined) await setSenderByHand(tx, row.document_id, patch.sender_name, now);
      await set('updated_at', now);
      await addEditedFields(
        tx,
        row.document_id,
        given.map((field) => (field === 'sender_name' ? 'sender_name' : eventEditKey(field satisfies EventEditField))),
      );
      await refreshEditOverlay(tx, row.document_id);
      await redecideEventAfterEdit(tx, id);
      await refreshBillKey(tx, row.document_id, now);
      if (patch.sender_name !== undefined) await learnFromCorrection(tx, row.document_id, ['sender_name'], now);
    });
  }
  return await getEvent(ctx);
}

/** The event, visible to the key (else 404) and in a space it may edit (else 403). */
async function writableEvent(ctx: RequestContext, id: string): Promise<EventRow> {
  const row = await ctx.service.db.get<EventRow>(`${EVENT_SELECT} WHERE e.id = ?`, id);
  if (!row || !canRead(ctx.principal, row.space_id)) throw new HttpError(404, ErrorMessage.eventNotFound);
  if (!canWrite(ctx.principal, row.space_id)) throw new HttpError(403, ErrorMessage.spaceDenied);
  return row;
}

export const eventRoutes: Route[] = [
  { method: 'GET', path: '/v1/events', acceptsQuery: true, scope: 'events:read', handler: listEvents },
  { method: 'GET', path: '/v1/events/:id', scope: 'events:read', handler: getEvent },
  { method: 'PATCH', path: '/v1/events/:id', acceptsBody: true, scope: 'documents:write', handler: patchEvent },
  {
    method: 'POST',
    path: '/v1/events/:id/state',
    acceptsBody: true,
    scope: 'documents:write',
    handler: transitionEvent,
  },
];
