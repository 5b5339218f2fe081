import type { ArchiveEvent } from '../../../common/archive-types.ts';
import type { Settings } from '../../../common/settings.ts';
import type { DueEvent } from './due-items.ts';
import { addDays, daysBetween, localDate, localInstant } from './local-dates.ts';
import type { ReminderKey } from './reminder-log.ts';

export type RemindersSettings = Settings['reminders'];

/** The digest is not about one event; its key carries this instead of an event id. */
export const DIGEST_EVENT_ID = '*';

/**
 * Giving notice takes a letter and its delivery, and a missed deadline renews a contract for a whole term: a notice
 * deadline is reminded this many days ahead as well as `days_before`.
 */
export const NOTICE_LEAD_DAYS = 30;

/** `key` is what the reminder log records. */
export type ReminderRule =
  | { kind: 'before'; key: ReminderKey; event: ArchiveEvent; daysLeft: number }
  | { kind: 'notice-ahead'; key: ReminderKey; event: DueEvent; daysLeft: number; termEnd: string }
  | { kind: 'due-day'; key: ReminderKey; event: ArchiveEvent }
  | { kind: 'digest'; key: ReminderKey; events: ArchiveEvent[] };

/**
 * Whom an event's reminders are about: its document and the kind of event, not the event's id. The spec does not
 * promise that a reprocessed document keeps its event ids (the embedded service does; another service may write new
 * events), and a reprocess must not remind anyone twice. A document carries one event of a kind.
 */
export function reminderSubject(event: Pick<ArchiveEvent, 'document_id' | 'event_type'>): string {
  return `${event.document_id}:${event.event_type}`;
}

/**
 * Every reminder whose time has come at `now`, fired or not (the caller filters what the log already holds).
 * A day's reminders come at `digest_time` local time; one that came while the computer slept or the app was closed is
 * still due as long as its condition holds:
 * - `before`: from days_before days before the due date until the day before it (an event that arrives later in that
 *   window is reminded at once);
 * - `notice-ahead`: a contract's notice deadline (an event with `term_end`), from NOTICE_LEAD_DAYS days before it until
 *   the `before` window starts;
 * - `due-day`: on the due date;
 * - `overdue-digest`: once a day (the day is its key's date), listing every overdue event.
 * Snoozed events take part in none of them. A key is subject + rule kind + due date and nothing else: a changed due
 * date re-arms the rules, a changed days_before or a reprocess (new event id, new updated_at) does not.
 */
export function dueReminders(
  events: readonly DueEvent[],
  settings: RemindersSettings,
  now: number,
  snoozed: ReadonlyMap<string, number>,
): ReminderRule[] {
  const today = localDate(now);
  const time = settings.digest_time;
  const rules: ReminderRule[] = [];
  const overdue: ArchiveEvent[] = [];
  for (const event of events) {
    const due = event.due_date;
    if (!due || (snoozed.get(event.id) ?? 0) > now) continue;
    if (due < today) {
      overdue.push(event);
      continue;
    }
    const n = settings.days_before;
    const beforeStarts = n > 0 ? addDays(due, -n) : due;
    if (
      event.term_end &&
      NOTICE_LEAD_DAYS > n &&
      now >= localInstant(addDays(due, -NOTICE_LEAD_DAYS), time) &&
      today < beforeStarts
    ) {
      rules.push({
        kind: 'notice-ahead',
        key: { event_id: reminderSubject(event), rule: 'notice-ahead', due_date: due },
        event,
        daysLeft: daysBetween(today, due),
        termEnd: event.term_end,
      });
    }
    if (n > 0 && due > today && now >= localInstant(addDays(due, -n), time)) {
      rules.push({
        kind: 'before',
        key: { event_id: reminderSubject(event), rule: 'before', due_date: due },
        event,
        daysLeft: daysBetween(today, due),
      });
    }
    if (settings.on_due_day && due === today && now >= localInstant(today, time)) {
      rules.push({
        kind: 'due-day',
        key: { event_id: reminderSubject(event), rule: 'due-day', due_date: due },
        event,
      });
    }
  }
  if (overdue.length > 0 && now >= localInstant(today, time)) {
    rules.push({
      kind: 'digest',
      key: { event_id: DIGEST_EVENT_ID, rule: 'overdue-digest', due_date: today },
      events: overdue,
    });
  }
  return rules;
}
