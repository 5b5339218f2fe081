import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ArchiveEvent } from '../../common/archive-types.ts';
import type { Locale } from '../../common/i18n/translate.ts';
import { defaultSettings } from '../../common/settings.ts';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { Reminders, type ReminderNotification, type RemindersSettings } from '../../main/core/library/reminders.ts';

const SPACE = '11111111-1111-4111-8111-111111111111';
let dir: string;
let cache: LibraryCache;
let clock: number;
let settings: RemindersSettings;
let shown: ReminderNotification[];

/** A local wall-clock instant (the reminders speak the user's local time, whatever zone the machine is in). */
function at(date: string, time = '09:00'): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).getTime();
}

function event(n: number, changes: Partial<ArchiveEvent> = {}): ArchiveEvent {
  return {
    id: `eeeeeeee-0000-4000-8000-${String(n).padStart(12, '0')}`,
    document_id: `dddddddd-0000-4000-8000-${String(n).padStart(12, '0')}`,
    space_id: SPACE,
    event_type: 'invoice',
    state: 'open',
    title: `Invoice ${n}`,
    amount: { value: 100 + n, currency: 'EUR' },
    due_date: null,
    reference_number: null,
    sender_name: null,
    created_at: '2030-11-01T10:00:00.000Z',
    updated_at: '2030-11-01T10:00:00.000Z',
    ...changes,
  };
}

function document(id: string, deleted: boolean): ArchiveDocument {
  return {
    id,
    space_id: SPACE,
    category_id: null,
    category_name: null,
    status: 'completed',
    title: 'doc',
    original_filename: 'doc.pdf',
    mime_type: 'application/pdf',
    file_format: 'pdf',
    size_bytes: 1,
    sha256: '0'.repeat(64),
    page_count: 1,
    language: null,
    sender_name: null,
    document_date: null,
    tags: [],
    duplicate_of: null,
    processing_note: null,
    error: null,
    created_at: '2030-11-01T10:00:00.000Z',
    updated_at: '2030-11-01T10:00:00.000Z',
    processed_at: null,
    deleted_at: deleted ? '2030-11-02T10:00:00.000Z' : null,
  };
}

