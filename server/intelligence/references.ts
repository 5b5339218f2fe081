/** Reference numbers (invoice, policy, contract, customer number …), preferring the one that fits the event type. */

import type { EventType } from '../../common/archive-types.ts';
import { cellEndAt } from './columns.ts';
import {
  combineLabels,
  evidence,
  indexLabels,
  LABEL_END,
  latin,
  WORD_START,
  type Doc,
  type LabelSpan,
} from './text.ts';
import {
  documentTypeSources,
  labelSources,
  lexiconsFor,
  type DocumentTypeWords,
  type LabelVocabulary,
} from './lexicon/index.ts';

export type ReferenceKind =
  | 'invoice'
  | 'credit'
  | 'policy'
  | 'contract'
  | 'customer'
  | 'order'
  | 'offer'
  | 'case'
  | 'receipt'
  | 'employee'
  | 'statement'
  | 'account'
  | 'related'
  | 'generic'
  | 'excluded'
  | 'column';

export interface ReferencePick {
  value: string;
  kind: ReferenceKind;
  confidence: number;
  evidence: string;
}

const NR = '(?:-? ?(?:nummer|nr\\.?|no\\.?|number|#|id))';
const LABEL_SOURCES: ReadonlyArray<readonly [ReferenceKind, readonly string[]]> = [
  [
    'excluded',
    [
      'ust\\.?-?id\\.?(?:-?nr\\.?)?',
      'umsatzsteuer-?id\\p{L}*',
      'vat (?:no|reg|number|id)\\.?(?: ?no\\.?)?',
      'hrb',
      'hra',
      'steuer-?id\\p{L}*',
      'handelsregister\\p{L}*',
      'register(?:nummer|gericht)',
      'company (?:no|number|reg)\\p{L}*\\.?',
      'tel\\.?',
      'telefon',
      'fax',
      'mobil',
      'handy',
      'phone',
      'bic',
      'swift',
      'blz',
      'bankleitzahl',
      'gläubiger-?id\\p{L}*',
      'creditor id',
      'mandatsreferenz',
      'mandate ref\\p{L}*',
      'zähler-?(?:nummer|nr\\.?)',
      'meter (?:no\\.?|number)',
      'marktlokation',
      'zählpunkt',
      'sort code',
      'postfach',
      'identifikationsnummer',
      'sozialversicherungs-?(?:nummer|nr\\.?)',
      'rv-?nr\\.?',
      'steuerklasse',
      'steuer-?identifikationsnummer',
      // The company register ("Registered in England and Wales No. 05218843") and the card terminal's slip.
      'registered in [a-z ]{3,20}?(?:no\\.?|number)',
      '(?:england|wales|scotland|northern ireland) (?:no\\.?|number)',
      'registered (?:no\\.?|number|office)',
      'registration (?:no\\.?|number)',
      'company registration(?: no\\.?| number)?',
      'reg\\.? no\\.?',
      'terminal-?id',
      'trace-?nr\\.?',
      'genehmigungs-?nr\\.?',
      'auth(?:orization|orisation)? code',
      'cae(?: n[°º])?',
      // A flat's or a plot's lot in a building ("Lot n° 0112 - Appt B2").
      'lot n[°º]',
      'approval code',
      'tse-?\\p{L}+',
      'ruf-?nummer',
      'telefonnummer',
      'faxnummer',
      'artikel-?(?:nummer|nr\\.?)',
      'art\\.-?nr\\.?',
      'serien-?(?:nummer|nr\\.?)',
      'serial (?:no\\.?|number)',
      'haus-?nummer',
      'fahrgestell-?(?:nummer|nr\\.?)',
      'fahrzeug-?ident(?:ifikations)?-?(?:nummer|nr\\.?)',
      'vin',
      // A professional's number in its chamber ("Colegiado nº 1234", "Kammer-Nr. 567"), not a document's.
      'colegiad[oa]',
      'kammer-?(?:nummer|nr\\.?)',

      'leitweg-?id',
      '(?:personal|reise)?(?:ausweis|pass)-?(?:nummer|nr\\.?)',
    ],
  ],
  [
    'credit',
    [
      `gutschrift(?:s)?${NR}`,
      `credit ?note${NR}`,
      `storno(?:rechnung)?${NR}`,
      'gutschriftsnummer',
      `(?:credit )?memo${NR}`,
      'credit memo(?= ?[:#]? ?[a-z]{0,4}-?\\d)',
    ],
  ],
  // Another document this one refers to: "Zu Rechnung …", "Bezug: Rechnung …", "Applied to invoice # …".
  [
    'related',
    [
      `(?:zu|zur|bezug:?|bezüglich|betrifft:?|für|aus) (?:unserer |ihrer |der )?rechnung(?:s?${NR})?`,
      `(?:applied to|against|relating to|regarding|re:?|for|reference:?) (?:our |your |the )?invoice(?: ?${NR})?`,
      'invoice ref\\.?',
      // The invoice a credit note corrects, named on it in the other languages.
      'rif(?:\\.|erimento)? (?:alla )?fattura',
      'factura rectificada',
      '(?:oorspronkelijke|originele) factuur',
      "facture (?:d'origine|initiale|concern[ée]e)",
    ],
  ],
  [
    'invoice',
    [
      `rechnungs?${NR}`,
      'rechnung ?:',
      'invoice ?:',
      'rechnungsnummer',
      're\\.?-? ?nr\\.?',
      'rg\\.?-? ?nr\\.?',
      'rech\\.?-? ?nr\\.?',
      `invoice${NR}`,
      'inv\\.? ?(?:no\\.?|#)',
      `bill${NR}`,
      `beitragsrechnung${NR}`,
      // "Tax invoice number", also as OCR joins it ("Taxinvoice number").
      'tax ?invoice ?(?:no\\.?|number|#)',
    ],
  ],
  [
    'policy',
    [
      `versicherungsschein${NR}`,
      'versicherungsscheinnummer',
      'vers\\.?-?schein-?nr\\.?',
      `versicherungs${NR}`,
      'versicherungsnummer',
      'vers\\.?-?nr\\.?',
      `polic(?:e|en|y)${NR}`,
      'policennummer',
      // Austria's spelling.
      'polizzen-?(?:nummer|nr\\.?)',
      'vsnr\\.?',
      'vs-?nr\\.?',
      'schein-?nr\\.?',
    ],
  ],
  [
    'contract',
    [
      `vertrags?${NR}`,
      'vertragsnummer',
      'vertragskonto(?:nummer)?',
      'vk-?nr\\.?',
      `contract${NR}`,
      `agreement${NR}`,
      `mietvertrag${NR}`,
    ],
  ],
  [
    'customer',
    [
      `kunden${NR}`,
      'kundennummer',
      'kd\\.?-? ?nr\\.?',
      'kdnr\\.?',
      `customer${NR}`,
      `client${NR}`,
      `mitglieds${NR}`,
      'mitgliedsnummer',
      `member(?:ship)?${NR}`,
      `beitrags${NR}`,
      'beitragsnummer',
      'versichertennummer',
      `account${NR}(?= ?[:#]? ?[a-z]{0,4}-?\\d)`,
    ],
  ],
  [
    'order',
    [
      `bestell${NR}`,
      'bestellnummer',
      `auftrags?${NR}`,
      'auftragsnummer',
      `order${NR}`,
      `po${NR}`,
      'purchase order(?: no\\.?| number)?',
      `lieferschein${NR}`,
    ],
  ],
  [
    'offer',
    [
      `angebots?${NR}`,
      'angebotsnummer',
      `kostenvoranschlag${NR}`,
      `quot(?:e|ation)${NR}`,
      `estimate${NR}`,
      `offer${NR}`,
      'offer code',
      'angebots-?code',
      'quote ref(?:erence)?\\.?',
    ],
  ],
  [
    'case',
    [
      'aktenzeichen',
      'az\\.?',
      'geschäftszeichen',
      'gz\\.?',
      'kassenzeichen',
      'steuernummer',
      'steuer-?nr\\.?',
      'st\\.?-?nr\\.?',
      `vorgangs?${NR}`,
      'vorgangsnummer',
      `fall${NR}`,
      `case${NR}`,
      `schadens?${NR}`,
      'schadennummer',
      `claim${NR}`,
      `ticket${NR}?`,
      'buchungszeichen',
      `bescheid${NR}`,
      'unser zeichen',
      'ihr zeichen',
      'our ref(?:erence)?\\.?',
    ],
  ],
  [
    'receipt',
    [
      `belegs?${NR}`,
      'belegnummer',
      `bon${NR}`,
      `kassenbon${NR}`,
      `quittungs?${NR}`,
      `receipt${NR}`,
      `transaktions${NR}`,
      `transaction${NR}`,
      'trans\\.? ?(?:nr\\.?|no\\.?|#)',
      'trans(?= \\d)',
      'bon(?= \\d)',
      'beleg',
      // A restaurant's check, a ticket, a hotel's folio, an Italian "documento commerciale", an Argentine "comprobante".
      'check ?(?:#|no\\.?|nr\\.?)',
      'ticket ?(?:#|:|no\\.?|n[°º]|nr\\.?)',
      // A hotel's "Folio No:", never a register's "Tomo 2875, Folio 264".
      'folio ?(?:#|no\\.?|n[°º]|nr\\.?)',
      'folio(?= ?: ?\\d)',
      'documento\\.? n\\.?',
      // "Receipt: 118-20457": the word and a colon before a number.
      'receipt(?= ?: ?[a-z]{0,3}-?\\d)',
      'comp(?:robante)?\\.? ?nro\\.?',
      // The receipt's own number in the other languages.
      'n[°º] de (?:quittance|ticket|re[çc]u)',
      'quittance n[°º]',
      'kwitantie-?(?:nummer|nr\\.?)',
      'n[úu]mero de (?:ticket|recibo)',
      'recibo n[ºo°.]',
      'ricevuta n[°º.]?',
      'scontrino n[°º.]?',
    ],
  ],
  [
    'employee',
    [
      `personal${NR}`,
      'personalnummer',
      'pers\\.?-? ?nr\\.?',
      `mitarbeiter${NR}`,
      `employee${NR}`,
      `payroll${NR}`,
      `staff${NR}`,
    ],
  ],
  ['statement', [`(?:konto)?auszugs?${NR}`, `statement${NR}`, 'auszug']],
  ['account', [`konto${NR}`, 'kontonummer', 'kto\\.?-? ?nr\\.?', `depot${NR}`, 'depotnummer', 'iban']],
  [
    'generic',
    [
      'referenz(?:nummer)?',
      'ref\\.?(?:-? ?nr\\.?)?',
      'reference(?: no\\.?| number)?',
      'your ref(?:erence)?\\.?',
      `dokument${NR}`,
      `document${NR}`,
      'nummer',
      'number',
      'nr\\.?',
      'no\\.',
      // The other languages' bare "number": "Nº:", "N°", "Número", "Numéro", "Numero".
      'n[°º]',
      // "Nº" as OCR reads its small raised o ("Ne KX-2026/55", "N9 F-12"), only before a number.
      'n[9e®](?= ?:? ?[a-z]{0,4}[-/]?\\d)',
      // A bare "No:" with its colon ("NO: K7-20419" under a till's heading).
      'no(?= ?:)',
      'n[úu]mero',
      'num[ée]ro',
    ],
  ],
  ['column', ['datum', 'date', 'seite', 'page', 'betrag', 'amount', 'fällig\\p{L}*', 'due']],
];
/** French, Dutch, Spanish and Italian, whose vocabulary lives in the lexicon only; German and English are above. */
const OTHER_LANGUAGES = lexiconsFor(['fr', 'nl', 'es', 'it']);
/** Each reference kind's lexicon labels: tax and register ids of every language, document numbers of the other four. */
const LEXICON_LABELS: ReadonlyArray<readonly [ReferenceKind, keyof LabelVocabulary, 'all' | 'others']> = [
  ['excluded', 'vatId', 'all'],
  ['credit', 'creditNoteNumber', 'others'],
  ['invoice', 'invoiceNumber', 'others'],
  ['order', 'orderNumber', 'all'],
  ['customer', 'customerNumber', 'others'],
  ['contract', 'contractNumber', 'others'],
  ['policy', 'policyNumber', 'others'],
  ['offer', 'offerNumber', 'others'],
  ['statement', 'statementNumber', 'others'],
  ['case', 'fileReference', 'others'],
];

