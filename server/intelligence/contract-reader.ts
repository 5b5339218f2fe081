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

type TermLabel = 'start' | 'end' | 'notice';
const LABELS = combineLabels<TermLabel>([
  ['notice', wordsRegex(labelSources('noticePeriod'))],
  ['end', wordsRegex(labelSources('contractEnd'))],
  ['start', wordsRegex(labelSources('contractStart'))],
]);
type Labels = ReadonlyMap<number, readonly LabelSpan<TermLabel>[]>;
/** Between the two dates of a period: "01.04.2027 – 31.03.2029", "du … au …", "van … tot en met …", "del … al …". */
const RANGE =
  /^\s*(?:-|–|—|bis(?: zum)?|to|until|through|till|au|jusqu'au|tot(?: en met)?|t\/m|al|hasta(?: el)?|fino al)\s*$/iu;
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
      RANGE.test(line.slice(date.end, next.start)) &&
      (label === 'start' || label === null)
    ) {
      start ??= date;
      end ??= next;
    }
  });
  return {
    start: start ? found(doc, start) : null,
    end: end ? found(doc, end) : null,
    noticePeriod: noticePeriod(doc, labels),
  };
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
    const line = doc.lines[index] ?? '';
    const rest = line.slice(notice.end);
    // "Kündigungsfrist: 3 Monate", "three months' notice", or the period alone on the next line.
    const candidates = [
      ...countedPeriods(rest),
      ...countedPeriods(line.slice(Math.max(0, notice.start - 25), notice.start)),
      ...(rest.trim() ? [] : countedPeriods(doc.lines[index + 1] ?? '')),
    ];
    const period = candidates.find(({ count, unit }) => count * DAYS[unit] <= MAX_NOTICE_DAYS);
    if (period) return { value: { count: period.count, unit: period.unit }, evidence: evidence(line) };
  }
  return null;
}

const DAYS: Readonly<Record<NoticePeriod['unit'], number>> = { day: 1, week: 7, month: 30, year: 365 };

function found(doc: Doc, date: FoundDate): { iso: string; evidence: string } {
  return { iso: date.iso, evidence: evidence(doc.lines[date.line] ?? date.text) };
}
