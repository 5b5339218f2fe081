/**
 * Payment terms in the six languages: "net 14 days", "zahlbar innerhalb von 14 Tagen", "paiement à 30 jours fin de
 * mois", "binnen 14 dagen", "pago a 30 días", "pagamento 60 gg d.f.f.m.", "due on receipt". A period (days, business
 * days, weeks, months; optionally to the end of that month) or payment at once, and the due date they give.
 */

import { addBusinessDays, addDays, addMonths, endOfMonth } from './dates.ts';
import { labelSources, LEXICONS, numberWords, withoutAccents } from './lexicon/index.ts';
import { wordsRegex } from './text.ts';

export interface Period {
  days: number;
  months: number;
  business: boolean;
  endOfMonth: boolean;
}

export type PaymentTerms =
  { kind: 'period'; period: Period; evidence: string } | { kind: 'immediate'; evidence: string };

const lexicons = Object.values(LEXICONS);
const NUMBER_WORDS = new Map(
  [...numberWords()].flatMap(
    ([word, n]) =>
      [
        [word, n],
        [withoutAccents(word), n],
      ] as const,
  ),
);
const unitSource = (unit: 'day' | 'businessDay' | 'week' | 'month' | 'year'): string =>
  lexicons.map((l) => l.periodUnits[unit]).join('|');
const BUSINESS = new RegExp(`^(?:${unitSource('businessDay')})$`, 'iu');
const WEEK = new RegExp(`^(?:${unitSource('week')})$`, 'iu');
const MONTH = new RegExp(`^(?:${unitSource('month')})$`, 'iu');
const YEAR = new RegExp(`^(?:${unitSource('year')})$`, 'iu');
const UNITS = [
  unitSource('businessDay'),
  unitSource('day'),
  unitSource('week'),
  unitSource('month'),
  unitSource('year'),
].join('|');
const COUNT = `(\\d{1,3}|${[...NUMBER_WORDS.keys()].sort((a, b) => b.length - a.length).join('|')})`;
/** "14 Tagen", "vierzehn Tagen", "30 jours", "2 maanden", "60 gg", "Net 30"; not "netto 41,38", an amount. */
const PERIOD_COUNT = new RegExp(
  `(?<![\\p{L}\\d])${COUNT} ?(${UNITS})(?![\\p{L}])|(?<![\\p{L}])net(?:to)? ?(\\d{1,3})(?![\\d\\p{L}%]|[.,]\\d)`,
  'giu',
);
const HAS_COUNT = new RegExp(`\\d|(?<![\\p{L}])(?:${[...NUMBER_WORDS.keys()].join('|')})(?![\\p{L}])`, 'iu');
/** Counted from the end of the month the period ends in: "30 jours fin de mois", "60 gg d.f.f.m.", "30 days EOM". */
const END_OF_MONTH =
  /fin de mois|fine mese|d\.?f\.?f\.?m\.?|(?<![\p{L}])f\.?m\.?(?![\p{L}])|einde (?:van de )?maand|end of (?:the )?month|(?<![\p{L}])eom(?![\p{L}])|monatsende|ende des monats|fin de mes/iu;

const TERM_WORDS = wordsRegex(labelSources('paymentTerms'), 'i');
/** Discount terms are not the deadline; "14 Tage vor Anreise" counts back from another date. */
const DISCOUNT_WORDS =
  /skonto|discount|rabatt|escompte|remise|korting|descuento|pronto pago|sconto|%|(?<![\p{L}])(?:vor|before|prior|avant|voor|vóór|antes|prima)(?![\p{L}])/iu;
const IMMEDIATE = wordsRegex(
  lexicons.flatMap((l) => l.immediate),
  'i',
);
/** A payment period longer than this is no payment term (a warranty, a contract's length). */
const MAX_DAYS = 190;

/** A count and its unit as written: "3 Monate", "trente jours", "10 werkdagen", "net 30" (days). */
export interface CountedPeriod {
  count: number;
  unit: 'day' | 'week' | 'month' | 'year';
  business: boolean;
}

/** Every counted period in a clause, in order. */
export function countedPeriods(clause: string): CountedPeriod[] {
  if (!HAS_COUNT.test(clause)) return [];
  return [...clause.matchAll(PERIOD_COUNT)].flatMap((m): CountedPeriod[] => {
    const raw = (m[1] ?? m[3] ?? '').toLowerCase();
    const count = NUMBER_WORDS.get(raw) ?? Number(raw);
    const written = (m[2] ?? 'days').toLowerCase().trim();
    const unit = MONTH.test(written) ? 'month' : YEAR.test(written) ? 'year' : WEEK.test(written) ? 'week' : 'day';
    return count > 0 ? [{ count, unit, business: BUSINESS.test(written) }] : [];
  });
}

/** The longest period named in the clauses of the text that `accept` lets through. */
export function longestPeriod(
  lines: readonly string[],
  accept: (clause: string) => boolean,
): { period: Period; line: string } | null {
  let best: { period: Period; line: string; length: number } | null = null;
  for (const line of lines) {
    if (!HAS_COUNT.test(line)) continue;
    // A comma between digits is a decimal comma ("netto 41,38" is an amount, not "net 35" days).
    // "… 10 Tagen mit 2 % Skonto oder 30 Tage netto": alternatives are clauses of their own.
    // A dot after an abbreviation of one or two letters ends no clause: "90 gg d.f. f.m." is one term.
    for (const clause of line.split(
      /;|,(?!\d)|(?<!\d),|(?<!(?:^|[\s.])\p{L}{1,2})\.(?=\s|$)| (?:oder|or|ou|o|oppure) (?=\S)/iu,
    )) {
      if (!accept(clause)) continue;
      for (const { count, unit, business } of countedPeriods(clause)) {
        if (unit === 'year') continue;
        const months = unit === 'month' ? count : 0;
        const days = unit === 'week' ? count * 7 : unit === 'day' ? count : 0;
        const length = days + months * 30;
        if (length > MAX_DAYS) continue;
        const period = { days, months, business, endOfMonth: END_OF_MONTH.test(clause) };
        if (!best || length > best.length) best = { period, line, length };
      }
    }
  }
  return best ? { period: best.period, line: best.line } : null;
}

/** The date a period after `iso` ends on. */
export function addPeriod(iso: string, period: Period): string {
  const end = period.months
    ? addMonths(iso, period.months)
    : period.business
      ? addBusinessDays(iso, period.days)
      : addDays(iso, period.days);
  return period.endOfMonth ? endOfMonth(end) : end;
}

/** The payment terms a text states, if any: the longest period in a payment clause, else payment at once. */
export function parsePaymentTerms(lines: readonly string[]): PaymentTerms | null {
  const term = longestPeriod(lines, (clause) => TERM_WORDS.test(clause) && !DISCOUNT_WORDS.test(clause));
  if (term) return { kind: 'period', period: term.period, evidence: term.line };
  // "zahlbar bis Monatsende", "entro fine mese": the end of the document's month.
  const monthEnd = lines.find((line) => TERM_WORDS.test(line) && END_OF_MONTH.test(line) && !DISCOUNT_WORDS.test(line));
  if (monthEnd)
    return { kind: 'period', period: { days: 0, months: 0, business: false, endOfMonth: true }, evidence: monthEnd };
  const immediate = lines.find((line) => IMMEDIATE.test(line));
  return immediate ? { kind: 'immediate', evidence: immediate } : null;
}

/** The due date payment terms give, counted from the document's date. */
export function dueDateFromTerms(terms: PaymentTerms, documentDate: string): string {
  return terms.kind === 'period' ? addPeriod(documentDate, terms.period) : documentDate;
}
