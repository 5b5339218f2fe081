/** Chooses the document date and the due date among the dates found in a text, by their labels. */

import { daysBetween, type FoundDate } from './dates.ts';
import { labelSources, lexiconsFor } from './lexicon/index.ts';
import { addPeriod, dueDateFromTerms, longestPeriod, parsePaymentTerms } from './payment-terms.ts';
import { combineLabels, evidence, indexLabelsOf, nearestLabel, wordsRegex, type Doc, type LabelSpan } from './text.ts';

export interface DatePick {
  iso: string;
  confidence: number;
  evidence: string;
}

type DateLabel =
  | 'issue'
  | 'plain'
  | 'of'
  | 'due'
  | 'until'
  | 'birth'
  | 'delivery'
  | 'validity'
  | 'foreign'
  | 'start'
  | 'end'
  | 'period'
  | 'printed';

/**
 * Due, issue and term-end date labels of French, Dutch, Spanish and Italian from the lexicon; a bare "date" word
 * stays 'plain'.
 */
const OTHER_LANGUAGES = lexiconsFor(['fr', 'nl', 'es', 'it']);
const OTHER_DUE = labelSources('dueDate', OTHER_LANGUAGES);
const OTHER_END = labelSources('contractEnd', OTHER_LANGUAGES);
/** Start labels that name a date ("Aanvangsdatum", "date d'effet"), not a phrase an invoice's debit also uses ("a partir del"). */
const OTHER_START = labelSources('contractStart', OTHER_LANGUAGES).filter(
  (source) => !/^(?:a |\[àa\] |met |con |ingaande|pren)/u.test(source),
);
const OTHER_ISSUE = labelSources('documentDate', OTHER_LANGUAGES).filter(
  (source) => !/^(?:date|datum|fecha|data)$/.test(source),
);

