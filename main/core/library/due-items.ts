import type { ArchiveDocument, ArchiveEvent, EventState, EventType } from '../../../common/archive-types.ts';
import type { CachedEventQuery } from './library-cache.ts';
import { isoWeek } from './local-dates.ts';

/** The states in which an event with a due date still asks something of the user. */
export const DUE_STATES: readonly EventState[] = ['open', 'needs_input'];

export interface CurrencyTotal {
  currency: string;
  value: number;
  count: number;
}

/** A due event as the due view shows it. */
export interface DueEvent extends ArchiveEvent {
  /** A contract's or policy's notice deadline: the end of its term (the deadline is the event's due date). */
  term_end?: string;
  /** Events of documents the service flagged as possible duplicates of this one's: shown with it, counted once. */
  possible_duplicates?: ArchiveEvent[];
}

/** What the cache knows beside the due events themselves. */
export interface DueFacts {
  /** Per document id: the document the service named in `possible_duplicate_of`. */
  twinOf: ReadonlyMap<string, string>;
  /** Per document id: the end date of its contract or policy event (its notice event is the notice deadline). */
  termEnds: ReadonlyMap<string, string>;
}

const NO_FACTS: DueFacts = { twinOf: new Map(), termEnds: new Map() };

/** The cache's reads dueFactsOf needs. */
export interface DueFactsSource {
  getDocument(id: string): ArchiveDocument | null;
  listEvents(query: CachedEventQuery): { items: ArchiveEvent[] };
}

/** A document holds its main event and at most a notice deadline; a few more are tolerated. */
const EVENTS_PER_DOCUMENT = 10;
const TERM_TYPES: ReadonlySet<EventType> = new Set<EventType>(['contract', 'policy']);

/** A contract or policy in force with an end date: the due view shows when it ends and the last day to give notice. */
export interface DueTerm {
  event: ArchiveEvent;
  /** The due date of the document's notice-deadline event; null when no notice period was read. */
  notice_deadline: string | null;
}

/** Terms listed at most: a household has a few dozen contracts, an office a few hundred. */
const MAX_TERMS = 200;

/** Contracts and policies in force whose term ends today or later, soonest end first, with their notice deadlines. */
export function termsOf(source: DueFactsSource, today: string): DueTerm[] {
  const inForce = [...TERM_TYPES].flatMap(
    (type) =>
      source.listEvents({
        state: ['active', 'open'],
        event_type: type,
        due_after: today,
        limit: MAX_TERMS,
      }).items,
  );
  inForce.sort((a, b) => a.due_date!.localeCompare(b.due_date!) || a.id.localeCompare(b.id));
  return inForce.slice(0, MAX_TERMS).map((event) => ({
    event,
    notice_deadline:
      source
        .listEvents({ document_id: event.document_id, limit: EVENTS_PER_DOCUMENT })
        .items.find((e) => e.event_type === 'notice' && e.due_date)?.due_date ?? null,
  }));
}

/** The facts of these due events' documents, from the cache. */
export function dueFactsOf(source: DueFactsSource, events: readonly ArchiveEvent[]): DueFacts {
  const twinOf = new Map<string, string>();
  const termEnds = new Map<string, string>();
  for (const documentId of new Set(events.map((e) => e.document_id))) {
    const twin = source.getDocument(documentId)?.possible_duplicate_of;
    if (twin) twinOf.set(documentId, twin);
  }
  for (const notice of events.filter((e) => e.event_type === 'notice')) {
    const term = source
      .listEvents({ document_id: notice.document_id, limit: EVENTS_PER_DOCUMENT })
      .items.find((e) => TERM_TYPES.has(e.event_type) && e.due_date);
    if (term?.due_date) termEnds.set(notice.document_id, term.due_date);
  }
  return { twinOf, termEnds };
}

/**
 * Folds possible duplicates: an event whose document is flagged as a possible duplicate of a document that already
 * has an event of the same type in the list joins that one (the earlier due, else the first listed) instead of
 * standing and counting on its own, until the user says "not a duplicate" or deletes a copy. Notice events of a
 * contract or policy carry the term's end.
 */
export function dueEvents(events: readonly ArchiveEvent[], facts: DueFacts = NO_FACTS): DueEvent[] {
  const shown: DueEvent[] = [];
  const byDocument = new Map<string, DueEvent[]>();
  for (const event of events) {
    const twin = facts.twinOf.get(event.document_id);
    const host = twin ? byDocument.get(twin)?.find((e) => e.event_type === event.event_type) : undefined;
    if (host) {
      host.possible_duplicates = [...(host.possible_duplicates ?? []), event];
      continue;
    }
    const termEnd = event.event_type === 'notice' ? facts.termEnds.get(event.document_id) : undefined;
    const item: DueEvent = termEnd ? { ...event, term_end: termEnd } : { ...event };
    shown.push(item);
    byDocument.set(event.document_id, [...(byDocument.get(event.document_id) ?? []), item]);
  }
  return shown;
}

export interface DueGroup {
  items: DueEvent[];
  /** Sum of the amounts per currency (events without an amount are only counted in `items`). */
  totals: CurrencyTotal[];
}

export interface DueWeek extends DueGroup {
  /** ISO week, e.g. `2026-W51`, and its Monday and Sunday. */
  week: string;
  starts: string;
  ends: string;
}

export interface DueItems {
  today: string;
  /** Due before today, oldest first. */
  overdue: DueGroup;
  /** Due today or later, by ISO week (the current week first). */
  weeks: DueWeek[];
  totals: CurrencyTotal[];
  count: number;
  /** Contracts and policies in force with their ends and notice deadlines (not counted: nothing to pay). */
  terms: DueTerm[];
}

/**
 * Groups due events (already filtered to open/needs_input with a due date, sorted by due date) for the due view,
 * possible duplicates folded (see dueEvents).
 */
export function groupDueItems(
  all: readonly ArchiveEvent[],
  today: string,
  facts: DueFacts = NO_FACTS,
  terms: DueTerm[] = [],
): DueItems {
  const events = dueEvents(all, facts);
  const overdue = events.filter((e) => e.due_date! < today);
  const upcoming = events.filter((e) => e.due_date! >= today);
  const weeks = new Map<string, DueWeek>();
  for (const event of upcoming) {
    const week = isoWeek(event.due_date!);
    let group = weeks.get(week.week);
    if (!group) weeks.set(week.week, (group = { ...week, items: [], totals: [] }));
    group.items.push(event);
  }
  for (const group of weeks.values()) group.totals = totalsOf(group.items);
  return {
    today,
    overdue: { items: overdue, totals: totalsOf(overdue) },
    weeks: [...weeks.values()].sort((a, b) => a.starts.localeCompare(b.starts)),
    totals: totalsOf(events),
    count: events.length,
    terms,
  };
}

export function totalsOf(events: readonly ArchiveEvent[]): CurrencyTotal[] {
  const sums = new Map<string, CurrencyTotal>();
  for (const { amount } of events) {
    if (!amount) continue;
    const total = sums.get(amount.currency) ?? { currency: amount.currency, value: 0, count: 0 };
    total.value += amount.value;
    total.count++;
    sums.set(amount.currency, total);
  }
  // Binary floating point leaves 0.30000000000000004 behind; no currency has more than 4 minor digits.
  return [...sums.values()]
    .map((t) => ({ ...t, value: Math.round(t.value * 10_000) / 10_000 }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}
