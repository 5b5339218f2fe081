/** Chooses the document date and the due date among the dates found in a text, by their labels. */

import { addDays, daysBetween, type FoundDate } from './dates.ts';
import { combineLabels, evidence, indexLabelsOf, nearestLabel, wordsRegex, type Doc, type LabelSpan } from './text.ts';

export interface DatePick { iso: string; confidence: number; evidence: string }

type DateLabel = 'issue' | 'plain' | 'of' | 'due' | 'until' | 'birth' | 'delivery' | 'validity' | 'foreign' | 'start';

/** Order matters only for equally long matches ending at the same place: earlier kinds win. */
const LABELS = combineLabels<DateLabel>([
  ['birth', wordsRegex(['geburtsdatum', 'geb\\.', 'geboren(?: am)?', 'date of birth', 'birth ?date', 'dob', 'born(?: on)?'])],
  ['due', wordsRegex([
    'zahlbar(?: bis(?: zum| spätestens)?| am| zum| spätestens(?: bis)?(?: zum| am)?)?', 'fällig(?: am| bis(?: zum)?| zum| ab)?',
    'fälligkeit', 'f[äa]lligkeitsdatum', 'fälligkeitstermin', 'zahlungsziel', 'zahlungsfrist', 'zahlungstermin',
    'zahlungseingang bis(?: zum)?', 'abbuchung(?: am| zum)?', 'einzug(?: am| zum)?', 'lastschrifteinzug(?: am| zum)?',
    'due(?: date| on| by)?', 'date due', 'payment due(?: date| on| by)?', '(?:please )?pay by', 'payable(?: by| on| before)?',
    'to be paid by', 'payment date', 'debit date', 'will be debited on',
  ])],
  ['delivery', wordsRegex([
    'lieferdatum', 'leistungsdatum', 'liefertermin', 'lieferung(?: am| vom)?', 'leistung(?: am| vom)?', 'delivery date',
    'date of delivery', 'service date', 'date of supply', 'tax point', 'shipped(?: on)?', 'ship date', 'order date',
    'delivered(?: on)?', 'geliefert(?: am)?', 'zugestellt(?: am)?', 'termin(?: am)?', 'appointment(?: on)?',
    'bestelldatum', 'auftragsdatum', 'bestellung vom', 'auftrag vom',
  ])],
  ['validity', wordsRegex([
    'gültig(?: bis| ab)?', 'g[üu]ltigkeit', 'valid(?: until| till| through| to| from)?', 'expir(?:y|es|ation)(?: date)?',
    'ablaufdatum', 'ablauf', 'bindefrist', 'angebot gilt bis', 'kunde seit', 'customer since', 'mitglied seit', 'member since',
    'eingegangen(?: am)?', 'received(?: on)?', 'letzte zahlung', 'last payment',
  ])],
  ['start', wordsRegex([
    'vertragsbeginn', 'vertragsende', 'versicherungsbeginn', 'versicherungsende', '\\p{L}*beginn', 'beginn(?:t)?(?: am)?',
    'ende', 'endet(?: am)?', 'laufzeit', 'ab dem', 'ab', 'seit', 'start(?: date)?', 'end date', 'commencement(?: date)?',
    'effective(?: date| from)?', 'renewal(?: date)?', 'from', 'until', 'expires on', 'eintritt(?:sdatum)?', 'austritt(?:sdatum)?',
    'kündbar zum', 'kündigung zum',
  ])],
  ['foreign', wordsRegex([
    '(?:ihr(?:e|em|en)? |unser(?:e|em|en)? )?(?:schreiben|nachricht|anfrage|e-?mail|brief|antrag|\\p{L}*erklärung|telefonat|gespräch|einspruch|widerspruch) vom',
    '(?:unser(?:e|em|en|er)?|der|die|zur|zu|zum|für die|aus der) (?:\\p{L}*rechnung|bescheid|vertrag|mahnung|bestellung|auftrag|lieferung|zahlung|kündigung)(?: \\S+){0,2} vom',
    '(?:your|our) (?:letter|email|e-mail|message|enquiry|inquiry|request|application|order|invoice)(?: of| dated| from)?',
  ])],
  ['issue', wordsRegex([
    'rechnungsdatum', 'belegdatum', 'ausstellungsdatum', 'ausgestellt(?: am)?', 'bescheiddatum', 'erstellungsdatum',
    'erstellt(?: am)?', 'briefdatum', 'dokumentdatum', 'gutschriftsdatum', 'angebotsdatum', 'auszugsdatum', 'abrechnungsdatum',
    'druckdatum', 'invoice date', 'date of invoice', 'date of issue', 'issue date', 'issued(?: on)?', 'statement date',
    'receipt date', 'credit note date', 'quote date', 'quotation date', 'document date', 'bill date', 'billing date',
  ])],
  ['plain', wordsRegex(['datum', 'date', '\\p{L}+datum'])],
  ['of', wordsRegex(['vom', 'dated', 'den', 'per', 'stichtag', 'stand', 'as of', 'as at'])],
  ['until', wordsRegex(['bis(?: zum| spätestens(?: zum)?)?', 'spätestens(?: bis)?(?: zum| am)?', 'by', 'before', 'no later than'])],
]);

