/** Display helpers for the Due screen. Pure, so they are tested without a DOM. */

export interface CurrencyTotal {
  currency: string;
  value: number;
  count: number;
}

const DAY = 86_400_000;

/** Whole days from `today` to `due` (both YYYY-MM-DD): negative when overdue. */
export function daysUntil(due: string, today: string): number {
  return Math.round((Date.parse(`${due}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY);
}

export type Relative =
  { key: 'due.today' } | { key: 'due.daysLeft'; count: number } | { key: 'due.daysOver'; count: number };

export function relativeDue(due: string, today: string): Relative {
  const days = daysUntil(due, today);
  if (days === 0) return { key: 'due.today' };
  return days > 0 ? { key: 'due.daysLeft', count: days } : { key: 'due.daysOver', count: -days };
}

/** "2026-W51" → "51"; the current week is labelled "this week" by the caller. */
export function weekNumber(week: string): string {
  const m = /^\d{4}-W(\d{2})$/.exec(week);
  return m ? String(Number(m[1])) : week;
}

/** Totals sorted by currency code, so the line does not jump around between refreshes. */
export function sortedTotals(totals: readonly CurrencyTotal[]): CurrencyTotal[] {
  return [...totals].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Sums per currency (used after client-side filtering, when the service's totals no longer apply). */
export function sumByCurrency(
  items: ReadonlyArray<{ amount: { value: number; currency: string } | null }>,
): CurrencyTotal[] {
  const map = new Map<string, CurrencyTotal>();
  for (const item of items) {
    if (!item.amount) continue;
    const entry = map.get(item.amount.currency) ?? { currency: item.amount.currency, value: 0, count: 0 };
    entry.value = Math.round((entry.value + item.amount.value) * 100) / 100;
    entry.count += 1;
    map.set(item.amount.currency, entry);
  }
  return sortedTotals([...map.values()]);
}

/** The snooze instant: `days` from now at 09:00 local time. */
export function snoozeUntil(now: Date, days: number): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 9, 0, 0, 0);
  return d.toISOString();
}