/** Order matters only for equally long matches ending at the same place: earlier kinds win. */
const LABELS = combineLabels<DateLabel>([
  // A person's own dates, never the document's: birth, and the day they joined the employer (payslips, contracts).
  [
    'birth',
    wordsRegex([
      'geburtsdatum',
      'geb\\.',
      'geboren(?: am| op)?',
      'date of birth',
      'birth ?date',
      'dob',
      'born(?: on)?',
      'date de naissance',
      'n[ée]e? le',
      'fecha de nacimiento',
      'data di nascita',
      'nat[oa] il',
      'geboortedatum',
      'eintritt(?:sdatum)?',
      'beschäftigt seit',
      'date of joining',
      '(?:hire|joining) date',
      "date d'(?:entr[ée]e|embauche)",
      'anciennet[ée]',
      'fecha de (?:antig[üu]edad|ingreso)',
      'antig[üu]edad',
      'data (?:di )?assunzione',
      'in dienst (?:sinds|per)',
      'datum in dienst',
    ]),
  ],
  [
    'due',
    wordsRegex([
      ...OTHER_DUE,
      'zahlbar(?: bis(?: zum| spätestens)?| am| zum| spätestens(?: bis)?(?: zum| am)?)?',
      'fällig(?: am| bis(?: zum)?| zum| ab)?',
      'fälligkeit',
      'f[äa]lligkeitsdatum',
      'fälligkeitstermin',
      'zahlungsziel',
      'zahlungsfrist',
      'zahlungstermin',
      'zahlungseingang bis(?: zum)?',
      'abbuchung(?: am| zum)?',
      'einzug(?: am| zum)?',
      'lastschrifteinzug(?: am| zum)?',
      'due(?: date| on| by)?',
      'date due',
      'payment due(?: date| on| by)?',
      '(?:please )?pay by',
      'payable(?: by| on| before)?',
      'to be paid by',
      'payment date',
      'debit date',
      'will be debited on',
      'must be (?:paid|received|settled) (?:by|on|before|no later than)',
      'bitte (?:zahlen|überweisen) sie (?:den betrag |den rechnungsbetrag )?bis(?: zum| spätestens)?',
    ]),
  ],
  [
    'delivery',
    wordsRegex([
      'lieferdatum',
      'leistungsdatum',
      'liefertermin',
      'lieferung(?: am| vom)?',
      'leistung(?: am| vom)?',
      'delivery date',
      'date of delivery',
      'service date',
      'date of service',
      'event date',
      'date of (?:the )?event',
      'treatment date',
      'date of supply',
      'tax point',
      'shipped(?: on)?',
      'ship date',
      'order date',
      'delivered(?: on)?',
      'geliefert(?: am)?',
      'zugestellt(?: am)?',
      'termin(?: am)?',
      'appointment(?: on)?',
      'bestelldatum',
      'auftragsdatum',
      'bestellung vom',
      'auftrag vom',
      // Dutch compounds of "datum" name another day than the document's ("Installatiedatum", "Leverdatum").
      'installatiedatum',
      'lever(?:ings)?datum',
      'aansluitdatum',
    ]),
  ],
  // The end of a fixed term or of an offer's validity: the deadline of contracts, policies and offers.
  [
    'end',
    wordsRegex([
      ...OTHER_END,
      'gültig bis(?: zum| einschließlich)?',
      'gilt bis(?: zum)?',
      'angebot gilt bis',
      'bindefrist(?: bis)?',
      'valid (?:until|till|through|to)',
      'offer (?:ends|expires)(?: on)?',
      'expir(?:y|es|ation)(?: date| on)?',
      'ablaufdatum',
      'ablauf(?: am| zum)?',
      'vertragsablauf(?: am| zum)?',
      'vertragsende(?: frühestens| am| zum)?',
      'versicherungsende',
      'laufzeitende',
      'laufzeit bis(?: zum)?',
      'befristet bis(?: zum)?',
      'ende der (?:\\p{L}*laufzeit|vertragszeit|mietzeit|versicherung)(?: am)?',
      'ende(?= ?:? ?\\d)',
      'endet(?: am| zum)?',
      'end date',
      'ends(?: on)?',
      '(?:minimum |fixed |initial )?term (?:ends|expires|end date)(?: on)?',
      '(?:minimum |fixed |initial )?term end',
      'renewal date',
      'frühestens kündbar zum',
      'kündbar zum',
      'kündigung zum',
      'fest bis',
    ]),
  ],
  [
    'validity',
    wordsRegex([
      'gültig(?: ab)?',
      'g[üu]ltigkeit',
      'valid(?: from)?',
      'kunde seit',
      'customer since',
      'mitglied seit',
      'member since',
      'eingegangen(?: am)?',
      'received(?: on)?',
      'letzte zahlung',
      'last payment',
      // A subscription's next charge: a date to come, neither this document's nor its due date. Before "billing date".
      'next (?:billing|payment|invoice|charge|renewal)(?: date)?',
      '(?:auto-?)?renews on',
      'will renew on',
      'nächste (?:abbuchung|abrechnung|zahlung|verlängerung)(?: am)?',
      'prochaine (?:facturation|date de facturation|date de renouvellement)',
      'renouvellement le',
      'volgende (?:factuurdatum|afschrijving|facturatie|verlenging)',
      'próxima (?:facturaci[óo]n|fecha de (?:cobro|facturaci[óo]n)|renovaci[óo]n)',
      'prossim[oa] (?:addebito|rinnovo|fatturazione)',
    ]),
  ],
  // A period whose end is the term of a contract or policy ("Versicherungszeitraum 01.04.2027 bis 31.03.2028").
  [
    'period',
    wordsRegex([
      'versicherungszeitraum',
      'versicherungsdauer',
      'vertragslaufzeit',
      'vertragszeitraum',
      'mietzeit',
      'laufzeit',
      'period of (?:insurance|cover|coverage)',
      '(?:insurance|policy|coverage|cover|contract) period',
      'term of (?:this|the) \\p{L}+',
    ]),
  ],
  [
    'start',
    wordsRegex([
      ...OTHER_START,
      'vertragsbeginn',
      'versicherungsbeginn',
      '\\p{L}*beginn',
      'beginn(?:t)?(?: am)?',
      // A probation period ends, but that is not the end of the contract.
      'ende der probezeit',
      'probezeit(?: endet| bis)?(?: am| zum)?',
      'probation(?:ary)?(?: period)?(?: ends| end date)?(?: on)?',
      'ende',
      'ab dem',
      'ab',
      'seit',
      'start(?: date)?',
      'commencement(?: date)?',
      'begins(?: on)?',
      'effective(?: date| from)?',
      'renewal',
      'from',
      'until',
      'eintritt(?:sdatum)?',
      'austritt(?:sdatum)?',
    ]),
  ],
  [
    'foreign',
    wordsRegex([
      '(?:ihr(?:e|em|en)? |unser(?:e|em|en)? )?(?:schreiben|nachricht|anfrage|e-?mail|brief|antrag|\\p{L}*erklärung|telefonat|gespräch|einspruch|widerspruch) vom',
      '(?:unser(?:e|em|en|er)?|der|die|zur|zu|zum|für die|aus der) (?:\\p{L}*rechnung|bescheid|vertrag|mahnung|bestellung|auftrag|lieferung|zahlung|kündigung)(?: \\S+){0,2} vom',
      // Another document named with its number ("our invoice 2026-41 issued …", "notre facture F-12 du …"); before
      // the shorter English form, since the first alternative that matches wins.
      '(?:your|our|the) (?:invoice|order|credit note)(?: (?:no\\.? ?|# ?)?\\S+)? (?:issued(?: on)?|dated|of|from)',
      '(?:notre|votre|la) facture(?: \\S+){1,2} (?:du|en date du)',
      '(?:onze|uw|de) factuur(?: \\S+){1,2} (?:van|d\\.d\\.|gedateerd)',
      '(?:nuestra|su|la) factura(?: \\S+){1,2} (?:del?|de fecha|emitida el)',
      '(?:nostra|vostra|la) fattura(?: \\S+){1,2} (?:del|datata|emessa il)',
      '(?:your|our) (?:letter|email|e-mail|message|enquiry|inquiry|request|application|order|invoice)(?: of| dated| from)?',
    ]),
  ],
  // When a copy was printed or exported, not when the document was written.
  [
    'printed',
    wordsRegex([
      'druckdatum',
      'gedruckt(?: am)?',
      'ausgedruckt(?: am)?',
      'printed(?: on| at)?',
      'print(?:ed)? date',
      'date printed',
      'imprimé(?: le)?',
      "date d'impression",
      'afgedrukt(?: op)?',
      'printdatum',
      'fecha de impresión',
      'impreso(?: el)?',
      'stampato(?: il)?',
      'data di stampa',
      'exported(?: on)?',
      'exportiert(?: am)?',
    ]),
  ],
  [
    'issue',
    wordsRegex([
      ...OTHER_ISSUE,
      'rechnungsdatum',
      'belegdatum',
      'ausstellungsdatum',
      'ausgestellt(?: am)?',
      'bescheiddatum',
      'erstellungsdatum',
      'erstellt(?: am)?',
      'briefdatum',
      'dokumentdatum',
      'gutschriftsdatum',
      'angebotsdatum',
      'auszugsdatum',
      'abrechnungsdatum',
      'invoice date',
      'date of invoice',
      'date of issue',
      'issue date',
      'issued(?: on)?',
      'statement date',
      'receipt date',
      'credit note date',
      'quote date',
      'quotation date',
      'document date',
      'bill date',
      'billing date',
    ]),
  ],
  // Spanish and Italian say "date" as fecha and data: a label only right before its date, and not in a sentence
  // ("con fecha 02/03/2026", "stipulato in data 14/05/2019" date another act).
  [
    'plain',
    wordsRegex([
      'datum',
      'date',
      '(?<!(?:con|in|en|di|de|la|una|nuova|alla|della) )(?:fecha|data)(?=\\s*:?\\s*\\d)',
      '\\p{L}+datum',
    ]),
  ],
  ['of', wordsRegex(['vom', 'dated', 'den', 'per', 'stichtag', 'stand', 'as of', 'as at'])],
  [
    'until',
    wordsRegex([
      'bis(?: zum| spätestens(?: zum)?)?',
      'spätestens(?: bis)?(?: zum| am)?',
      'by',
      'before',
      'no later than',
      // French, Dutch, Spanish, Italian: a due date only in a sentence about paying (PAYMENT_CONTEXT).
      'avant le',
      'au plus tard le',
      "d'ici (?:au|le)",
      'v[óo][óo]r',
      'uiterlijk(?: op)?',
      'antes del?',
      'a m[áa]s tardar el',
      'entro(?: e non oltre)? il',
      'non oltre il',
    ]),
  ],
]);

