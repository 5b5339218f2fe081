import type { Locale } from './translate.ts';

/**
 * Dates, times, amounts and numbers in the UI's locale, one way everywhere: the renderer (its i18n layer, the field
 * table) and the main process (reminder notifications) both use these, so an amount reads the same in a card and in a
 * notification. Formatters are made once per locale and kind: building an Intl formatter per call was a measurable part
 * of the library's first render.
 */
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

/** A calendar date (YYYY-MM-DD, read as that local day) or a timestamp, as a date: "Nov 5, 2026", "5. Nov. 2026". */
export function formatDate(locale: Locale, value: string | null | undefined): string {
  if (!value) return '—';
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00`) : new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return cached(
    `${locale}:date`,
    () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }),
  ).format(d);
}

/** Date and time; the locale's clock (24 h in German). */
export function formatDateTime(locale: Locale, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return cached(
    `${locale}:dateTime`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(d);
}

/** A time of day written HH:MM, on the locale's clock: "9:00 AM", "09:00". */
export function formatClockTime(locale: Locale, hhmm: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) return hhmm;
  const at = new Date(2000, 0, 1, Number(match[1]), Number(match[2]));
  return cached(`${locale}:clock`, () => new Intl.DateTimeFormat(locale, { timeStyle: 'short' })).format(at);
}

/** An amount with its currency: "€89.50", "89,50 €"; a code Intl does not know stands after the number. */
export function formatMoney(locale: Locale, value: number, currency: string): string {
  try {
    return cached(
      `${locale}:money:${currency}`,
      () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
    ).format(value);
  } catch {
    return `${cached(`${locale}:number`, () => new Intl.NumberFormat(locale)).format(value)} ${currency}`;
  }
}

/** A share from 0 to 1 as a whole percentage: "87%", "87 %". */
export function formatPercent(locale: Locale, share: number): string {
  return cached(
    `${locale}:percent`,
    () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }),
  ).format(share);
}

export const PERIOD_UNITS = ['day', 'week', 'month', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** A length of time in words, its unit in the locale's plural: "3 months", "3 Monate", "1 Jahr". */
export function formatPeriod(locale: Locale, count: number, unit: PeriodUnit): string {
  return cached(
    `${locale}:period:${unit}`,
    () => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }),
  ).format(count);
}

/** A language code ("de", "eng") as the language's name in the UI's language; the code when Intl does not know it. */
export function languageName(locale: Locale, code: string): string {
  try {
    return (
      cached(`${locale}:language`, () => new Intl.DisplayNames(locale, { type: 'language', fallback: 'none' })).of(
        code,
      ) ?? code
    );
  } catch {
    return code;
  }
}
