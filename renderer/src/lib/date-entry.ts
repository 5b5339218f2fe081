/**
 * Typing a date the way the UI's locale writes it ("03.11.2026" in German, "11/03/2026" in English), instead of the
 * browser's date input, which follows the browser's or the OS's locale whatever language the app is set to. The form
 * keeps ISO dates (YYYY-MM-DD), as the service does.
 */
import type { Locale } from '../../../common/i18n/translate.ts';

type Part = 'day' | 'month' | 'year';
export interface DatePattern {
  order: readonly Part[];
  separator: string;
}

const patterns = new Map<Locale, DatePattern>();

/** The order and separator of the locale's numeric dates, as Intl writes them. */
export function datePattern(locale: Locale): DatePattern {
  let pattern = patterns.get(locale);
  if (!pattern) {
    const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(
      new Date(2026, 10, 3),
    );
    const order = parts
      .map((p) => p.type)
      .filter((type): type is Part => type === 'day' || type === 'month' || type === 'year');
    const separator = parts.find((p) => p.type === 'literal')?.value ?? '/';
    pattern = { order: order.length === 3 ? order : ['year', 'month', 'day'], separator };
    patterns.set(locale, pattern);
  }
  return pattern;
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

function isoOf(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** An ISO date as the locale writes it in numbers; anything that is not an ISO date is shown as it is. */
export function formatDateEntry(locale: Locale, iso: string): string {
  const m = ISO.exec(iso);
  if (!m) return iso;
  const { order, separator } = datePattern(locale);
  const values: Record<Part, string> = { year: m[1]!, month: m[2]!.padStart(2, '0'), day: m[3]!.padStart(2, '0') };
  return order.map((part) => values[part]).join(separator);
}

/**
 * What was typed, as an ISO date: the locale's order with any of `.`, `/`, `-` or spaces between the numbers, a
 * two-digit year in this century, or an ISO date. '' for an empty field; null when it is not a date of the calendar.
 */
export function parseDateEntry(locale: Locale, text: string): string | null {
  const typed = text.trim();
  if (typed === '') return '';
  const iso = ISO.exec(typed);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numbers = typed.split(/\s*[./-]\s*|\s+/);
  if (numbers.length !== 3 || !numbers.every((n) => /^\d{1,4}$/.test(n))) return null;
  const values = {} as Record<Part, number>;
  datePattern(locale).order.forEach((part, i) => (values[part] = Number(numbers[i])));
  const yearText = numbers[datePattern(locale).order.indexOf('year')]!;
  if (yearText.length === 2) values.year += 2000;
  else if (yearText.length !== 4) return null;
  return isoOf(values.year, values.month, values.day);
}