/** Paying, in the six languages ("régler", "voldoen", "abone", "saldare" …). */
const PAYMENT_CONTEXT =
  /zahl|überweis|begleich|entricht|ausgleich|pay|paid|remit|settle|gutgeschrieben|eingang|paie|pai[ey]|r[èée]gl|acquitt|virement|betaal|betal|voldo|overmak|over te maken|pag(?:ar|ue|o|a|ament|hi)|abon(?:e|ar|ad)|ingres|liquid|sald(?:ar|are|i)|bonific|versa|vers(?:er|ez|ement)/iu;
/** "… am 03.02.2027 abgebucht", "buchen wir am 03.02.2027 per Lastschrift von Ihrem Konto ab" (OCR may garble a word between). */
const DEBIT_AFTER =
  /^[^.;]{0,60}?(?:abgebucht|eingezogen|belastet|debited|collected|(?:per|mittels|via|by) (?:\S+ ){0,2}?\S*(?:lastschrift|direct debit)|(?:von|vom) ihrem \p{L}*konto\b[^.;]{0,60}?\bab\b|af van uw (?:bank)?rekening|afgeschreven|ge[ïi]ncasseerd|prélevée?s?|débitée?s?|cargad[oa]|domiciliad[oa]|addebitat[oa])/iu;