function withLexicon(sources: typeof LABEL_SOURCES): typeof LABEL_SOURCES {
  return sources.map(([kind, own]) => {
    const added = LEXICON_LABELS.filter(([k]) => k === kind).flatMap(([, label, scope]) =>
      labelSources(label, scope === 'all' ? undefined : OTHER_LANGUAGES),
    );
    return [kind, [...own, ...added]] as const;
  });
}

const LABELS = combineLabels(
  withLexicon(LABEL_SOURCES).map(
    ([kind, sources]) => [kind, new RegExp(latin(`${WORD_START}(?:${sources.join('|')})${LABEL_END}`), 'gi')] as const,
  ),
);

/**
 * "Rechnung 2026-4711" as a heading, or "invoice INV-2044" inside a sentence, without "Nr.": the word stands in for a
 * label. Credit-note words come first: at one position the first kind matching wins, and "factura rectificativa" or
 * "Stornorechnung" must not be read as the invoice word they start or end with.
 */
const DOCUMENT_WORDS = combineLabels(
  (
    [
      ['credit', 'gutschrift|credit note|rechnungskorrektur|stornorechnung'],
      ['invoice', '\\p{L}*rechnung|invoice|tax invoice'],
      ['offer', 'angebot|kostenvoranschlag|quotation|quote|estimate|offer'],
      ['policy', 'versicherungsschein|police|insurance policy|policy schedule'],
      ['contract', '\\p{L}*vertrag|contract|agreement'],
      ['statement', 'kontoauszug|depotauszug|statement'],
      ['receipt', 'quittung|kassenbon|receipt'],
      ...(
        [
          ['credit', 'creditNote'],
          ['invoice', 'invoice'],
          ['offer', 'offer'],
          ['policy', 'policy'],
          ['contract', 'contract'],
          ['statement', 'bankStatement'],
          ['receipt', 'receipt'],
        ] as const
      ).map(
        ([kind, words]: readonly [ReferenceKind, keyof DocumentTypeWords]) =>
          [kind, documentTypeSources(words, OTHER_LANGUAGES).join('|')] as const,
      ),
    ] as const
  ).map(([kind, source]) => [kind, new RegExp(latin(`${WORD_START}(?:${source})(?=[ \n]|$|n ?[°º])`), 'gi')] as const),
);

