import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArchiveDocument, ArchiveEvent } from '../../common/archive-types.ts';
import { defaultSettings } from '../../common/settings.ts';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { Reminders, type ReminderNotification } from '../../main/core/library/reminders.ts';

// Titles, senders and references are invented.

const SPACE = '11111111-1111-4111-8111-111111111111';
const id = (prefix: string, n: number) => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}`;
let dir: string;
let cache: LibraryCache;

function event(n: number, changes: Partial<ArchiveEvent> = {}): ArchiveEvent {
  return {
    id: id('eeeeeeee', n),
    document_id: id('dddddddd', n),
    space_id: SPACE,
    event_type: 'invoice',
    state: 'open',
    title: `Invoice ${n}`,
    amount: { value: 84.2, currency: 'EUR' },
    due_date: '2031-03-31',
    reference_number: 'RE-101',
    sender_name: 'Stadtwerke Beispiel',
    created_at: '2031-02-01T10:00:00.000Z',
    updated_at: '2031-02-01T10:00:00.000Z',
    ...changes,
  };
}

function document(n: number, changes: Partial<ArchiveDocument> = {}): ArchiveDocument {
  return {
    id: id('dddddddd', n),
    space_id: SPACE,
    category_id: null,
    category_name: null,
    status: 'completed',
    title: `Scan ${n}`,
    original_filename: `scan-${n}.pdf`,
    mime_type: 'application/pdf',
    file_format: 'pdf',
    size_bytes: 1,
    sha256: String(n).repeat(64).slice(0, 64),
    page_count: 1,
    language: null,
    sender_name: null,
    document_date: null,
    tags: [],
    duplicate_of: null,
    possible_duplicate_of: null,
    processing_note: null,
    error: null,
    created_at: '2031-02-01T10:00:00.000Z',
    updated_at: '2031-02-01T10:00:00.000Z',
    processed_at: null,
    deleted_at: null,
    ...changes,
  };
}

/** A local wall-clock instant (reminders speak the user's local time). */
function at(date: string, time = '09:00'): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).getTime();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'due-test-'));
  cache = new LibraryCache(join(dir, 'library.sqlite'));
});
afterEach(async () => {
  cache.close();
  await rm(dir, { recursive: true, force: true });
});

describe('possible duplicates in Due', () => {
  const flagged = () => {
    cache.upsertDocuments(
      [
        document(1, { possible_duplicate_of: id('dddddddd', 2) }),
        document(2, { possible_duplicate_of: id('dddddddd', 1) }),
      ],
      0,
    );
    cache.upsertEvents([event(1), event(2)]);
  };

  it('shows the pair once, with the other copy beside it, and counts its amount once', () => {
    flagged();
    const due = cache.dueItems({ today: '2031-03-01' });
    expect(due.count).toBe(1);
    expect(due.totals).toEqual([{ currency: 'EUR', value: 84.2, count: 1 }]);
    const [item] = due.weeks.flatMap((w) => w.items);
    expect(item?.id).toBe(id('eeeeeeee', 1));
    expect(item?.possible_duplicates?.map((e) => e.id)).toEqual([id('eeeeeeee', 2)]);
  });

  it('counts both once the user said "not a duplicate", and the one left after a delete alone', () => {
    flagged();
    cache.upsertDocuments([document(1), document(2)], 1);
    expect(cache.dueItems({ today: '2031-03-01' }).count).toBe(2);
    cache.upsertDocuments(
      [
        document(1, { deleted_at: '2031-02-02T10:00:00.000Z' }),
        document(2, { possible_duplicate_of: id('dddddddd', 1) }),
      ],
      2,
    );
    const due = cache.dueItems({ today: '2031-03-01' });
    expect(due.count).toBe(1);
    expect(due.weeks[0]?.items[0]).toMatchObject({ id: id('eeeeeeee', 2) });
    expect(due.weeks[0]?.items[0]?.possible_duplicates).toBeUndefined();
  });

  it('the tray and the reminders count the pair once too', () => {
    flagged();
    const shown: ReminderNotification[] = [];
    const clock = at('2031-03-28');
    const reminders = new Reminders({
      cache,
      settings: () => defaultSettings().reminders,
      now: () => clock,
      notify: (n) => shown.push(n),
    });
    expect(reminders.dueCount()).toBe(1);
    reminders.check();
    expect(shown.map((n) => n.eventIds)).toEqual([[id('eeeeeeee', 1)]]);
  });
});

describe('contracts in Due', () => {
  const contract = () => {
    cache.upsertDocuments([document(7, { title: 'Mobile contract' })], 0);
    cache.upsertEvents([
      event(7, {
        event_type: 'contract',
        state: 'active',
        title: 'Mobile contract',
        amount: null,
        due_date: '2031-06-30',
      }),
      event(8, {
        document_id: id('dddddddd', 7),
        event_type: 'notice',
        state: 'open',
        title: 'Mobile contract',
        amount: null,
        due_date: '2031-03-31',
      }),
    ]);
  };

  it('a notice deadline shows the end of its term', () => {
    contract();
    const items = cache.dueItems({ today: '2031-02-01' }).weeks.flatMap((w) => w.items);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: id('eeeeeeee', 8), due_date: '2031-03-31', term_end: '2031-06-30' });
  });

  it('a notice deadline is reminded a month ahead, then days_before as any due item, each once', () => {
    contract();
    const shown: ReminderNotification[] = [];
    let clock = at('2031-02-28');
    const reminders = new Reminders({
      cache,
      settings: () => defaultSettings().reminders,
      now: () => clock,
      notify: (n) => shown.push(n),
    });
    expect(reminders.check()).toEqual([]);
    clock = at('2031-03-01');
    expect(reminders.check()).toEqual([
      {
        id: `reminder:${id('eeeeeeee', 8)}:notice-ahead:2031-03-31`,
        kind: 'reminder',
        eventIds: [id('eeeeeeee', 8)],
        title: 'Notice deadline in 30 days: Mobile contract',
        body: 'give notice by Mar 31, 2031 · term ends Jun 30, 2031 · Stadtwerke Beispiel · RE-101',
      },
    ]);
    clock = at('2031-03-10');
    expect(reminders.check()).toEqual([]);
    clock = at('2031-03-28');
    expect(reminders.check().map((n) => n.title)).toEqual(['Last day to give notice in 3 days: Mobile contract']);
  });

  it('lists the contracts and policies in force with their end and notice deadline, apart from what is due', () => {
    contract();
    cache.upsertDocuments([document(10, { title: 'Home insurance' }), document(11, { title: 'Old lease' })], 0);
    cache.upsertEvents([
      event(10, {
        event_type: 'policy',
        state: 'active',
        title: 'Home insurance',
        amount: null,
        due_date: '2031-09-30',
      }),
      event(11, { event_type: 'contract', state: 'expired', title: 'Old lease', amount: null, due_date: '2030-12-31' }),
    ]);
    const due = cache.dueItems({ today: '2031-02-01' });
    expect(due.terms.map((term) => [term.event.title, term.event.due_date, term.notice_deadline])).toEqual([
      ['Mobile contract', '2031-06-30', '2031-03-31'],
      ['Home insurance', '2031-09-30', null],
    ]);
    expect(due.count).toBe(1);
  });

  it('a notice event of a document without a contract is an ordinary due item', () => {
    cache.upsertEvents([event(9, { event_type: 'notice', title: 'Payment reminder' })]);
    const [item] = cache.dueItems({ today: '2031-02-01' }).weeks.flatMap((w) => w.items);
    expect(item?.term_end).toBeUndefined();
  });
});