function reminders(over: LibraryCache = cache, locale?: () => Locale): Reminders {
  return new Reminders({
    cache: over,
    settings: () => settings,
    now: () => clock,
    notify: (n) => shown.push(n),
    ...(locale ? { locale } : {}),
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reminders-test-'));
  cache = new LibraryCache(join(dir, 'library.sqlite'));
  settings = defaultSettings().reminders;
  shown = [];
});
afterEach(async () => {
  cache.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reminders', () => {
  it('fire N days before, on the due day, and as a daily overdue digest, each once, at the digest time', () => {
    const invoice = event(1, { due_date: '2030-12-17', sender_name: 'Stadtwerke', reference_number: 'R-42' });
    cache.upsertEvents([invoice]);
    const r = reminders();
    const checkAt = (date: string, time?: string) => {
      clock = at(date, time);
      return r.check();
    };

    expect(checkAt('2030-12-13', '10:00')).toEqual([]);
    expect(checkAt('2030-12-14', '08:59')).toEqual([]);
    expect(checkAt('2030-12-14', '09:00')).toEqual([
      {
        id: `reminder:${invoice.id}:before:2030-12-17`,
        kind: 'reminder',
        eventIds: [invoice.id],
        title: 'Due in 3 days: Invoice 1',
        body: '€101.00 · due Dec 17, 2030 · Stadtwerke · R-42',
      },
    ]);
    expect(checkAt('2030-12-14', '09:01')).toEqual([]);
    expect(checkAt('2030-12-16', '09:00')).toEqual([]);
    expect(checkAt('2030-12-17', '08:00')).toEqual([]);
    expect(checkAt('2030-12-17', '09:30')).toMatchObject([
      { id: `reminder:${invoice.id}:due-day:2030-12-17`, title: 'Due today: Invoice 1' },
    ]);
    expect(checkAt('2030-12-17', '18:00')).toEqual([]);
    expect(checkAt('2030-12-18', '09:00')).toEqual([
      {
        id: 'digest:2030-12-18',
        kind: 'digest',
        eventIds: [invoice.id],
        title: '1 overdue item',
        body: 'Invoice 1 – €101.00 (due Dec 17, 2030)\nTotal: €101.00',
      },
    ]);
    expect(checkAt('2030-12-18', '23:59')).toEqual([]);
    expect(checkAt('2030-12-19', '09:00')).toMatchObject([{ kind: 'digest', id: 'digest:2030-12-19' }]);
    expect(shown.map((n) => n.kind)).toEqual(['reminder', 'reminder', 'digest', 'digest']);
  });

  it('what fired stays fired across a restart: a new instance over the same cache file does not repeat it', () => {
    cache.upsertEvents([event(1, { due_date: '2030-12-17' })]);
    clock = at('2030-12-14', '09:00');
    expect(reminders().check()).toHaveLength(1);

    cache.close();
    cache = new LibraryCache(join(dir, 'library.sqlite'));
    const restarted = reminders();
    expect(restarted.check()).toEqual([]);
    clock = at('2030-12-17', '09:00');
    expect(restarted.check().map((n) => n.title)).toEqual(['Due today: Invoice 1']);
    expect(shown).toHaveLength(2);
  });

  it('after a long sleep the missed reminders come as one summary, not a flood', () => {
    const soon = event(1, { due_date: '2030-12-20' });
    const later = event(2, { due_date: '2030-12-21' });
    const overdue = event(3, { due_date: '2030-12-10' });
    const another = event(4, { due_date: '2030-12-09', amount: { value: 5, currency: 'USD' } });
    cache.upsertEvents([soon, later, overdue, another]);
    const r = reminders();
    clock = at('2030-12-01', '12:00');
    expect(r.check()).toEqual([]);

    // The lid was shut for eighteen days; the machine wakes mid-morning.
    clock = at('2030-12-19', '10:15');
    const woke = r.wake();
    expect(woke).toHaveLength(1);
    expect(shown).toEqual(woke);
    expect(woke[0]).toEqual({
      id: `summary:${clock}`,
      kind: 'summary',
      eventIds: [soon.id, later.id, another.id, overdue.id],
      title: '3 reminders',
      body: 'Due tomorrow: Invoice 1\nDue in 2 days: Invoice 2\n2 overdue items',
    });
    expect(r.check()).toEqual([]);
    // Each rule inside the summary counts as fired: tomorrow brings only what is new (the due day and a new digest).
    clock = at('2030-12-20', '09:00');
    expect(r.check()).toMatchObject([
      { kind: 'summary', title: '2 reminders', body: 'Due today: Invoice 1\n2 overdue items' },
    ]);
  });

  it('speak the language of the setting (German for de), amounts written as the UI writes them, asked each time', () => {
    const invoice = event(1, { due_date: '2030-12-17', sender_name: 'Stadtwerke', reference_number: 'R-42' });
    const others = [2, 3, 4, 5, 6, 7].map((n) =>
      event(n, { due_date: '2030-12-10', amount: { value: n, currency: 'EUR' } }),
    );
    cache.upsertEvents([invoice]);
    let locale: Locale = 'de';
    const r = reminders(cache, () => locale);
    clock = at('2030-12-14', '09:00');
    expect(r.check()).toEqual([
      {
        id: `reminder:${invoice.id}:before:2030-12-17`,
        kind: 'reminder',
        eventIds: [invoice.id],
        title: 'In 3 Tagen fällig: Invoice 1',
        body: '101,00\u00a0€ · fällig am 17. Dez. 2030 · Stadtwerke · R-42',
      },
    ]);
    clock = at('2030-12-17', '09:00');
    expect(r.check()).toMatchObject([{ title: 'Heute fällig: Invoice 1' }]);
    clock = at('2030-12-18', '09:00');
    expect(r.check()).toMatchObject([
      {
        title: '1 überfälliger Eintrag',
        body: 'Invoice 1 – 101,00\u00a0€ (fällig am 17. Dez. 2030)\nSumme: 101,00\u00a0€',
      },
    ]);

    cache.upsertEvents(others);
    clock = at('2030-12-19', '09:00');
    expect(r.check()).toMatchObject([
      {
        kind: 'digest',
        title: '7 überfällige Einträge',
        body: expect.stringMatching(/\nund 2 weitere\nSumme: 128,00\u00a0€$/),
      },
    ]);
    // The setting changed to English while the app ran: the next notification is English.
    locale = 'en';
    clock = at('2030-12-20', '09:00');
    expect(r.check()).toMatchObject([
      { title: '7 overdue items', body: expect.stringMatching(/\nand 2 more\nTotal: €128\.00$/) },
    ]);
  });

  it('a snoozed event is quiet until the snooze ends, then its reminder comes if still due', () => {
    const invoice = event(1, { due_date: '2030-12-17' });
    cache.upsertEvents([invoice]);
    const r = reminders();
    clock = at('2030-12-17', '08:00');
    r.snooze(invoice.id, at('2030-12-17', '12:00'));
    clock = at('2030-12-17', '09:00');
    expect(r.check()).toEqual([]);
    expect(r.dueCount()).toBe(0);
    clock = at('2030-12-17', '12:00');
    expect(r.check().map((n) => n.title)).toEqual(['Due today: Invoice 1']);
    expect(r.dueCount()).toBe(1);

    // Snoozed past the digest: tomorrow's digest leaves it out; unsnoozed, the next check brings that digest.
    r.snooze(invoice.id, at('2030-12-20', '00:00'));
    clock = at('2030-12-18', '09:00');
    expect(r.check()).toEqual([]);
    r.unsnooze(invoice.id);
    expect(r.check().map((n) => n.kind)).toEqual(['digest']);
  });

  it('a changed due date re-arms the rules; settled events and events of deleted documents stay quiet', () => {
    const invoice = event(1, { due_date: '2030-12-17' });
    cache.upsertEvents([invoice]);
    const r = reminders();
    clock = at('2030-12-14', '09:00');
    expect(r.check()).toHaveLength(1);

    cache.upsertEvents([{ ...invoice, due_date: '2030-12-24', updated_at: '2030-12-14T10:00:00.000Z' }]);
    clock = at('2030-12-21', '09:00');
    expect(r.check().map((n) => n.id)).toEqual([`reminder:${invoice.id}:before:2030-12-24`]);

    cache.upsertEvents([{ ...invoice, due_date: '2030-12-24', state: 'paid' }]);
    const hidden = event(2, { due_date: '2030-12-24' });
    cache.upsertEvents([hidden]);
    cache.upsertDocuments([document(hidden.document_id, true)], clock);
    clock = at('2030-12-24', '09:00');
    expect(r.check()).toEqual([]);
    expect(r.dueCount()).toBe(0);
  });

  it('a changed days_before does not re-arm a reminder that fired, whether the window grows or shrinks', () => {
    const invoice = event(1, { due_date: '2030-12-17' });
    cache.upsertEvents([invoice]);
    const r = reminders();
    clock = at('2030-12-14', '09:00');
    expect(r.check().map((n) => n.title)).toEqual(['Due in 3 days: Invoice 1']);

    settings = { ...settings, days_before: 5 };
    clock = at('2030-12-14', '10:00');
    expect(r.check()).toEqual([]);
    settings = { ...settings, days_before: 1 };
    clock = at('2030-12-16', '09:00');
    expect(r.check()).toEqual([]);
    // The other rules are their own: the due day still comes, once.
    clock = at('2030-12-17', '09:00');
    expect(r.check().map((n) => n.title)).toEqual(['Due today: Invoice 1']);
    expect(r.check()).toEqual([]);
    expect(shown).toHaveLength(2);
  });

  it('a reprocess does not re-arm: a rewritten event (new updated_at, even a new id) of the same document and kind stays fired', () => {
    const invoice = event(1, { due_date: '2030-12-17' });
    cache.upsertEvents([invoice]);
    const r = reminders();
    clock = at('2030-12-14', '09:00');
    expect(r.check()).toHaveLength(1);

    // The embedded service keeps the event id and bumps updated_at.
    cache.upsertEvents([{ ...invoice, title: 'Invoice 1 (reprocessed)', updated_at: '2030-12-14T09:30:00.000Z' }]);
    clock = at('2030-12-14', '10:00');
    expect(r.check()).toEqual([]);

    // Another service may drop the event and write a new one for the same document.
    const rewritten = {
      ...invoice,
      id: 'eeeeeeee-0000-4000-8000-999999999999',
      updated_at: '2030-12-15T08:00:00.000Z',
    };
    cache.removeEvents([invoice.id]);
    cache.upsertEvents([rewritten]);
    clock = at('2030-12-15', '09:00');
    expect(r.check()).toEqual([]);
    clock = at('2030-12-17', '09:00');
    expect(r.check()).toMatchObject([{ id: `reminder:${rewritten.id}:due-day:2030-12-17`, eventIds: [rewritten.id] }]);
    clock = at('2030-12-17', '12:00');
    cache.upsertEvents([{ ...rewritten, updated_at: '2030-12-17T11:00:00.000Z' }]);
    expect(r.check()).toEqual([]);
    expect(shown).toHaveLength(2);

    // A different kind of event of the same document is reminded of on its own.
    const contract = event(2, { document_id: invoice.document_id, event_type: 'contract', due_date: '2030-12-20' });
    cache.upsertEvents([contract]);
    expect(r.check().map((n) => n.eventIds)).toEqual([[contract.id]]);
  });

  it('reminders an older version recorded (event id, before:<N>, overdue-digest:<date>) stay fired after the update', () => {
    const invoice = event(1, { due_date: '2030-12-17' });
    const old = event(2, { due_date: '2030-12-01' });
    const gone = event(3, { due_date: '2030-12-18' });
    cache.upsertEvents([invoice, old]);
    cache.close();
    // The cache as the older version left it: its keys, and the schema version before the rewrite.
    const raw = new DatabaseSync(join(dir, 'library.sqlite'));
    const insert = raw.prepare('INSERT INTO reminders_fired (event_id, rule, due_date, fired_at) VALUES (?, ?, ?, ?)');
    insert.run(invoice.id, 'before:7', '2030-12-17', at('2030-12-10'));
    insert.run(gone.id, 'due-day', '2030-12-18', at('2030-12-10'));
    insert.run('*', 'overdue-digest:2030-12-14', '2030-12-14', at('2030-12-14', '09:00'));
    raw.exec(`DROP INDEX documents_title; ALTER TABLE documents DROP COLUMN title_key;
      CREATE INDEX documents_title ON documents(deleted, title, id); DROP TABLE first_paint; PRAGMA user_version = 1`);
    raw.close();

    cache = new LibraryCache(join(dir, 'library.sqlite'));
    const keys = cache.db.prepare('SELECT event_id, rule, due_date FROM reminders_fired ORDER BY rule').all();
    expect(keys).toEqual([
      { event_id: `${invoice.document_id}:${invoice.event_type}`, rule: 'before', due_date: '2030-12-17' },
      { event_id: '*', rule: 'overdue-digest', due_date: '2030-12-14' },
    ]);
    const r = reminders();
    clock = at('2030-12-14', '09:00');
    expect(r.check()).toEqual([]);
    clock = at('2030-12-15', '09:00');
    expect(r.check().map((n) => n.kind)).toEqual(['digest']);
  });

  it("name a contract's notice deadline as Due does, with its term's end and the sender once; bills keep their words", () => {
    // Invented: a broadband contract whose title names its sender, as a contract's title often does.
    const title = 'Broadband agreement BB-3391 from Northwind Fibre GmbH';
    const term = event(21, { event_type: 'contract', state: 'active', title, amount: null, due_date: '2031-06-30' });
    const notice = event(22, {
      document_id: term.document_id,
      event_type: 'notice',
      title,
      amount: null,
      due_date: '2031-03-31',
      sender_name: 'Northwind Fibre GmbH',
      reference_number: 'BB-3391',
    });
    const bill = event(23, { due_date: '2031-03-31', sender_name: 'Quillfield Water', reference_number: 'QW-7' });
    cache.upsertDocuments([document(term.document_id, false), document(bill.document_id, false)], 0);
    cache.upsertEvents([term, notice, bill]);
    settings = { ...settings, days_before: 1 };
    let locale: Locale = 'en';
    const r = reminders(cache, () => locale);
    clock = at('2031-03-30', '09:00');
    expect(r.check()).toMatchObject([
      {
        kind: 'summary',
        body: [`Last day to give notice tomorrow: ${title}`, 'Due tomorrow: Invoice 23'].join('\n'),
      },
    ]);
    cache.upsertEvents([{ ...bill, state: 'paid' }]);
    locale = 'de';
    clock = at('2031-03-31', '09:00');
    expect(r.check()).toEqual([
      {
        id: `reminder:${notice.id}:due-day:2031-03-31`,
        kind: 'reminder',
        eventIds: [notice.id],
        title: `Heute letzter Tag für die Kündigung: ${title}`,
        body: 'kündigen bis 31. März 2031 · Laufzeit endet am 30. Juni 2031 · BB-3391',
      },
    ]);
  });

  it('a notice deadline a few days ahead says so in English, naming a sender its title does not', () => {
    const term = event(31, {
      event_type: 'contract',
      state: 'active',
      title: 'Gym membership',
      due_date: '2031-06-30',
    });
    const notice = event(32, {
      document_id: term.document_id,
      event_type: 'notice',
      title: 'Gym membership',
      amount: null,
      due_date: '2031-03-31',
      sender_name: 'Brightpeak Fitness',
    });
    cache.upsertDocuments([document(term.document_id, false)], 0);
    cache.upsertEvents([term, notice]);
    clock = at('2031-03-28', '09:00');
    expect(reminders().check()).toEqual([
      {
        id: `reminder:${notice.id}:before:2031-03-31`,
        kind: 'reminder',
        eventIds: [notice.id],
        title: 'Last day to give notice in 3 days: Gym membership',
        body: 'give notice by Mar 31, 2031 · term ends Jun 30, 2031 · Brightpeak Fitness',
      },
    ]);
  });

  it('dueCount counts open items overdue or due within days_before, for the tray', () => {
    cache.upsertEvents([
      event(1, { due_date: '2030-12-01' }),
      event(2, { due_date: '2030-12-10', state: 'needs_input', amount: null }),
      event(3, { due_date: '2030-12-13' }),
      event(4, { due_date: '2030-12-14' }),
      event(5, { due_date: '2030-12-11', state: 'paid' }),
      event(6, { due_date: null }),
      event(7, { due_date: '2030-12-12', event_type: 'contract', state: 'active' }),
    ]);
    const r = reminders();
    clock = at('2030-12-10', '07:00');
    expect(r.dueCount()).toBe(3); // overdue 1, due today 2, in three days 3
    settings = { ...settings, days_before: 4 };
    expect(r.dueCount()).toBe(4);
    r.snooze(event(1).id, at('2030-12-11'));
    expect(r.dueCount()).toBe(3);
  });

  it('disabled reminders fire nothing; start() checks at once and on its timer, wake() at once', async () => {
    cache.upsertEvents([event(1, { due_date: '2030-12-17' }), event(2, { due_date: '2030-12-20' })]);
    settings = { ...settings, enabled: false };
    clock = at('2030-12-14', '09:00');
    expect(reminders().check()).toEqual([]);

    settings = { ...settings, enabled: true };
    const r = new Reminders({
      cache,
      settings: () => settings,
      now: () => clock,
      notify: (n) => shown.push(n),
      checkIntervalMs: 20,
    });
    try {
      r.start();
      expect(shown.map((n) => n.title)).toEqual(['Due in 3 days: Invoice 1']);
      clock = at('2030-12-17', '09:00');
      const deadline = Date.now() + 5000;
      while (shown.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(shown.map((n) => n.kind)).toEqual(['reminder', 'summary']);
      expect(shown[1]!.body).toBe('Due today: Invoice 1\nDue in 3 days: Invoice 2');
    } finally {
      r.stop();
    }
    clock = at('2030-12-18', '09:00');
    expect(r.wake().map((n) => n.kind)).toEqual(['digest']);
  });
});
