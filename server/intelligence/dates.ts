/**
 * Finds calendar dates as the six languages write them (numbers with dots, slashes or hyphens; month names and
 * abbreviations; a weekday before) and turns them into YYYY-MM-DD.
 */

import { documentCountries } from './country.ts';
import { LEXICONS, monthNumbers, weekdayNames } from './lexicon/index.ts';
import { dominantCurrency } from './money.ts';
import { scan, WORD_START, type Doc } from './text.ts';

export interface FoundDate {
  iso: string;
  line: number;
  /** Character offsets within the line. */
  start: number;
  end: number;
  text: string;
}

export interface DateOptions {
  /** How to read an ambiguous 03/04/2026: month first (US) or day first. */
  monthFirst: boolean;
  /** YYYY-MM-DD; two-digit years are read relative to it. */
  today: string;
}

const ENGLISH_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Month names of the six languages; where two languages share a spelling they mean the same month. */
const MONTH_BY_NAME = monthNumbers();
const MONTH_NAMES = zeroForO(alternation(MONTH_BY_NAME.keys()));
/** A weekday before a date ("Monday, 3 November 2026", "mardi 3 mars 2026", "vrijdag 7 mei 2027") belongs to it. */
const WEEKDAY = `(?:(?:${alternation(weekdayNames())})\\.?,? (?:(?:le|den|the|el|il) )?)?`;
/** After a day number: "3rd", "1er", "1º", "7e", "7de", "7." (German). */
const ORDINAL = `(?:${[...new Set(Object.values(LEXICONS).map((lexicon) => lexicon.ordinal))].join('|')})?`;
/** Between day, month and year: "7 de marzo de 2021", "the 7th of March", "7 maart 2021", "3-Nov-2020". */
const JOIN = `(?:${[...new Set(Object.values(LEXICONS).flatMap((lexicon) => lexicon.dateJoiners))].join('|')}) `;
type Kind = 'iso' | 'dotted' | 'slashed' | 'day-month' | 'day-month-short' | 'month-day';
const PATTERNS: ReadonlyArray<{ kind: Kind; re: RegExp }> = [
  { kind: 'iso', re: new RegExp(`${WORD_START}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})(?![\\d])`, 'g') },
  // OCR may turn the second dot into a colon or comma ("31. 12:2027"); with a four-digit year that is still a date.
  {
    kind: 'dotted',
    // Not right after another date: "23/05/2019 8.11.52" is the time of day in dots.
    re: new RegExp(
      `${WORD_START}(?<!\\d[/.-]\\d{2,4} )(\\d{1,2})\\. ?(\\d{1,2})(?:\\. ?|[:,](?=\\d{4}(?!\\d)))(\\d{4}|\\d{2})(?![\\d])`,
      'g',
    ),
  },
  // Slashes and hyphens ("15/12/2026", "15-12-2026", "15-12-26"): day or month first by the document's convention.
  // OCR of a till slip's spaced print puts a space beside a separator ("09- 11-19", "14- 07- 2019"), or reads one
  // twice ("14- -07- 2019").
  {
    kind: 'slashed',
    re: new RegExp(`${WORD_START}(\\d{1,2}) ?([/-])(?: ?\\2)? ?(\\d{1,2}) ?\\2 ?(\\d{4}|\\d{2})(?![\\d/-])`, 'g'),
  },
  // Right after a date label, OCR of spaced print may lose a separator or add specks to one ("Date: 18 06- 2027",
  // "Date : 02+ -04- 2027"): the label says the three numbers are a date.
  {
    kind: 'slashed',
    re: new RegExp(
      `(?<=(?<!\\p{L})(?:date|datum|fecha|data)(?!\\p{L})[^\\p{L}\\d\\n]{0,4})(\\d{1,2})([ +./-]{1,4})(\\d{1,2})[ +./-]{1,4}(\\d{4})(?![\\d/-])`,
      'giu',
    ),
  },
  {
    kind: 'day-month',
    // OCR may read a speck before the year as a hyphen ("26. Juli-2026").
    re: new RegExp(
      `${WORD_START}${WEEKDAY}(\\d{1,2})${ORDINAL}\\.? ?(?:${JOIN})?(${MONTH_NAMES})\\.?,? ?(?:${JOIN})?(?:[-–] ?)?(\\d{4})(?!\\d)`,
      'gi',
    ),
  },
  // "03-Nov-2026", "3/Nov/26"; with spaces a two-digit year only at the end of a line or before a time ("03 Nov 26
  // 14:05"), never in running text ("3 Nov 26 guests").
  {
    kind: 'day-month-short',
    re: new RegExp(`${WORD_START}(\\d{1,2})([-/])(${MONTH_NAMES})\\.?\\2(\\d{4}|\\d{2})(?![\\d:])`, 'gi'),
  },
  {
    kind: 'day-month-short',
    re: new RegExp(`${WORD_START}(\\d{1,2})( )(${MONTH_NAMES})\\.? (\\d{2})(?= ?(?:\\n|$|\\d{1,2}:\\d{2}))`, 'gi'),
  },
  // An airline's or a bank's "14MAR26": day, English month in capitals, two-digit year, no separators.
  {
    kind: 'day-month-short',
    re: /(?<![\p{L}\d])(\d{2})()(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2})(?![\p{L}\d])/gu,
  },
  {
    kind: 'month-day',
    re: new RegExp(`${WORD_START}${WEEKDAY}(${MONTH_NAMES})\\.? (\\d{1,2})${ORDINAL},? ?(\\d{4})(?!\\d)`, 'gi'),
  },
];