/** "Ce montant sera prélevé … à partir du 20/11/2026", "collect this by Direct Debit on 22 November", "se cargará en su cuenta … con fecha": the debit named before its date. */
const DEBIT_BEFORE =
  /(?:pr[ée]l[eè]v\p{L}*|direct debit|buchen wir|lastschrift|incasso|afschrijv\p{L}*|schrijven\b[^.;]*|se cargar[áa]|cargo en (?:su )?cuenta|domiciliaci[óo]n|addebit\p{L}*|abbuch\p{L}*|einzieh\p{L}*|einzug)[^.;]{0,80}$/iu;
/** A line that ends its sentence: a date's clause does not go on into the next line. */
const endsSentence = (line: string): boolean => /[.;:!?]\s*$/.test(line);
const RANGE_AFTER = /^\s*(?:-|–|—|bis|to|until|through)\s*$/iu;
/** "Hamburg, den", "Bordeaux, le", "Madrid, el", "Roma, lì", "Utrecht,": a letter's place and date line. */
const PLACE_DATE = new RegExp(
  // Capitalised words and the particles of place names and of "done at" ("Frankfurt am Main", "Fait à Exempleville");
  // a person's name after a label ("Votre commande Mme S. Dupont, 03.02.2026") is no place.
  `^(?!(?:Mme|MME|Mr|MR|Mrs|Ms|M|Herrn?|HERRN?|Frau|FRAU|Madame|MADAME|Monsieur|MONSIEUR|Sig|Sra?|Dr)\\.?\\s)\\p{Lu}[\\p{L}.'’\\-/()]*(?: (?:\\p{Lu}[\\p{L}.'’\\-/()]*|am|an|im|in|zu|der|de|del|des|du|di|da|dal|sur|sous|en|la|le|les|à|a|aan|op|te|bij|y|e|upon|on|bei|ob))*, (?:(?:den|am|the|le|el|il|lì|li|op) )?$`,
  'u',
);

export interface DateCandidate {
  date: FoundDate;
  label: DateLabel | 'place' | 'header' | 'alone' | 'none';
  distance: number;
  /** A direct debit's date ("wird am … abgebucht"): the day the bill is paid, whatever plan or period it also lists. */
  debit?: boolean;
}
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
  if (
    !segment.trim() &&
    /^[\s,.]*(?:\d{1,2}:\d{2}(?::\d{2})?(?: ?[ap]\.?m\.?| uhr)?)?$/iu.test(line.slice(date.end, date.end + 30))
  ) {
    return { date, label: 'alone', distance: 0 };
  }
  return { date, label: hit?.kind === 'birth' ? 'birth' : 'none', distance: 99 };
}

