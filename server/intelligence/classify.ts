/** Event type by weighted keywords; a keyword in the heading area counts several times as much as one in the body. */

import type { EventType } from '../../common/archive-types.ts';
import type { ReferenceKind } from './references.ts';
import { documentTypeSources, lexiconsFor, tillSources, type DocumentTypeWords } from './lexicon/index.ts';
import { combineLabels, indexLabels, latin, WORD_END, WORD_START, type Doc } from './text.ts';

export interface Classification {
  type: EventType;
  confidence: number;
  /** The word that decided it, as written in a heading ("Stromrechnung", "Mahnung"), when there is one. */
  heading: string | null;
  /** Subtype words worth a tag ("mahnung", "steuerbescheid"). */
  keyword: string | null;
}

export interface ClassifySignals {
  hasTotal: boolean;
  hasDueDate: boolean;
  referenceKinds: ReadonlySet<ReferenceKind>;
  /** A total, then cash, card or change under it, below short priced lines (server/intelligence/till-shape.ts). */
  tillShape?: boolean;
  /**
   * The page is a till roll by its proportions (layout/receipt.ts), or prints a till's column of short lines priced in
   * a currency: a letter is never printed on one, nor lists its figures so.
   */
  tillRoll?: boolean;
  /** The text prints amounts with cents. */
  hasAmounts?: boolean;
}

type Rule = readonly [EventType, string, number];

/** Paid on the spot: how it was paid, the till and card terminal, the thanks for it; each kind of evidence counts on its own. */
const PAID_AT_TILL =
  'betrag (?:dankend )?erhalten|dankend erhalten|paid in full|bar bezahlt|barzahlung|ec-?karte|girocard|kartenzahlung|zahlung erfolgt|rückgeld|gegeben(?= (?:bar|eur|€|\\d))|geg\\. (?:bar|girocard|ec|karte)|paid (?:by|with) (?:cash|card|debit card|credit card|contactless)|change due|cash tendered';
const TILL =
  'tse(?:-\\p{L}+)?|bon-?nr\\.?|kasse \\d+|kassen-?nr\\.?|terminal-?id|trace-?nr\\.?|cashier|auth(?:orization|orisation)? code|trans(?:action)? ?#';
const PAID_THANKS =
  'vielen dank für ihren einkauf|thank you for (?:your purchase|shopping(?: with us)?)|gute fahrt|payment received';
/** The same evidence in all six languages, from the lexicon. */
const TILL_EVIDENCE = {
  paid: `${PAID_AT_TILL}|${tillSources('paid').join('|')}`,
  till: `${TILL}|${tillSources('till').join('|')}`,
  thanks: `${PAID_THANKS}|${tillSources('thanks').join('|')}`,
};

/**
 * [type, regex source, weight]. Strong words name the document; weak ones only occur in it. All rules run as one
 * regex where the first rule matching at a position wins, so specific words come before the generic ones
 * ("Gehaltsabrechnung" is a payslip word before "…rechnung" can count it for an invoice).
 */