function alternation(words: Iterable<string>): string {
  return [...new Set(words)]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/\./g, '\\.'))
    .join('|');
}

/** OCR reads the letter o of a month name as a zero ("0ct", "N0v", "0kt"). */
function zeroForO(source: string): string {
  return source.replaceAll('o', '[o0]');
}

/** Words of the day-first English-speaking world: tax and company forms of the UK, Ireland, Australia, Asia. */
const DAY_FIRST_WORDS = /\b(?:VAT|GST|SST|ABN|Pty|plc|Ltd|Sdn\.? ?Bhd|Bhd)\b|United Kingdom|Ireland/u;

/**
 * Whether an ambiguous 03/04/2026 means March 4 (month first): only in English documents of the United States, or
 * of no named country whose money and wording are not those of a day-first country (a "RM", "£" or "€" total, "Ltd",
 * "GST").
 */
export function readsMonthFirst(text: string, language: string | null): boolean {
  const ownOrder = printedOrder(text);
  if (ownOrder !== null) return ownOrder === 'month-first';
  if (language !== 'en') return false;
  const countries = documentCountries(text);
  if (countries.includes('US')) return true;
  if (countries.length > 0 || DAY_FIRST_WORDS.test(text)) return false;
  const currency = dominantCurrency(text);
  return currency === null || currency === 'USD';
}

const NUMERIC_DATE = /(?<![\d/.-])(\d{1,2})([/-])(\d{1,2})\2(?:\d{4}|\d{2})(?![\d/-])/g;

/**
 * The order a document's own dates prove: a date whose second part is over 12 (10/24/2026) is written month first,
 * one whose first part is (24/10/2026) day first. Only when the document's dates agree, so a seller abroad writing
 * in the buyer's order is read as it writes, whatever its language or country.
 */
function printedOrder(text: string): 'month-first' | 'day-first' | null {
  let monthFirst = 0;
  let dayFirst = 0;
  for (const match of text.matchAll(NUMERIC_DATE)) {
    const first = Number(match[1]);
    const second = Number(match[3]);
    if (second > 12 && second <= 31 && first >= 1 && first <= 12) monthFirst++;
    else if (first > 12 && first <= 31 && second >= 1 && second <= 12) dayFirst++;
  }
  if (monthFirst > 0 && dayFirst === 0) return 'month-first';
  if (dayFirst > 0 && monthFirst === 0) return 'day-first';
  return null;
}