/** The point of sale before an Argentine voucher's number, on its line. */
const POINT_OF_SALE = /(?:punto de venta|pto\.? (?:de )?vta\.?)\s*:?\s*(\d{4,5})\b/iu;
/**
 * A line that is only a number with its sign ("# INV-2026-14", "No. 4711", "N° F-0042"), or a series and a number of
 * five digits or more without one ("B007-00031415", "2026/000902").
 */
const NUMBER_LINE =
  /^[\s:.]*(?:(?:#|n[°º*]|no\.?|nr\.?)\s*:?\s*([A-Z0-9][A-Z0-9\-/._]*)|([A-Z]{0,4}\d{0,4}[-/]\d{5,10}))$/iu;
/** The number after a document word; OCR may leave a stray mark between them ("AVOIR .CN-8177"). */
const LOOSE_VALUE = /^ ?[.:]? ?(?:#|nr\.?|no\.?|n[°º.])? ?([A-Z0-9][A-Z0-9\-/._]*)/iu;
/**
 * An article or "our" before a document word: the text names another document ("our invoice", "la facture",
 * "onze factuur", "la factura", "la nostra fattura", "der Rechnung"), not this one's heading. "Your" and "this" are
 * left out: "Ihre Rechnung", "Votre facture", "this invoice" head or name the document itself.
 */
const MENTIONED =
  /(?:^|[\s(])(?:the|our|le|la|l'|l’|notre|nos|de|het|onze|el|nuestra|il|lo|nostra|della|alla|dalla|der|die|das|unserer?|rectifica a:?|remplacement de|correctie op|storno(?: parziale)?(?: d\p{L}*)?)\s*$/iu;
/** Between label and value OCR leaves stray marks ("Invoice # >> 5820-1193", "Account number © 4410297735"). */
const VALUE =
  /^[\s:#.=\-–—>»|©®°~_;,'"‘’‚“”„*+]*(?:(?:nr|no|nummer|number|n[°º]|num[ée]ro|n[úu]mero)\.?\s*[:#]?\s*)?([A-Z0-9ÄÖÜ][A-Z0-9ÄÖÜ\-/._]*(?: \/ ?\d{2,4}(?=\s|$|[,;)]))?(?: - \d{2,}(?=\s|$|[,;)]))?(?: \d{2,}(?:\.\d{3})*(?=\s|$|[,;)]))*)/iu;
/**
 * OCR also reads specks as a short lowercase word or a lone capital ("Gutschrift-Nr i GU-4711", "Account number hiss
 * 60812345", "Member no: A KX19001"): skipped when a number that starts with at most four capitals and a digit follows.
 */
const STRAY_WORD =
  /^[\s:#.=\-–—>»|©®°~_;,'"‘’‚“”„*+]*(?:[a-zß-ÿ]{1,4}|[A-Z](?= [A-Z]))[\s:#.=\-–—>»|©®°~_;,'"‘’‚“”„*+]+(?=[A-Z]{0,4}-?\d)/u;
/** A file reference may end in the writer's initials: "Unser Zeichen 317/26 MB", "Az. 4711/26 KL". */
const INITIALS_AFTER = /^ ([A-Z]{1,3})(?=$|[ ,;)])/u;
const CURRENCY_CODE = /^(?:EUR|USD|GBP|CHF)$/u;
/**
 * "04/2027" is a month, not a number ("Kontoauszug 04/2027"), unless a label calls it a number: many small firms
 * number their invoices per year ("Fattura n. 09/2026", "Rechnung Nr. 04/2026").
 */
const MONTH_YEAR = /^(?:0?[1-9]|1[0-2])[./-](?:19|20)\d\d$/;
const FULL_NUMBER_WORD = /(?:nummer|number|num[ée]ro|n[úu]mero|numero)(?![\p{L}])/iu;
const NUMBER_WORD = /(?:^|[^\p{L}])(?:nr|no|n[°º.]|num|nummer|number|num[ée]ro|n[úu]mero|numero)(?![\p{L}])|#|^n\.?$/iu;
const IBAN_VALUE = /^[\s:]*([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)/u;
/** A date in numbers, day or year first ("2026-10-0052" is a number: no date has a four-digit day). */
const DATE_LIKE = /^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|(?:19|20)\d{2})|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2})$/;
const AMOUNT_LIKE = /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/;
/** The digits a card slip or a loyalty line masks ("************5062", "####3377", "XXXX1049"). */
const MASK = '(?:[*#•]{3,}|X{4,})';
const MASK_BEFORE = new RegExp(`${MASK} ?$`, 'u');
const MASKED_NUMBER = new RegExp(`${MASK}\\d`, 'u');
/** A number's cents after it ("218,40"): the number was an amount's whole part, not a document's number. */
const startsWithCents = (rest: string): boolean => /^[.,]\d{2}(?!\d)/.test(rest);

/**
 * The kinds of number that identify a document of each type, best first. A payslip has none to quote (the personnel
 * number identifies the employee); a statement only its own number, not the account it summarises; a letter the matter
 * it is about, not the customer or member number of its addressee.
 */
const PREFERENCE: Record<EventType, readonly ReferenceKind[]> = {
  // An invoice is paid under its own number: an order number names the purchase, so it is no fallback.
  invoice: ['invoice', 'receipt', 'customer', 'contract', 'generic', 'case', 'policy', 'related'],
  credit_note: ['credit', 'invoice', 'receipt', 'generic', 'related', 'customer', 'order', 'contract'],
  // A shop's "Ticket: 6254" reads as a support ticket's number (a case); on a till receipt it is the receipt's.
  receipt: ['receipt', 'invoice', 'related', 'order', 'generic', 'customer', 'case'],
  contract: ['contract', 'policy', 'customer', 'generic', 'case', 'order'],
  policy: ['policy', 'contract', 'customer', 'generic', 'case'],
  // A reminder is paid under the invoice it reminds of; an authority's notice names no invoice, so its file number.
  notice: ['invoice', 'case', 'related', 'contract', 'policy', 'customer', 'generic', 'order'],
  payslip: [],
  statement: ['statement', 'generic', 'contract'],
  offer: ['offer', 'customer', 'order', 'generic'],
  letter: ['case', 'generic', 'related', 'contract', 'policy', 'invoice', 'order', 'offer', 'credit', 'receipt'],
};

export interface FoundReference {
  kind: ReferenceKind;
  value: string;
  line: number;
  confidence: number;
}

/**
 * A label's value as a document number, or null. `numbered`: the label says "number" ("Nr.", "Numero"), so a value
 * shaped like a month ("09/2026") is a number; `short`: it names this document's number in full words, so a two-digit
 * value ("Numero 41", "Rechnungsnummer 14") is one too (elsewhere two digits are too often a house or a page).
 */
function cleanValue(raw: string, numbered = false, short = false): string | null {
  // "48 / 2026": a number and its year, spaced as a typewriter would.
  const value = raw
    .replace(/[.\-/_]+$/, '')
    .replace(/ \/ ?/g, '/')
    .replace(/ - /g, '-')
    .trim();
  if (value.length < (short && /^\d{2}$/.test(value) ? 2 : 3) || value.length > 35 || !/\d/.test(value)) return null;
  if (
    DATE_LIKE.test(value) ||
    AMOUNT_LIKE.test(value) ||
    (MONTH_YEAR.test(value) && !numbered) ||
    /^0+$/.test(value.replace(/\D/g, ''))
  )
    return null;
  // Digit groups set apart by spaces, one of them misread as a dot: "201 384.727".
  if (/^\d+(?: \d+)+$/.test(value.replace(/\./g, ' ')) && value.includes(' ')) return value.replace(/\./g, ' ');
  return value;
}

function emptyRest(rest: string): boolean {
  return /^[\s:#./|]*$/.test(rest);
}

/** Label hits per line in reading order; at one position the earlier kind in LABEL_SOURCES wins. */
function labelHits(doc: Doc): Map<number, LabelSpan<ReferenceKind>[]> {
  const byLine = indexLabels(doc, LABELS);
  for (const hits of byLine.values()) hits.sort((a, b) => a.start - b.start);
  return byLine;
}

/**
 * Where the cell holding `offset` ends in `line`, when the text layer set the line's columns apart (`cells`, as
 * columns.ts cellsOf splits it); the line's length otherwise. A value ends with its column: "Invoice # 2026-007" beside
 * "48 Example Lane" in the next column is not "2026-007 48".
 */
function cellEnd(line: string, cells: readonly string[] | undefined, offset: number): number {
  if (!cells || cells.length < 2 || cells.join(' ') !== line) return line.length;
  return cellEndAt(cells, offset) ?? line.length;
}

/** `cells`: each line's columns (columns.ts cellsOf), for the lines that have them; a value never crosses a column. */
export function findReferences(doc: Doc, cells?: ReadonlyArray<readonly string[]>): FoundReference[] {
  const { lines } = doc;
  const found: FoundReference[] = [];
  const hitsByLine = labelHits(doc);
  const documentWords = indexLabels(doc, DOCUMENT_WORDS);
  lines.forEach((line, index) => {
    if (!line) return;
    const hits = hitsByLine.get(index) ?? [];
    hits.forEach((hit, i) => {
      if (hit.kind === 'excluded' || hit.kind === 'column') return;
      // "Tel. No: …", "Fax Nr. …": the number word belongs to the excluded label just before it.
      const previous = hits[i - 1];
      if (hit.kind === 'generic' && previous?.kind === 'excluded' && hit.start - previous.end <= 2) return;
      const nextHit = hits[i + 1];
      const rest = line.slice(hit.end, nextHit ? nextHit.start : undefined);
      const stray = STRAY_WORD.exec(rest);
      const valueRest = stray ? rest.slice(stray[0].length) : rest;
      const valueStart = hit.end + (rest.length - valueRest.length);
      // The column the value starts in: the label's own, or the next one ("Invoice #" and its number set apart).
      const firstCharacter = valueStart + Math.max(0, valueRest.search(/[\p{L}\p{N}]/u));
      const inCell = valueRest.slice(0, Math.max(0, cellEnd(line, cells?.[index], firstCharacter) - valueStart));
      const match = (hit.kind === 'account' ? IBAN_VALUE.exec(rest) : null) ?? VALUE.exec(inCell);
      const numbered = NUMBER_WORD.test(hit.text);
      // Only a label that starts its line or cell: "Calle del Pez número 23" is an address.
      const startsCell = /(?:^|\t| {2,})[^\p{L}]*$/u.test(line.slice(0, hit.start));
      const short = (hit.kind === 'invoice' || hit.kind === 'generic') && FULL_NUMBER_WORD.test(hit.text) && startsCell;
      let value = match?.[1] ? cleanValue(match[1], numbered, short) : null;
      // A masked card or loyalty number ("************5062", "####3377") is no document's number.
      if (match && MASK_BEFORE.test(valueRest.slice(0, match.index + match[0].indexOf(match[1]!)))) value = null;
      // "NC 23/2026": a series' capitals, a space, then its number.
      const series =
        match?.[1] && /^\p{Lu}{1,4}$/u.test(match[1])
          ? /^ (\d[\d/.-]*\d)(?![\d,])/u.exec(valueRest.slice(match.index + match[0].length))
          : null;
      if (series) value = cleanValue(`${match![1]} ${series[1]}`);
      // "TOTAL RECIBO 218,40 €": a label word before an amount, not a number.
      if (match && startsWithCents(valueRest.slice(match.index + match[0].length))) value = null;
      if (value && hit.kind === 'case') {
        const initials = INITIALS_AFTER.exec(valueRest.slice(match!.index + match![0].length));
        if (initials?.[1] && !CURRENCY_CODE.test(initials[1])) value = `${value} ${initials[1]}`;
      }
      // An Argentine voucher's number is its point of sale and its number: "Punto de Venta: 00007 Comp. Nro: 00000321".
      const pointOfSale = value && /^\d{8}$/u.test(value) ? POINT_OF_SALE.exec(line.slice(0, hit.start)) : null;
      if (pointOfSale?.[1]) value = `${pointOfSale[1]}-${value}`;
      if (value) {
        // "Rectifica a: Factura 2026-F-31", "a storno della fattura n. 28/2026": another document, named.
        // "… Restaurant (Beleg 5511)": a number in brackets on an item's line is that item's voucher, not this document.
        const bracketed = /\(\s*$/u.test(line.slice(0, hit.start)) && hit.start > 0;
        const kind =
          bracketed || MENTIONED.test(line.slice(Math.max(0, hit.start - 24), hit.start)) ? 'related' : hit.kind;
        // A bare "Beleg 5093" is often the card terminal's slip number printed beside the till's "Bon-Nr.".
        // A receipt number on the card slip's line ("Beleg-Nr. 2264  Karte ####3377") is the terminal's, not the till's.
        const cardSlip = kind === 'receipt' && MASKED_NUMBER.test(line);
        // A till's transaction counter is a weaker name for the slip than its printed receipt number.
        // "Beleg-Nr." is as often the terminal's slip as the till's receipt: below a "Bon-Nr.".
        const weak = /^beleg$/iu.test(hit.text) || cardSlip ? 0.75 : /^(?:trans|beleg)/iu.test(hit.text) ? 0.8 : 0.9;
        found.push({ kind, value, line: index, confidence: weak });
        return;
      }
      if (!emptyRest(rest)) return;
      const next = lines[index + 1] ?? '';
      if (hits.length === 1) {
        const below = VALUE.exec(next);
        const value2 = below?.[1] ? cleanValue(below[1], numbered, short) : null;
        if (value2) found.push({ kind: hit.kind, value: value2, line: index + 1, confidence: 0.85 });
        return;
      }
      // A header row: "Rechnungsnr. Kundennr. Datum" above "2026-4711 10023 03.02.2027".
      const pureHeader = hits.every((h, j) => emptyRest(line.slice(h.end, hits[j + 1]?.start)));
      const nextCells = next.split(' ');
      if (pureHeader && nextCells.length === hits.length) {
        const cell = cleanValue(nextCells[i] ?? '');
        if (cell) found.push({ kind: hit.kind, value: cell, line: index + 1, confidence: 0.8 });
      }
    });
    for (const word of documentWords.get(index) ?? []) {
      if (hits.some((hit) => hit.kind === 'related' && hit.start <= word.start && hit.end >= word.end)) continue;
      const loose = LOOSE_VALUE.exec(line.slice(word.end));
      const amount = loose && startsWithCents(line.slice(word.end + loose.index + loose[0].length));
      const value = loose?.[1] && !amount ? cleanValue(loose[1]) : null;
      if (!value && index < 15 && emptyRest(line.slice(word.end))) {
        // A heading over its number on a line of its own ("INVOICE" … "# INV-2026-14"), the page's head only.
        for (let j = index + 1; j <= index + 3 && j < lines.length; j++) {
          const below = NUMBER_LINE.exec(lines[j] ?? '');
          const number = below?.[1] ?? below?.[2];
          const numbered = number ? cleanValue(number, true) : null;
          if (numbered) {
            found.push({ kind: word.kind, value: numbered, line: j, confidence: 0.8 });
            break;
          }
        }
      }
      if (!value || /^(?:19|20)\d\d$/.test(value)) continue;
      // "notre facture 2026/041", "la factura …": a document the text refers to, not this one.
      const kind = MENTIONED.test(line.slice(Math.max(0, word.start - 24), word.start)) ? 'related' : word.kind;
      found.push({ kind, value, line: index, confidence: word.start === 0 && index < 40 ? 0.65 : 0.55 });
    }
  });
  return found;
}

export function pickReference(
  lines: readonly string[],
  found: readonly FoundReference[],
  eventType: EventType,
): ReferencePick | null {
  const preference = PREFERENCE[eventType];
  for (const [rank, kind] of preference.entries()) {
    const ofKind = found.filter((f) => f.kind === kind);
    if (ofKind.length === 0) continue;
    const best = ofKind.reduce((a, b) => (b.confidence > a.confidence ? b : a));
    // A customer's or member's number stands in for the document's own only when it has none: a fallback, so doubtful.
    const confidence = Math.min(
      best.confidence - (rank === 0 ? 0 : kind === 'generic' ? 0.25 : 0.1),
      kind === 'customer' ? CUSTOMER_FALLBACK : 1,
    );
    return {
      value: best.value,
      kind,
      confidence: Math.round(confidence * 100) / 100,
      evidence: evidence(lines[best.line] ?? best.value),
    };
  }
  return null;
}

/** The highest confidence of a customer number taken as a document's reference. */
const CUSTOMER_FALLBACK = 0.7;

/** All reference kinds present, for the classifier ("Versicherungsschein-Nr." hints at a policy). */
export function referenceKinds(found: readonly FoundReference[]): Set<ReferenceKind> {
  return new Set(found.map((f) => f.kind));
}