const RULES: readonly Rule[] = [
  // Another document this one refers to ("Facture liée FA-12" on a credit note): no weight, so the word in it is
  // not counted as this document's heading.
  [
    'invoice',
    "(?:facture|factuur|factura|fattura) (?:li[ée]e|associ[ée]e|d'origine|initiale|d'origen|originale?|oorspronkelijke|gerelateerde|rectificada|di riferimento)|(?:oorspronkelijke|gerelateerde) factuur|(?:related|original|corrected) invoice|(?:bezogene|ursprüngliche) rechnung",
    0,
  ],
  ...lexiconRules(),
  [
    'payslip',
    'lohnabrechnung|gehaltsabrechnung|entgeltabrechnung|bezügeabrechnung|verdienstabrechnung|lohn- und gehaltsabrechnung|abrechnung der (?:brutto[ -/]netto[ -])?bezüge|payslip|pay slip|pay stub|paystub|pay advice|earnings statement|salary statement|wage slip',
    7,
  ],
  [
    'statement',
    'kontoauszug|depotauszug|jahreskontoauszug|kreditkartenabrechnung|umsatzübersicht|finanzstatus|kontoübersicht|depotübersicht|account statement|bank statement|statement of account|credit card statement|portfolio statement|rechnungsabschluss|vorsorgeausweis|renteninformation|rentenauskunft|pension statement|(?:annual )?benefits? statement',
    6,
  ],
  // Service-charge and heating-cost settlements list costs against advance payments: a statement, not an invoice.
  [
    'statement',
    'betriebskostenabrechnung|nebenkostenabrechnung|heizkostenabrechnung|hausgeldabrechnung|wohngeldabrechnung|service charge statement',
    6,
  ],
  [
    'credit_note',
    'gutschrift|gutschriftsanzeige|credit note|credit memo|stornorechnung|rechnungskorrektur|storno(?:beleg)?',
    5,
  ],
  ['notice', '(?:\\d\\. |letzte |erste |zweite |dritte )?mahnung|zahlungserinnerung', 7],
  ['notice', '\\p{L}*bescheid', 5],
  [
    'policy',
    'versicherungsschein|versicherungspolice|police|nachtrag zum versicherungsschein|insurance policy|policy schedule|certificate of insurance|policy document|deckungsbestätigung|versicherungsbestätigung|versicherungsnachweis|\\p{L}*versicherungsvertrag',
    5,
  ],
  [
    'receipt',
    'quittung|kassenbon|kassenbeleg|kassenzettel|zahlungsbeleg|zahlungsbestätigung|(?:payment |sales |cash )?receipt',
    4,
  ],
  ['offer', 'angebot|kostenvoranschlag|kostenangebot|preisangebot|quote|quotation|estimate|proposal', 4],
  ['invoice', 'rechnungs(?:nummer|datum|betrag|empfänger|nr\\.?|anschrift)', 1],
  // A bare "Abrechnung" (settlement) heads payslips and statements as often as bills; it must not count as "…rechnung".
  ['statement', 'abrechnung', 1],
  ['invoice', '\\p{L}*rechnung', 3],
  ['invoice', '(?:tax |vat |commercial )?invoice (?:number|date|no\\.?)', 1],
  ['invoice', '(?:tax |vat |commercial )?invoice', 4],
  ['invoice', 'honorarnote|fee note', 4],
  [
    'contract',
    '\\p{L}*vertrag|\\p{L}*vereinbarung|vertragszusammenfassung|vertragsbestätigung|agreement|contract|contract summary|tenancy agreement|lease',
    3,
  ],
  [
    'notice',
    '(?:payment |final )?reminder|final notice|overdue notice|notice of \\p{L}+|\\p{L}*kündigung|kündigungsbestätigung|termination',
    4,
  ],
  [
    'notice',
    'notice|mitteilung|benachrichtigung|ankündigung|beitragsanpassung|preisanpassung|preiserhöhung|änderungsmitteilung|anhörung|vollstreckungsankündigung',
    2.5,
  ],
  // Announcements of changes and interruptions are notices even without the word.
  [
    'notice',
    'price (?:change|increase|rise)s?|(?:prices|tariff|rates) (?:are|is) (?:changing|going up|increasing|rising)|changes? to your (?:tariff|prices|plan|terms|contract)|planned (?:interruption|outage|works|maintenance)|(?:supply|service) interruption|interruption to your \\p{L}+(?: supply| service)?|versorgungsunterbrechung|unterbrechung der \\p{L}*versorgung|tarifänderung|änderung (?:der|ihrer) (?:preise|allgemeinen geschäftsbedingungen|agb|vertragsbedingungen)',
    2.5,
  ],
  ['statement', 'statement', 2],
  ['offer', 'offer', 2],
  ['invoice', 'bill', 1],
  [
    'invoice',
    'amount due|balance due|zu zahlen|zahlbar|due date|payment terms|zahlungsziel|bankverbindung|ust-?id\\p{L}*|vat (?:no|reg\\p{L}*)',
    0.5,
  ],
  ['credit_note', 'erstattung|refund|gutgeschrieben|credited', 0.5],
  ['receipt', TILL_EVIDENCE.paid, 1.5],
  ['receipt', TILL_EVIDENCE.till, 1.5],
  ['receipt', TILL_EVIDENCE.thanks, 1.5],
  [
    'contract',
    'vertragsparteien|zwischen|between|the parties|unterschrift|signature|signed|§ ?\\d+|laufzeit|kündigungsfrist|hereinafter|nachfolgend|im folgenden',
    0.5,
  ],
  ['contract', 'vertrags\\p{L}+', 0.3],
  ['policy', '(?<!privacy |cookie |returns? |refund |data protection |cancellation )policy', 1.5],
  [
    'policy',
    'versicherungsnehmer(?:in)?|versicherte person|versicherungsbeginn|versicherungssumme|deckungssumme|selbstbeteiligung|policyholder|insured|sum insured|premium|prämie|tarif|versicherungsschutz|coverage|deckung',
    1,
  ],
  [
    'notice',
    'rechtsbehelfsbelehrung|einspruch|widerspruch|festsetzung|festgesetzt|finanzamt|behörde|overdue|verzug|inkasso',
    1,
  ],
  [
    'payslip',
    'bruttolohn|bruttogehalt|bruttoentgelt|nettolohn|nettogehalt|nettoentgelt|auszahlungsbetrag|lohnsteuer|kirchensteuer|solidaritätszuschlag|sozialversicherung|steuerklasse|personalnummer|gross pay|net pay|national insurance|income tax|year to date|ytd',
    1,
  ],
  [
    'statement',
    'alter kontostand|neuer kontostand|kontostand|saldo|opening balance|closing balance|buchungstag|valuta|wertstellung|umsätze|transactions|depotbestand',
    1,
  ],
  [
    'offer',
    'gültig bis|valid until|bindefrist|freibleibend|angebotsnummer|quote number|annahme des angebots|acceptance',
    1,
  ],
];