/** Each date with the label that says what it is (issue date, due date, birth date, a period …). */
export function labelDates(doc: Doc, dates: readonly FoundDate[]): DateCandidate[] {
  const { lines } = doc;
  const spans = indexLabelsOf(
    doc,
    dates.flatMap((d) => [d.line, d.line - 1]),
    LABELS,
  );
  return dates.map((date, i) => {
    const previous = dates[i - 1];
    const previousEnd = previous && previous.line === date.line ? previous.end : 0;
    const candidate = labelDate(lines, spans, date, previousEnd);
    const next = dates[i + 1];
    const line = lines[date.line] ?? '';
    // Both ends of "01.05.2027 – 31.05.2027" describe a period, not the day the document was written.
    const startsRange =
      next !== undefined && next.line === date.line && RANGE_AFTER.test(line.slice(date.end, next.start));
    const endsRange =
      previous !== undefined && previous.line === date.line && RANGE_AFTER.test(line.slice(previous.end, date.start));
    if ((startsRange || endsRange) && candidate.label !== 'due') {
      // "Versicherungszeitraum 01.04.2027 bis 31.03.2028": the end of an insured or contract period is its term.
      return { ...candidate, label: endsRange && namesPeriod(lines, spans, previous) ? 'end' : 'start' };
    }
    if ((candidate.label === 'due' || candidate.label === 'until') && discountDate(line, date, previous, next))
      return { ...candidate, label: 'none' };
    // The sentence may go on on the next line ("… am 10.11.2027 von Ihrem Konto" / "DE12 … per Lastschrift abgebucht").
    const goesOn = endsSentence(line) ? '' : ` ${lines[date.line + 1] ?? ''}`;
    if (DEBIT_AFTER.test(`${line.slice(date.end)}${goesOn}`.slice(0, 100)))
      return { ...candidate, label: 'due', debit: true };
    const plainly = candidate.label === 'none' || candidate.label === 'plain' || candidate.label === 'until';
    // A date at the start of a line may finish the sentence the line above began ("… by direct debit on" / "01/04/2027").
    const lead = date.start < 20 && !endsSentence(lines[date.line - 1] ?? '.') ? `${lines[date.line - 1]} ` : '';
    if (plainly && DEBIT_BEFORE.test(`${lead}${line.slice(0, date.start)}`.slice(-100)))
      return { ...candidate, label: 'due', debit: true };
    return candidate;
  });
}

/** A cash discount for paying early, in the six languages. */
const CASH_DISCOUNT = /skonto|escompte|pronto pago|early payment discount|korting|sconto/giu;

/**
 * The last day for a cash discount, not the due date: the date nearest a discount word in its clause, with no other
 * date between ("Bei Zahlung bis 10.11.2027 gewähren wir 2 % Skonto"; "2 % Skonto bei Zahlung bis 10.11.2027"). In
 * "zahlbar bis 24.11. ohne Abzug oder bis 10.11. mit 2 % Skonto" only the second is.
 */
function discountDate(line: string, date: FoundDate, previous?: FoundDate, next?: FoundDate): boolean {
  const sameLine = (d?: FoundDate): d is FoundDate => d !== undefined && d.line === date.line;
  for (const word of line.matchAll(CASH_DISCOUNT)) {
    const at = word.index;
    if (at >= date.end) {
      const between = line.slice(date.end, at);
      if (/[.;]\s/.test(between) || (sameLine(next) && next.start < at)) continue;
      return true;
    }
    const between = line.slice(at + word[0].length, date.start);
    if (between.length <= 40 && !/[.;]\s/.test(between) && !(sameLine(previous) && previous.end > at)) return true;
  }
  return false;
}

/** Whether a period label ("Laufzeit", "Period of cover") stands before a date, on its line or alone above it. */
function namesPeriod(lines: readonly string[], spans: Spans, date: FoundDate): boolean {
  const before = (spans.get(date.line) ?? []).some(
    (span) => span.kind === 'period' && span.end <= date.start && date.start - span.end <= 40,
  );
  if (before || (lines[date.line] ?? '').slice(0, date.start).trim()) return before;
  return (spans.get(date.line - 1) ?? []).some((span) => span.kind === 'period');
}

const ISSUE_SCORE: Partial<Record<DateCandidate['label'], number>> = {
  issue: 0.95,
  plain: 0.9,
  place: 0.85,
  of: 0.8,
  header: 0.75,
  alone: 0.7,
  none: 0.55,
  delivery: 0.4,
  printed: 0.3,
};

