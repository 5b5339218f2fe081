/**
 * Reads a contract's term in any of the six languages: its start, its end and the notice period before the end
 * ("Vertragsbeginn 01.04.2027", "du 1er avril 2027 au 31 mars 2029", "opzegtermijn van 1 maand", "preaviso de 30
 * días"). Turning them into a notice deadline is the event writer's job (server/events/notice-deadline.ts).
 */

import type { NoticePeriod } from './contract-terms.ts';
import type { FoundDate } from './dates.ts';
import { labelSources } from './lexicon/index.ts';
import { countedPeriods } from './payment-terms.ts';
import { combineLabels, evidence, indexLabels, nearestLabel, wordsRegex, type Doc, type LabelSpan } from './text.ts';

export interface ContractTerms {
  start: { iso: string; evidence: string } | null;
  end: { iso: string; evidence: string } | null;
  noticePeriod: { value: NoticePeriod; evidence: string } | null;
}

type TermLabel = 'start' | 'end' | 'notice' | 'term';
const LABELS = combineLabels<TermLabel>([
  ['notice', wordsRegex(labelSources('noticePeriod'))],
  ['end', wordsRegex(labelSources('contractEnd'))],
  ['start', wordsRegex(labelSources('contractStart'))],
  ['term', wordsRegex(labelSources('contractTerm'))],
]);
type Labels = ReadonlyMap<number, readonly LabelSpan<TermLabel>[]>;
/** Between the two dates of a period: "01.04.2027 – 31.03.2029", "du … au …", "van … tot en met …", "del … al …". */
const RANGE =
  /^\s*(?:-|–|—|bis(?: zum)?|to|until|through|till|au|jusqu'au|tot(?: en met)?|t\/m|al|hasta(?: el)?|fino al)\s*$/iu;
/**
 * A time of day beside a period's dates ("12:00 noon 01/05/2026 until midnight 30/04/2027", "01.06.2026, 00:00
 * Uhr bis 31.05.2029, 24:00 Uhr"): it says when on those days cover starts and ends, not what the dates are.
 */
const TIME_OF_DAY =
  /\b\d{1,2}(?:[:.]\d{2})? ?(?:hrs?|uhr|h|horas?|ore)\b|\b\d{1,2}[:.]\d{2}\b|\b(?:midnight|noon|mitternacht|minuit|middernacht|medianoche|mezzanotte)\b|,/giu;
/** A label this far before a date (characters) still names it. */
const LABEL_REACH = 40;
/** Notice periods longer than this are no notice periods (a term's length). */
const MAX_NOTICE_DAYS = 366;

export function readContractTerms(doc: Doc, dates: readonly FoundDate[]): ContractTerms {
  const labels = indexLabels(doc, LABELS);
  let start: FoundDate | null = null;
  let end: FoundDate | null = null;
  dates.forEach((date, i) => {
    const previous = dates[i - 1];
    const from = previous && previous.line === date.line ? previous.end : 0;
    const label = labelOf(doc, labels, date, from);
    if (label === 'start' && !start) start = date;
    if (label === 'end' && (!end || date.iso > end.iso)) end = date;
    const next = dates[i + 1];
    const line = doc.lines[date.line] ?? '';
    // A period after a start or term label: its first date starts the term, its second ends it.
    if (
      next &&
      next.line === date.line &&
      RANGE.test(line.slice(date.end, next.start).replace(TIME_OF_DAY, ' ')) &&
      (label === 'start' || label === 'term' || label === null)
    ) {
      start ??= date;
      end ??= next;
    }
  });
  const startFound: FoundDate | null = start;
  const endFound: FoundDate | null = end;
  return {
    start: startFound ? found(doc, startFound) : null,
    end: endFound ? found(doc, endFound) : startFound ? endOfTerm(doc, labels, startFound) : null,
    noticePeriod: noticePeriod(doc, labels),
  };
}

/**
 * The last day of a term stated by its length ("Laufzeit: 24 Monate", "durée de deux ans", "Plazo 36 meses") from a
 * start that was found: 1 March 2026 for four years ends on 28 February 2030.
 */
function endOfTerm(doc: Doc, labels: Labels, start: FoundDate): { iso: string; evidence: string } | null {
  for (const [index, spans] of [...labels.entries()].sort((a, b) => a[0] - b[0])) {
    const term = spans.find((span) => span.kind === 'term');
    if (!term) continue;
    const line = doc.lines[index] ?? '';
    const period = countedPeriods(line.slice(term.end, term.end + 40)).find(
      ({ unit, count }) => (unit === 'month' && count <= 120) || (unit === 'year' && count <= 10),
    );
    if (!period) continue;
    const [year, month, day] = start.iso.split('-').map(Number) as [number, number, number];
    const months = period.unit === 'year' ? period.count * 12 : period.count;
    // The same day so many months later, less one day (UTC: no clock change moves it).
    const last = new Date(Date.UTC(year, month - 1 + months, day) - 86_400_000);
    return { iso: last.toISOString().slice(0, 10), evidence: evidence(line) };
  }
  return null;
}

function labelOf(doc: Doc, labels: Labels, date: FoundDate, from: number): TermLabel | null {
  const hit = nearestLabel(labels.get(date.line), from, date.start);
  if (hit && hit.distance <= LABEL_REACH) return hit.kind;
  // "Vertragsbeginn" on one line and the date alone below it.
  if ((doc.lines[date.line] ?? '').slice(0, date.start).trim()) return null;
  const above = doc.lines[date.line - 1] ?? '';
  const aboveHit = nearestLabel(labels.get(date.line - 1), 0, above.length);
  return aboveHit && aboveHit.distance <= 3 ? aboveHit.kind : null;
}

/** The first counted period on a line that names the notice period, or on the line after a notice label alone. */
function noticePeriod(doc: Doc, labels: Labels): ContractTerms['noticePeriod'] {
  for (const [index, spans] of [...labels.entries()].sort((a, b) => a[0] - b[0])) {
    const notice = spans.find((span) => span.kind === 'notice');
    if (!notice) continue;
    const line = withFigures(doc.lines[index] ?? '');
    const rest = line.slice(notice.end);
    const next = withFigures(doc.lines[index + 1] ?? '');
    // "Kündigungsfrist: 3 Monate", "three months' notice", "zwei Monate vor dem Ende … gekündigt", or the period on the
    // next line: alone under the label, or where the clause goes on ("può dare disdetta …, / 45 giorni prima").
    const candidates = [
      ...countedPeriods(rest),
      ...countedPeriods(line.slice(Math.max(0, notice.start - 60), notice.start)),
      ...(!rest.trim() || !/[.;:]\s*$/u.test(line) ? countedPeriods(next) : []),
    ];
    const period = candidates.find(({ count, unit }) => count * DAYS[unit] <= MAX_NOTICE_DAYS);
    if (period) return { value: { count: period.count, unit: period.unit }, evidence: evidence(line) };
  }
  return null;
}

/** A number in figures and in words, as contracts write it ("sixty (60) days", "30 (treinta) días"): the figures. */
function withFigures(text: string): string {
  return text
    .replace(/\b\p{L}+(?:[- ]\p{L}+)? \((\d{1,3})\)/gu, '$1')
    .replace(/\b(\d{1,3}) \(\p{L}+(?:[- ]\p{L}+)*\)/gu, '$1');
}

const DAYS: Readonly<Record<NoticePeriod['unit'], number>> = { day: 1, week: 7, month: 30, year: 365 };

function found(doc: Doc, date: FoundDate): { iso: string; evidence: string } {
  return { iso: date.iso, evidence: evidence(doc.lines[date.line] ?? date.text) };
}