/**
 * The document-type words of French, Dutch, Spanish and Italian, from the lexicon; German and English keep their
 * finer rules above. Specific kinds first, so "facture d'avoir" is a credit note before "facture" can make it an invoice.
 */
function lexiconRules(): Rule[] {
  const kinds: ReadonlyArray<readonly [keyof DocumentTypeWords, EventType, number]> = [
    ['payslip', 'payslip', 7],
    ['bankStatement', 'statement', 6],
    ['creditNote', 'credit_note', 5],
    ['reminder', 'notice', 7],
    ['taxNotice', 'notice', 5],
    ['policy', 'policy', 5],
    ['receipt', 'receipt', 4],
    ['offer', 'offer', 4],
    ['invoice', 'invoice', 4],
    ['contract', 'contract', 3],
  ];
  const lexicons = lexiconsFor(['fr', 'nl', 'es', 'it']);
  return kinds.map(([kind, type, weight]) => [type, documentTypeSources(kind, lexicons).join('|'), weight] as const);
}

const COMBINED = combineLabels(
  RULES.map(
    ([, source], index) => [String(index), new RegExp(latin(`${WORD_START}(?:${source})${WORD_END}`), 'gi')] as const,
  ),
);
const SUBJECT = /^(?:betreff|betr\.|subject|re|aw|thema)\s*:/iu;
/**
 * The salutation that follows a letter's subject, in the six languages; those of French, Dutch, Spanish and Italian
 * only as a short line ending in a comma or colon ("Beste Marloes,", "Estimado Sr. Ruiz:"), since "beste", "cara"
 * and "madame" also stand in running text.
 */
const SALUTATION =
  /^[^\p{L}]{0,3}(?:(?:sehr geehrte[rn]?|liebe[rs]?|hallo|guten tag|dear|hello)(?![\p{L}])|(?:madame|monsieur|messieurs|ch[èe]re?s?|bonjour|geachte|beste|estimad[oa]s?|apreciad[oa]s?|señor(?:a|es)?|gentile|gentili|egregi[oa]|spettabile|car[oa])(?![\p{L}])[^\n]{0,40}[,:]\s*$)/iu;
/**
 * What may stand before a heading word: nothing, a possessive ("Ihre Stromrechnung"), "2." or a subject label; also
 * the stray marks OCR puts before a heading (": Membership agreement", "* Betriebskostenabrechnung").
 */
