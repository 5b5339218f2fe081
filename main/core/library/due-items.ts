import type { ArchiveEvent, EventState } from '../../../common/archive-types.ts';
import { isoWeek } from './local-dates.ts';

/** The states in which an event with a due date still asks something of the user. */
export const DUE_STATES: readonly EventState[] = ['open', 'needs_input'];

export interface CurrencyTotal { currency: string; value: number; count: number }

export interface DueGroup {
  items: ArchiveEvent[];
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
}

/** Groups due events (already filtered to open/needs_input with a due date, sorted by due date) for the due view. */
export function groupDueItems(events: readonly ArchiveEvent[], today: string): DueItems {
  const overdue = events.filter((e) => e.due_date! < today);
  const upcoming = events.filter((e) => e.due_date! >= today);
  const weeks = new Map<string, DueWeek>();
  for (const event of upcoming) {
    const week = isoWeek(event.due_date!);
    let group = weeks.get(week.week);
    if (!group) weeks.set(week.week, group = { ...week, items: [], totals: [] });
    group.items.push(event);
  }
  for (const group of weeks.values()) group.totals = totalsOf(group.items);
  return {
    today,
    overdue: { items: overdue, totals: totalsOf(overdue) },
    weeks: [...weeks.values()].sort((a, b) => a.starts.localeCompare(b.starts)),
    totals: totalsOf(events),
    count: events.length,
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
  return [...sums.values()].map((t) => ({ ...t, value: Math.round(t.value * 10_000) / 10_000 }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
}
