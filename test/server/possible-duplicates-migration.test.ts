import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { completeMigrations, MIGRATIONS, migrate } from '../../server/db/migrations.ts';
import { documentSelect } from '../../server/documents/document-rows.ts';
import { SqliteSql } from '../../server/db/sqlite-sql.ts';
import { runMigrations } from '../../shared/db/migrate.ts';

// Senders and references are invented.

describe('possible duplicates migration', () => {
  it("an existing archive flags the copies of one bill it already holds, and moves their updated_at for the apps' syncs", async () => {
    const db = new DatabaseSync(':memory:');
    try {
      // The archive as it was before possible duplicates (migration 10).
      runMigrations(db, MIGRATIONS.slice(0, 9));
      const space = (db.prepare('SELECT id FROM spaces').get() as { id: string }).id;
      const at = '2026-01-01T00:00:00.000Z';
      db.prepare('INSERT INTO senders (id, space_id, name, created_at) VALUES (?, ?, ?, ?)').run(
        's1',
        space,
        'Stadtwerke Beispiel GmbH',
        at,
      );
      db.prepare('INSERT INTO senders (id, space_id, name, created_at) VALUES (?, ?, ?, ?)').run(
        's2',
        space,
        'STADTWERKE BEISPIEL',
        at,
      );
      const doc =
        db.prepare(`INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format,
        size_bytes, sha256, created_at, updated_at) VALUES (?, ?, 'completed', 'Rechnung', 'x.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?)`);
      const event =
        db.prepare(`INSERT INTO events (id, document_id, event_type, state, title, amount_value, amount_currency,
        reference_number, sender_id, created_at, updated_at) VALUES (?, ?, 'invoice', 'open', 'Rechnung', ?, 'EUR', ?, ?, ?, ?)`);
      for (const [id, sha, sender, value] of [
        ['d1', 'aa', 's1', 84.2],
        ['d2', 'bb', 's2', 84.2],
        ['d3', 'cc', 's1', 99],
      ] as const) {
        doc.run(id, space, sha, at, at);
        event.run(`e-${id}`, id, value, 'RE-2026/101', sender, at, at);
      }

      migrate(db);
      const sql = new SqliteSql(db);
      await completeMigrations(sql);
      const flag = (id: string) =>
        db.prepare(`${documentSelect(sql)} WHERE d.id = ?`).get(id) as {
          possible_duplicate_of: string | null;
          updated_at: string;
        };
      expect(flag('d1').possible_duplicate_of).toBe('d2');
      expect(flag('d2').possible_duplicate_of).toBe('d1');
      expect(flag('d3').possible_duplicate_of).toBeNull();
      expect(flag('d1').updated_at > at).toBe(true);
      expect(flag('d3').updated_at).toBe(at);
    } finally {
      db.close();
    }
  });
});
