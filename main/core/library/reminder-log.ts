import type { DatabaseSync } from 'node:sqlite';

/**
 * One reminder: whom it is about (reminderSubject: document and event type; `*` for the daily digest), the rule's
 * kind, and the due date it was computed for. The column is still called event_id: it held the event id before.
 */
export interface ReminderKey {
  event_id: string;
  rule: string;
  due_date: string;
}

/**
 * What reminders already fired and which events are snoozed, in the library cache's database: both must survive a
 * restart, or every start would notify again.
 */
export class ReminderLog {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  /** Whether `key` was recorded (keys of older versions are rewritten when the cache opens: cache-schema.ts). */
  hasFired(key: ReminderKey): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM reminders_fired WHERE event_id = ? AND rule = ? AND due_date = ?')
        .get(key.event_id, key.rule, key.due_date) !== undefined
    );
  }

  /** Records keys as fired, in one transaction (a reminder counts as fired once it is written here). */
  record(keys: readonly ReminderKey[], firedAt: number): void {
    if (keys.length === 0) return;
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO reminders_fired (event_id, rule, due_date, fired_at) VALUES (?, ?, ?, ?)',
    );
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const key of keys) insert.run(key.event_id, key.rule, key.due_date, firedAt);
      this.db.exec('COMMIT');
    } catch (error) {
      // SQLite may have rolled back itself (disk full): a second ROLLBACK would hide the real error.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Forgets reminders fired before `before` (their due dates are long past; the table would only grow). */
  prune(before: number): void {
    this.db.prepare('DELETE FROM reminders_fired WHERE fired_at < ?').run(before);
    this.db.prepare('DELETE FROM snoozes WHERE until < ?').run(before);
  }

  snooze(eventId: string, until: number): void {
    this.db
      .prepare(
        'INSERT INTO snoozes (event_id, until) VALUES (?, ?) ON CONFLICT (event_id) DO UPDATE SET until = excluded.until',
      )
      .run(eventId, until);
  }

  unsnooze(eventId: string): void {
    this.db.prepare('DELETE FROM snoozes WHERE event_id = ?').run(eventId);
  }

  /** Events snoozed beyond `now`, with the end of their snooze. */
  snoozed(now: number): Map<string, number> {
    const rows = this.db.prepare('SELECT event_id, until FROM snoozes WHERE until > ?').all(now) as Array<{
      event_id: string;
      until: number;
    }>;
    return new Map(rows.map((r) => [r.event_id, r.until]));
  }
}
