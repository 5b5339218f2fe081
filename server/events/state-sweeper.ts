import type { UploadMetadata } from '../../common/archive-types.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { recordStateChange } from './event-writer.ts';
import { HAND_SET_STATE } from './hand-edits.ts';
import { NOTICE_DEADLINE } from './notice-deadline.ts';

/**
 * Time moves events on: a contract, policy or offer whose end date (due_date) has passed expires, and so does a
 * contract's notice deadline once its day has passed. Run at start-up
 * and then every hour, so an archive that was switched off catches up when it comes back. Returns how many changed.
 *
 * A state a person chose (by hand, or as metadata.state_hint at upload) while the end date had already passed is
 * their word that the term runs on (a renewal, a tacit extension): time does not undo it. Once a later end date is
 * set (a renewal's new end date, PATCH /v1/events/{id}) and passes, the event expires as usual.
 */
export async function expireEndedTerms(db: Sql, today = nowIso().slice(0, 10)): Promise<number> {
  return await db.transaction(async (tx) => {
    const ended = await tx.all<{
      id: string;
      state: string;
      due_date: string;
      purpose: string;
      edited_fields: string;
      metadata: string | null;
      uploaded_at: string;
      state_at: string | null;
    }>(
      `SELECT e.id, e.state, e.due_date, e.purpose, d.edited_fields, d.metadata, d.created_at AS uploaded_at,
        (SELECT h.at FROM event_history h WHERE h.event_id = e.id ORDER BY h.id DESC LIMIT 1) AS state_at
      FROM events e JOIN documents d ON d.id = e.document_id
      WHERE ((e.event_type IN ('contract', 'policy', 'offer') AND e.state IN ('active', 'open'))
          OR (e.purpose = '${NOTICE_DEADLINE}' AND e.state = 'open'))
        AND e.due_date IS NOT NULL AND e.due_date < ?`,
      today,
    );
    const now = nowIso();
    let changed = 0;
    for (const event of ended) {
      const noticeDeadline = event.purpose === NOTICE_DEADLINE;
      const decidedOn = noticeDeadline ? null : personDecidedOn(event);
      if (decidedOn !== null && event.due_date < decidedOn) continue;
      await tx.run("UPDATE events SET state = 'expired', updated_at = ? WHERE id = ?", now, event.id);
      await recordStateChange(
        tx,
        event.id,
        event.state,
        'expired',
        noticeDeadline ? 'notice deadline passed' : 'end date passed',
        now,
      );
      changed++;
    }
    return changed;
  });
}

/** The day a person decided the event's current state, or null when the rules did. */
function personDecidedOn(event: {
  state: string;
  edited_fields: string;
  metadata: string | null;
  uploaded_at: string;
  state_at: string | null;
}): string | null {
  // A hand-set state is only ever left by a person or by this sweeper, so the latest history entry is that decision.
  if ((JSON.parse(event.edited_fields) as string[]).includes(HAND_SET_STATE))
    return event.state_at?.slice(0, 10) ?? null;
  const meta = event.metadata ? (JSON.parse(event.metadata) as UploadMetadata) : null;
  if (meta?.state_hint === event.state) return event.uploaded_at.slice(0, 10);
  return null;
}