const PAYMENT_CONTEXT = /zahl|überweis|begleich|entricht|ausgleich|pay|remit|settle|gutgeschrieben|eingang/iu;
const DEBIT_AFTER = /^[^.;]{0,40}?(?:abgebucht|eingezogen|belastet|debited|collected)/iu;
const RANGE_AFTER = /^\s*(?:-|–|—|bis|to|until|through)\s*$/iu;
const PLACE_DATE = /^[\p{Lu}][\p{L} .\-/()]{1,40}, (?:(?:den|am|the) )?$/u;

export interface DateCandidate { date: FoundDate; label: DateLabel | 'place' | 'header' | 'alone' | 'none'; distance: number }
type Spans = ReadonlyMap<number, readonly LabelSpan<DateLabel>[]>;

function labelDate(lines: readonly string[], spans: Spans, date: FoundDate, previousEnd: number): DateCandidate {
  const line = lines[date.line] ?? '';
  const segment = line.slice(Math.max(previousEnd, date.start - 80), date.start);
  const hit = nearestLabel(spans.get(date.line), previousEnd, date.start);
  if (hit && hit.distance <= 30) return { date, label: hit.kind, distance: hit.distance };
  if (previousEnd === 0 && date.start <= 80 && PLACE_DATE.test(segment)) return { date, label: 'place', distance: 0 };
  if (!segment.trim() && date.line > 0) {
    // "Rechnungsdatum" on one line and the date alone on the next one.
    const above = lines[date.line - 1] ?? '';
    const aboveHit = nearestLabel(spans.get(date.line - 1), 0, above.length);
    if (aboveHit && aboveHit.distance <= 3 && !/\d/.test(above.slice(above.length - aboveHit.distance))) {
      return { date, label: aboveHit.kind, distance: aboveHit.distance + 1 };
    }
    if (aboveHit && (aboveHit.kind === 'plain' || aboveHit.kind === 'issue') && !/\d{2}/.test(above)) {
      return { date, label: 'header', distance: 10 };
    }
  }
  // A date on a line of its own is how letters are dated.
  if (!segment.trim() && /^[\s,.]*(?:\d{1,2}:\d{2}(?::\d{2})?(?: ?[ap]\.?m\.?| uhr)?)?$/iu.test(line.slice(date.end, date.end + 30))) {
    return { date, label: 'alone', distance: 0 };
  }
  return { date, label: hit?.kind === 'birth' ? 'birth' : 'none', distance: 99 };
}

/** Each date with the label that says what it is (issue date, due date, birth date, a period …). */
export function labelDates(doc: Doc, dates: readonly FoundDate[]): DateCandidate[] {
  const { lines } = doc;
  const spans = indexLabelsOf(doc, dates.flatMap((d) => [d.line, d.line - 1]), LABELS);
  return dates.map((date, i) => {
    const previous = dates[i - 1];
    const previousEnd = previous && previous.line === date.line ? previous.end : 0;
    const candidate = labelDate(lines, spans, date, previousEnd);
    const next = dates[i + 1];
    const line = lines[date.line] ?? '';
    // Both ends of "01.11.2026 – 30.11.2026" describe a period, not the day the document was written.
    const inRange = (next && next.line === date.line && RANGE_AFTER.test(line.slice(date.end, next.start)))
      || (previous && previous.line === date.line && RANGE_AFTER.test(line.slice(previous.end, date.start)));
    if (inRange && candidate.label !== 'due') return { ...candidate, label: 'start' };
    if (DEBIT_AFTER.test(line.slice(date.end, date.end + 60))) return { ...candidate, label: 'due' };
    return candidate;
  });
}

const ISSUE_SCORE: Partial<Record<DateCandidate['label'], number>> = {
  issue: 0.95, plain: 0.9, place: 0.85, of: 0.8, header: 0.75, alone: 0.7, none: 0.55, delivery: 0.4,
};

