import { nowIso, transaction, type Database } from '../db/database.ts';

/**
 * Time moves events on: a contract, policy or offer whose end date (due_date) has passed expires. Run at start-up
 * and then every hour, so an archive that was switched off catches up when it comes back. Returns how many changed.
 */
export function expireEndedTerms(db: Database, today = nowIso().slice(0, 10)): number {
  return transaction(db, () => {
    const ended = db.prepare(`SELECT id, state FROM events WHERE event_type IN ('contract', 'policy', 'offer')
      AND state IN ('active', 'open') AND due_date IS NOT NULL AND due_date < ?`).all(today) as Array<{ id: string; state: string }>;
    const now = nowIso();
    for (const event of ended) {
      db.prepare("UPDATE events SET state = 'expired', updated_at = ? WHERE id = ?").run(now, event.id);
      db.prepare('INSERT INTO event_history (event_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)')
        .run(event.id, event.state, 'expired', now, 'end date passed');
    }
    return ended.length;
  });
}