const HEADING_PREFIX =
  /^[^\p{L}\d]{0,3}(?:|ihre?n? |unsere?n? |your |our |die |der |das |the |votre |notre |la |le |l'|uw |onze |de |het |su |nuestra |la sua |la vostra |\d\. |betreff: ?|betr\.: ?|subject: ?|re: ?|objet ?: ?|betreft: ?|asunto: ?|oggetto: ?)$/iu;
/** Three lower-case words in a row: running text. Starting only at a word start keeps it linear on long lines. */
const PROSE = /(?<!\p{Ll})\p{Ll}{3,} \p{Ll}{3,} \p{Ll}{3,}/u;
const SEGMENT_SEPARATOR = / [-–|·:/] |: /;

/**
 * The heading as a title word. English puts the head noun last, so a short heading ending in the keyword is
 * kept whole ("Service Agreement", "Payment Reminder"); otherwise the keyword alone ("Mietvertrag über Wohnraum").
 */
function headingWord(line: string, start: number, end: number): string {
  const keyword = line.slice(start, end);
  const segment = line.split(SEGMENT_SEPARATOR).find((part) => part.includes(keyword)) ?? keyword;
  const words = segment.replace(/^(?:ihre?n?|unsere?n?|your|our|the|die|der|das) /iu, '').trim();
  const endsWithKeyword = words.toLowerCase().endsWith(keyword.toLowerCase());
  return endsWithKeyword && words.split(' ').length <= 4 && !/\d{2}/.test(words) ? words : keyword;
}

const TAG_KEYWORDS =
  /^(?:\p{L}*mahnung|zahlungserinnerung|\p{L}*bescheid|\p{L}*kündigung|reminder|final notice|\p{L}+rechnung|\p{L}+vertrag|kontoauszug|depotauszug|kreditkartenabrechnung|kostenvoranschlag)$/iu;

/** "Betreff: …" lines, and the line just above the salutation, where a letter states what it is about. */
function subjectLines(lines: readonly string[]): Set<number> {
  const subjects = new Set<number>();
  lines.forEach((line, index) => {
    if (SUBJECT.test(line)) subjects.add(index);
    if (!SALUTATION.test(line)) return;
    for (let above = index - 1; above >= 0 && above >= index - 3; above--) {
      if (!lines[above]!.trim()) continue;
      if (lines[above]!.length <= 80) subjects.add(above);
      break;
    }
  });
  return subjects;
}

/** Each line's position among the lines that have text, and how many those are. */
function textLineRanks(lines: readonly string[]): { of: number[]; count: number } {
  const of: number[] = [];
  let count = 0;
  for (const line of lines) {
    of.push(count);
    if (line.trim()) count++;
  }
  return { of, count };
}

/** A negation right before a type word, in the six languages. */
const NEGATED =
  /(?:ne vaut pas|n'est pas|ne constitue pas|not an?|no (?:es|vale como|constituye) (?:una? )?|non (?:è|vale come|costituisce) (?:una? )?|kein(?:e|en)?|geen|is geen|gilt nicht als)\s*$/iu;

/** The words of a payment reminder in the six languages (not other notices). */
const DUNNING =
  /mahnung|zahlungserinnerung|reminder|overdue|rappel|relance|herinnering|aanmaning|recordatorio|requerimiento de pago|reclamaci[óo]n de pago|aviso de impago|sollecito|promemoria di pagamento|messa in mora|diffida/iu;

/** A Swiss QR-bill's two parts: its "receipt" part is a slip for the payer's bank, not what the document is. */
const QR_BILL_PAYMENT_PART = /(?<!\p{L})(?:zahlteil|payment part|section paiement|sezione pagamento)(?!\p{L})/iu;
const QR_BILL_RECEIPT_PART = /^[^\p{L}]*(?:empfangsschein|receipt|r[ée]c[ée]piss[ée]|ricevuta)[^\p{L}]*$/iu;

export function classify(doc: Doc, signals: ClassifySignals): Classification {
  const { lines } = doc;
  const qrBill = QR_BILL_PAYMENT_PART.test(doc.text);
  // The heading area counts lines with text: OCR output has a blank line between most lines.
  const rank = textLineRanks(lines);
  const top = Math.min(25, Math.max(12, Math.ceil(rank.count * 0.2)));
  const scores = new Map<EventType, number>();
  const headings = new Map<EventType, { word: string; weight: number }>();
  const perRule = new Map<number, number[]>();
  const proseLines = new Map<number, boolean>();
  const subjects = subjectLines(lines);
  let dunningHead = false;

  for (const [index, spans] of indexLabels(doc, COMBINED)) {
    const line = lines[index] ?? '';
    const subject = subjects.has(index);
    for (const span of spans) {
      // "Cet avis ne vaut pas quittance", "this is not a receipt": a type the document says it is not.
      if (NEGATED.test(line.slice(Math.max(0, span.start - 24), span.start))) continue;
      const ruleIndex = Number(span.kind);
      const [type, , weight] = RULES[ruleIndex]!;
      if (qrBill && type === 'receipt' && QR_BILL_RECEIPT_PART.test(line.split('\t')[0] ?? '')) continue;
      const nearTop = (rank.of[index] ?? index) < top;
      const inHeadingArea = (nearTop || subject) && line.length <= 60;
      const word = inHeadingArea ? headingWord(line, span.start, span.end) : span.text;
      // A heading starts with the keyword ("Rechnung", "Ihre Stromrechnung") or ends with it ("Service Agreement").
      const isHeading =
        inHeadingArea && (HEADING_PREFIX.test(line.slice(0, span.start)) || (word !== span.text && line.length <= 40));
      // A sentence that mentions a document ("we have reviewed your tenancy agreement", "die noch ausstehende
      // Betriebskostenabrechnung") does not name this one: half weight, wherever it stands.
      let prose = proseLines.get(index);
      if (prose === undefined) proseLines.set(index, (prose = line.length > 60 && PROSE.test(line)));
      let factor = prose ? 0.5 : 1;
      if ((nearTop || subject) && factor === 1) factor = isHeading ? 4 : line.length <= 60 ? 2.5 : 1.5;
      const value = weight * factor;
      if (type === 'notice' && (nearTop || subject) && DUNNING.test(span.text)) dunningHead = true;
      const list = perRule.get(ruleIndex) ?? [];
      list.push(value);
      perRule.set(ruleIndex, list);
      if (weight >= 3) {
        // A heading names the document best; failing that, the strongest keyword in the text ("Kündigung").
        const candidate = { word: factor >= 4 ? word : span.text, weight: value + (factor >= 4 ? 100 : 0) };
        const current = headings.get(type);
        if (!current || candidate.weight > current.weight) headings.set(type, candidate);
      }
    }
  }

  for (const [ruleIndex, values] of perRule) {
    // Three occurrences say all there is to say; a word repeated in every line of a table must not swamp the rest.
    const sum = values
      .sort((a, b) => b - a)
      .slice(0, 3)
      .reduce((a, b) => a + b, 0);
    const type = RULES[ruleIndex]![0];
    scores.set(type, (scores.get(type) ?? 0) + sum);
  }
  const bump = (type: EventType, by: number): void => {
    scores.set(type, (scores.get(type) ?? 0) + by);
  };
  if (signals.hasTotal) bump('invoice', 2);
  if (signals.hasDueDate) bump('invoice', 1.5);
  const kinds = signals.referenceKinds;
  if (kinds.has('invoice')) bump('invoice', 1.5);
  if (kinds.has('credit')) bump('credit_note', 3);
  if (kinds.has('policy')) bump('policy', 2);
  if (kinds.has('offer')) bump('offer', 2);
  if (kinds.has('employee')) bump('payslip', 1);
  if (kinds.has('statement')) bump('statement', 1);
  if (kinds.has('receipt')) bump('receipt', 1);

  // A bill settled on the spot is a receipt, whatever its heading says ("Rechnung" on a petrol station slip).
  const matched = (source: string): boolean => perRule.has(RULES.findIndex((rule) => rule[1] === source));
  if (
    !signals.hasDueDate &&
    matched(TILL_EVIDENCE.paid) &&
    (matched(TILL_EVIDENCE.till) || matched(TILL_EVIDENCE.thanks))
  ) {
    // Outweighs a heading ("TAX INVOICE" over a till slip) when the till and the thanks are both there.
    bump('receipt', matched(TILL_EVIDENCE.till) && matched(TILL_EVIDENCE.thanks) ? 16 : 6);
  }
  // Printed on a till roll, with amounts on it and nothing naming another type: a receipt rather than a letter.
  if (!signals.hasDueDate && signals.tillRoll && signals.hasAmounts) bump('receipt', 4);
  // Paid at the till by its shape, for scans that lost the till's words: more than an invoice heading (4 × 4) with
  // its total (2) and invoice number (1.5) weigh, since an invoice is not paid in cash under its own totals. A slip
  // headed "TAX INVOICE" that names itself again in "Invoice #" is still paid on the spot: the shape outweighs the
  // invoice words however often they occur.
  // A credit note's heading stands: a refund to the card it was paid with has a till's shape too.
  const creditHeading = (headings.get('credit_note')?.weight ?? 0) >= 100;
  if (!signals.hasDueDate && signals.tillShape && !creditHeading) {
    bump('receipt', 20);
    const lead = (scores.get('invoice') ?? 0) - (scores.get('receipt') ?? 0);
    if (lead >= 0) bump('receipt', lead + 1);
  }

  // A reminder names the invoice it reminds of, often more than once and in a table: its own word in the heading or
  // the subject says what it is ("Oggetto: sollecito di pagamento – fattura n. 301/2026").
  if (dunningHead) {
    const lead = (scores.get('invoice') ?? 0) - (scores.get('notice') ?? 0);
    if (lead >= 0) bump('notice', lead + 1);
  }

  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < 4) {
    return { type: 'letter', confidence: first ? 0.45 : 0.5, heading: null, keyword: null };
  }
  const margin = (first[1] - (second?.[1] ?? 0)) / first[1];
  const strength = Math.min(1, first[1] / 16);
  const confidence = Math.round(Math.min(0.95, 0.45 + 0.3 * margin + 0.2 * strength) * 100) / 100;
  const heading = headings.get(first[0])?.word ?? null;
  const lastWord = heading?.split(' ').pop() ?? '';
  const keyword = TAG_KEYWORDS.test(lastWord) ? lastWord.toLowerCase() : null;
  return { type: first[0], confidence, heading, keyword };
}