export function isValidDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isoOf(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The same day `months` later (earlier when negative), the month's last day when it has no such day. */
export function addMonths(iso: string, months: number): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target.toISOString().slice(0, 10);
}

/** `days` working days later, Saturdays and Sundays skipped (public holidays differ by region and are not). */
export function addBusinessDays(iso: string, days: number): string {
  let current = iso;
  for (let left = days; left > 0;) {
    current = addDays(current, 1);
    const weekday = new Date(`${current}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return current;
}

/** The last day of the month of a date. */
export function endOfMonth(iso: string): string {
  const [year, month] = iso.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** Whole days from a to b (both YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

function fullYear(twoOrFour: string, today: string): number {
  const year = Number(twoOrFour);
  if (twoOrFour.length === 4) return year;
  // 26 → 2026 unless that is more than ten years ahead of today.
  const century = Math.floor(Number(today.slice(0, 4)) / 100) * 100;
  return century + year > Number(today.slice(0, 4)) + 10 ? century - 100 + year : century + year;
}

/** Every date in the text, in reading order; overlapping matches keep the one of the earlier pattern. */
export function findDates(doc: Doc, options: DateOptions): FoundDate[] {
  const byLine = new Map<number, FoundDate[]>();
  for (const { kind, re } of PATTERNS) {
    for (const { line, column, match } of scan(doc, re)) {
      const iso = toIso(kind, match, options);
      if (!iso) continue;
      const end = column + match[0].length;
      const inLine = byLine.get(line) ?? [];
      if (inLine.some((d) => column < d.end && end > d.start)) continue;
      inLine.push({ iso, line, start: column, end, text: match[0] });
      byLine.set(line, inLine);
    }
  }
  return [...byLine.keys()]
    .sort((a, b) => a - b)
    .flatMap((line) => byLine.get(line)!.sort((a, b) => a.start - b.start));
}

function toIso(kind: Kind, m: RegExpMatchArray, options: DateOptions): string | null {
  const [, a = '', b = '', c = '', d = ''] = m;
  const month = (name: string): number => MONTH_BY_NAME.get(name.toLowerCase().replaceAll('0', 'o')) ?? 0;
  let year: number, monthNumber: number, day: number;
  switch (kind) {
    case 'iso':
      [year, monthNumber, day] = [Number(a), Number(c), Number(d)];
      break;
    case 'dotted':
      [year, monthNumber, day] = [fullYear(c, options.today), Number(b), Number(a)];
      break;
    case 'slashed': {
      const first = Number(a),
        second = Number(c);
      year = fullYear(d, options.today);
      // Unambiguous when one part cannot be a month; otherwise the document's convention decides.
      const monthFirst = first > 12 ? false : second > 12 ? true : options.monthFirst;
      [monthNumber, day] = monthFirst ? [first, second] : [second, first];
      break;
    }
    case 'day-month':
      [year, monthNumber, day] = [Number(c), month(b), Number(a)];
      break;
    case 'day-month-short':
      [year, monthNumber, day] = [fullYear(d, options.today), month(c), Number(a)];
      break;
    case 'month-day':
      [year, monthNumber, day] = [Number(c), month(a), Number(b)];
  }
  if (year < 1900 || year > 2199 || !isValidDate(year, monthNumber, day)) return null;
  return isoOf(year, monthNumber, day);
}

/** "03.02.2027" for German titles, "3 February 2027" for English ones. */
export function formatDate(iso: string, language: string): string {
  const [y, m, d] = iso.split('-');
  if (language === 'de') return `${d}.${m}.${y}`;
  return `${Number(d)} ${ENGLISH_MONTHS[Number(m) - 1] ?? ''} ${y}`;
}