export function pickDocumentDate(
  lines: readonly string[],
  candidates: readonly DateCandidate[],
  today: string,
): DatePick | null {
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
    iso: best.candidate.date.iso,
    confidence: Math.round(best.score * 100) / 100,
    evidence: evidence(lines[best.candidate.date.line] ?? best.candidate.date.text),
  };
}

/** Payment terms reach about six months (payment-terms.ts, MAX_DAYS); a labelled deadline further out is doubtful. */
const FAR_DEADLINE_DAYS = 190;

export function pickDueDate(
  lines: readonly string[],
  candidates: readonly DateCandidate[],
  documentDate: string | null,
): DatePick | null {
  let best: { date: FoundDate; score: number; far: boolean } | null = null;
  // A bill paid by direct debit is due the day it is debited: its first debit date, not the last of an instalment
  // plan or the end of a period it also prints.
  const debit = candidates.find(
    (c) => c.debit && !(documentDate && (c.date.iso < documentDate || daysBetween(documentDate, c.date.iso) > 730)),
  );
  if (debit)
    return { iso: debit.date.iso, confidence: 0.9, evidence: evidence(lines[debit.date.line] ?? debit.date.text) };
  for (const candidate of candidates) {
    const { date, label } = candidate;
    let score = 0;
    if (label === 'due') score = 0.9;
    else if (label === 'until') {
      // The verb may follow the date: "gelieve het bedrag vóór 12-05-2026 te voldoen".
      const context = `${lines[date.line - 1] ?? ''} ${lines[date.line] ?? ''}`;
      if (PAYMENT_CONTEXT.test(context)) score = 0.75;
    }
    if (score === 0) continue;
    if (documentDate && (date.iso < documentDate || daysBetween(documentDate, date.iso) > 730)) continue;
    // A deadline more than half a year out beside a nearer one is something else's (an inspection's, a renewal's).
    const far = documentDate !== null && daysBetween(documentDate, date.iso) > FAR_DEADLINE_DAYS;
    // Of several deadlines the last one counts: the net date after a discount date, a reminder's new deadline.
    if (!best || (far === best.far ? date.iso > best.date.iso : !far)) best = { date, score, far };
  }
  if (best)
    return { iso: best.date.iso, confidence: best.score, evidence: evidence(lines[best.date.line] ?? best.date.text) };
  return documentDate ? relativeDueDate(lines, documentDate) : null;
}

/** Payment terms in any of the six languages ("zahlbar innerhalb von 14 Tagen", "à 30 jours", "net 14 days") → date + N days. */
function relativeDueDate(lines: readonly string[], documentDate: string): DatePick | null {
  const terms = parsePaymentTerms(lines);
  if (!terms) return null;
  return {
    iso: dueDateFromTerms(terms, documentDate),
    confidence: terms.kind === 'period' ? 0.7 : 0.55,
    evidence: evidence(terms.evidence),
  };
}

const VALIDITY_WORDS = wordsRegex(
  ['gültig', 'gilt', 'valid', 'bindefrist', 'gebunden', 'open for acceptance', 'stands for'],
  'i',
);

/**
 * The deadline of a contract, policy or offer: the end of its fixed term or of its validity ("Vertragsende frühestens
 * 30.06.2029", "Period of cover 1 Apr 2027 to 31 Mar 2028", "gültig bis 17.05.2027"), for an offer also a validity
 * counted from its date ("valid for 45 days from the date above").
 */
export function pickTermEnd(
  lines: readonly string[],
  candidates: readonly DateCandidate[],
  documentDate: string | null,
  offer: boolean,
): DatePick | null {
  let best: FoundDate | null = null;
  for (const { date, label } of candidates) {
    if (label !== 'end') continue;
    if (documentDate && (date.iso <= documentDate || daysBetween(documentDate, date.iso) > 3660)) continue;
    if (!best || date.iso > best.iso) best = date;
  }
  if (best) return { iso: best.iso, confidence: 0.8, evidence: evidence(lines[best.line] ?? best.text) };
  if (!documentDate || !offer) return null;
  const validity = longestPeriod(lines, (clause) => VALIDITY_WORDS.test(clause));
  return validity
    ? { iso: addPeriod(documentDate, validity.period), confidence: 0.65, evidence: evidence(validity.line) }
    : null;
}
