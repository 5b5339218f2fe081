/** Finds calendar dates written in the usual German and English ways and turns them into YYYY-MM-DD. */

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

const MONTHS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [1, ['januar', 'jänner', 'jaenner', 'january', 'jan']],
  [2, ['februar', 'feber', 'february', 'feb', 'febr']],
  [3, ['märz', 'maerz', 'march', 'mär', 'mrz', 'mar']],
  [4, ['april', 'apr']],
  [5, ['mai', 'may']],
  [6, ['juni', 'june', 'jun']],
  [7, ['juli', 'july', 'jul']],
  [8, ['august', 'aug']],
  [9, ['september', 'sept', 'sep']],
  [10, ['oktober', 'october', 'okt', 'oct']],
  [11, ['november', 'nov']],
  [12, ['dezember', 'december', 'dez', 'dec']],
];
const ENGLISH_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];
const MONTH_BY_NAME = new Map<string, number>(MONTHS.flatMap(([n, names]) => names.map((name) => [name, n] as const)));
const MONTH_NAMES = [...MONTH_BY_NAME.keys()].sort((a, b) => b.length - a.length).join('|');

const ORDINAL = '(?:st|nd|rd|th)?';
const PATTERNS: ReadonlyArray<{ kind: 'iso' | 'dotted' | 'slashed' | 'day-month' | 'month-day'; re: RegExp }> = [
  { kind: 'iso', re: new RegExp(`${WORD_START}(\\d{4})-(\\d{1,2})-(\\d{1,2})(?![\\d])`, 'g') },
  // OCR may turn the second dot into a colon or comma ("31. 12:2027"); with a four-digit year that is still a date.
  { kind: 'dotted', re: new RegExp(`${WORD_START}(\\d{1,2})\\. ?(\\d{1,2})(?:\\. ?|[:,](?=\\d{4}(?!\\d)))(\\d{4}|\\d{2})(?![\\d])`, 'g') },
  { kind: 'slashed', re: new RegExp(`${WORD_START}(\\d{1,2})/(\\d{1,2})/(\\d{4}|\\d{2})(?![\\d/])`, 'g') },
  {
    kind: 'day-month',
    // OCR may read a speck before the year as a hyphen ("26. Juli-2026").
    re: new RegExp(`${WORD_START}(\\d{1,2})${ORDINAL}\\.? ?(?:of )?(${MONTH_NAMES})\\.?,? ?(?:[-–] ?)?(\\d{4})(?!\\d)`, 'gi'),
  },
  {
    kind: 'month-day',
    re: new RegExp(`${WORD_START}(${MONTH_NAMES})\\.? (\\d{1,2})${ORDINAL},? ?(\\d{4})(?!\\d)`, 'gi'),
  },
];

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
  return [...byLine.keys()].sort((a, b) => a - b).flatMap((line) => byLine.get(line)!.sort((a, b) => a.start - b.start));
}

function toIso(kind: string, m: RegExpMatchArray, options: DateOptions): string | null {
  const [, a = '', b = '', c = ''] = m;
  let year: number, month: number, day: number;
  switch (kind) {
    case 'iso':
      [year, month, day] = [Number(a), Number(b), Number(c)];
      break;
    case 'dotted':
      [year, month, day] = [fullYear(c, options.today), Number(b), Number(a)];
      break;
    case 'slashed': {
      const first = Number(a), second = Number(b);
      year = fullYear(c, options.today);
      // Unambiguous when one part cannot be a month; otherwise the document's convention decides.
      const monthFirst = first > 12 ? false : second > 12 ? true : options.monthFirst;
      [month, day] = monthFirst ? [first, second] : [second, first];
      break;
    }
    case 'day-month':
      [year, month, day] = [Number(c), MONTH_BY_NAME.get(b.toLowerCase()) ?? 0, Number(a)];
      break;
    default:
      [year, month, day] = [Number(c), MONTH_BY_NAME.get(a.toLowerCase()) ?? 0, Number(b)];
  }
  if (year < 1900 || year > 2199 || !isValidDate(year, month, day)) return null;
  return isoOf(year, month, day);
}

/** "03.02.2027" for German titles, "3 February 2027" for English ones. */
export function formatDate(iso: string, language: string): string {
  const [y, m, d] = iso.split('-');
  if (language === 'de') return `${d}.${m}.${y}`;
  return `${Number(d)} ${ENGLISH_MONTHS[Number(m) - 1] ?? ''} ${y}`;
}