export function pickDocumentDate(lines: readonly string[], candidates: readonly DateCandidate[], today: string): DatePick | null {
  const topLines = Math.max(15, Math.ceil(lines.length / 3));
  let best: { candidate: DateCandidate; score: number } | null = null;
  for (const candidate of candidates) {
    let score = ISSUE_SCORE[candidate.label];
    if (score === undefined) continue;
    const { iso, line } = candidate.date;
    const labelled = candidate.label !== 'none' && candidate.label !== 'delivery' && candidate.label !== 'alone';
    // "vom"/"dated" in running text usually points at another document ("invoice … dated 28 Nov").
    if (candidate.label === 'of' && (lines[line] ?? '').length > 60) score = 0.5;
    if (candidate.label === 'alone' && line >= topLines) score = 0.55;
    const maxAhead = labelled ? 730 : 366;
    if (iso < '1950-01-01' || daysBetween(today, iso) > maxAhead) continue;
    if (candidate.label === 'none') score -= line < topLines ? Math.min(line, 30) * 0.002 : 0.1;
    if (!best || score > best.score) best = { candidate, score };
  }
  if (!best) return null;
  return {
    iso: best.candidate.date.iso, confidence: Math.round(best.score * 100) / 100,
    evidence: evidence(lines[best.candidate.date.line] ?? best.candidate.date.text),
  };
}

export function pickDueDate(lines: readonly string[], candidates: readonly DateCandidate[], documentDate: string | null): DatePick | null {
  let best: { date: FoundDate; score: number } | null = null;
  for (const candidate of candidates) {
    const { date, label } = candidate;
    let score = 0;
    if (label === 'due') score = 0.9;
    else if (label === 'until') {
      const context = `${lines[date.line - 1] ?? ''} ${(lines[date.line] ?? '').slice(0, date.start)}`;
      if (PAYMENT_CONTEXT.test(context)) score = 0.75;
    }
    if (score === 0) continue;
    if (documentDate && (date.iso < documentDate || daysBetween(documentDate, date.iso) > 730)) continue;
    // Of several deadlines the last one counts: the net date after a discount date, a reminder's new deadline.
    if (!best || date.iso > best.date.iso) best = { date, score };
  }
  if (best) return { iso: best.date.iso, confidence: best.score, evidence: evidence(lines[best.date.line] ?? best.date.text) };
  return documentDate ? relativeDueDate(lines, documentDate) : null;
}

const TERM_WORDS = wordsRegex(['zahlbar', 'zahlung\\p{L}*', 'fällig\\p{L}*', 'überweis\\p{L}*', 'netto', 'ohne abzug', 'payable',
  'payment', 'due', 'net', 'terms', 'pay'], 'i');
/** Discount terms are not the deadline; "14 Tage vor Anreise" counts back from another date. */
const DISCOUNT_WORDS = /skonto|discount|rabatt|%|(?<![\p{L}])(?:vor|before|prior)(?![\p{L}])/iu;
const DAY_COUNT = /(?<![\p{L}\d])(\d{1,3}) ?(tagen|tage|tg\.?|kalendertagen|kalendertage|werktagen|werktage|bankarbeitstagen|days|calendar days|business days|working days)(?![\p{L}])|(?<![\p{L}])net ?(\d{1,3})(?![\d\p{L}])/giu;
const IMMEDIATE = wordsRegex([
  'sofort(?: nach erhalt)?(?: zahlbar| fällig| ohne abzug)', 'zahlbar sofort', 'fällig sofort', 'sofort fällig',
  'due (?:immediately|upon receipt|on receipt)', 'payable (?:immediately|upon receipt|on receipt)', 'payment due on receipt',
], 'i');

/** "zahlbar innerhalb von 14 Tagen", "30 Tage netto", "Net 30", "payment due within 14 days" → date + N days. */
function relativeDueDate(lines: readonly string[], documentDate: string): DatePick | null {
  let best: { days: number; business: boolean; line: string } | null = null;
  for (const line of lines) {
    if (!/\d/.test(line)) continue;
    for (const clause of line.split(/[;,]|\.(?=\s|$)/)) {
      if (!TERM_WORDS.test(clause) || DISCOUNT_WORDS.test(clause)) continue;
      DAY_COUNT.lastIndex = 0;
      for (const m of clause.matchAll(DAY_COUNT)) {
        const days = Number(m[1] ?? m[3]);
        if (days > 180) continue;
        const business = /werk|bankarbeit|business|working/iu.test(m[2] ?? '');
        if (!best || days > best.days) best = { days, business, line };
      }
    }
  }
  if (best) {
    const iso = best.business ? addBusinessDays(documentDate, best.days) : addDays(documentDate, best.days);
    return { iso, confidence: 0.7, evidence: evidence(best.line) };
  }
  const immediate = lines.find((line) => IMMEDIATE.test(line));
  return immediate ? { iso: documentDate, confidence: 0.55, evidence: evidence(immediate) } : null;
}

function addBusinessDays(iso: string, days: number): string {
  let current = iso;
  for (let left = days; left > 0;) {
    current = addDays(current, 1);
    const weekday = new Date(`${current}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return current;
}
