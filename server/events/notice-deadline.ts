import { randomUUID } from 'node:crypto';
import type { EventState, EventType } from '../../common/archive-types.ts';
import type { Sql } from '../db/sql.ts';
import type { NoticePeriod } from '../intelligence/contract-terms.ts';
import { addDays, addMonths } from '../intelligence/dates.ts';
import { SETTLED_STATES } from './event-state.ts';

/** events.purpose of a contract's notice deadline: a `notice` event of the contract's document, derived from it. */
export const NOTICE_DEADLINE = 'notice_deadline';

/** Contracts and policies run on unless notice is given in time. */
const HAS_NOTICE: ReadonlySet<EventType> = new Set(['contract', 'policy']);

/** The last day notice can be given: the term's end minus the notice period. */
export function noticeDeadline(end: string, period: NoticePeriod): string {
  switch (period.unit) {
    case 'day':
      return addDays(end, -period.count);
    case 'week':
      return addDays(end, -7 * period.count);
    case 'month':
      return addMonths(end, -period.count);
    case 'year':
      return addMonths(end, -12 * period.count);
  }
}

export interface NoticeInput {
  /** The main event's type, title and sender; the term's end (contract_end, else the main event's end date). */
  eventType: EventType | null;
  title: string;
  senderId: string | null;
  termEnd: string | null;
  noticePeriod: NoticePeriod | null;
  today: string;
  now: string;
  record: (eventId: string, from: EventState | null, to: EventState, cause: string) => Promise<void>;
}

/**
 * Keeps a contract's notice-deadline event in step with its main event: made when the document is a contract or policy
 * with an end and a notice period, moved when they change, removed when they are gone (unless a person settled it).
 * Open until the deadline, expired after it.
 */
export async function writeNoticeDeadlineEvent(db: Sql, documentId: string, input: NoticeInput): Promise<void> {
  const existing = await db.get<{ id: string; state: EventState }>(
    'SELECT id, state FROM events WHERE document_id = ? AND purpose = ?',
    documentId,
    NOTICE_DEADLINE,
  );
  const deadline =
    input.eventType && HAS_NOTICE.has(input.eventType) && input.termEnd && input.noticePeriod
      ? noticeDeadline(input.termEnd, input.noticePeriod)
      : null;
  if (!deadline) {
    if (existing && !SETTLED_STATES.has(existing.state)) {
      await db.run('DELETE FROM event_history WHERE event_id = ?', existing.id);
      await db.run('DELETE FROM payments WHERE event_id = ?', existing.id);
      await db.run('DELETE FROM events WHERE id = ?', existing.id);
    }
    return;
  }
  const decided: { state: EventState; cause: string } =
    deadline >= input.today
      ? { state: 'open', cause: 'notice deadline ahead' }
      : { state: 'expired', cause: 'notice deadline passed' };
  if (!existing) {
    const id = randomUUID();
    await db.run(
      `INSERT INTO events (id, document_id, event_type, state, title, due_date, sender_id, purpose, created_at, updated_at)
      VALUES (?, ?, 'notice', ?, ?, ?, ?, ?, ?, ?)`,
      id,
      documentId,
      decided.state,
      input.title,
      deadline,
      input.senderId,
      NOTICE_DEADLINE,
      input.now,
      input.now,
    );
    await input.record(id, null, decided.state, decided.cause);
    return;
  }
  const state = SETTLED_STATES.has(existing.state) ? existing.state : decided.state;
  await db.run(
    'UPDATE events SET state = ?, title = ?, due_date = ?, sender_id = ?, updated_at = ? WHERE id = ?',
    state,
    input.title,
    deadline,
    input.senderId,
    input.now,
    existing.id,
  );
  if (state !== existing.state) await input.record(existing.id, existing.state, state, `reprocessed: ${decided.cause}`);
}
