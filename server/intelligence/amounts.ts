/** Finds the amount a document is about: the total to pay, not a line item, a subtotal or the tax. */

import type { EventType } from '../../common/archive-types.ts';
import { dominantCurrency, findMoney, type MoneyToken } from './money.ts';
import { documentCountries } from './country.ts';
import { paidFromChange, roundedByAdjustment, tenderLessChange } from './cash-rounding.ts';
import { labelSources } from './lexicon/index.ts';
import { isPostcodeLine } from './parties.ts';
import { combineLabels, evidence, indexLabelsOf, nearestLabel, wordsRegex, type Doc, type LabelSpan } from './text.ts';

export type AmountLabel =
  | 'deduction'
  | 'due'
  | 'total'
  | 'rounded'
  | 'sum'
  | 'payout'
  | 'paid'
  | 'premium'
  | 'balance'
  | 'weak'
  | 'tendered'
  | 'change'
  | 'excluded'
  | 'none';

export interface AmountCandidate extends MoneyToken {
  line: number;
  label: AmountLabel;
  prose: boolean;
}

export interface AmountPick {
  value: number;
  currency: string;
  confidence: number;
  evidence: string;
}

/** The six languages' total labels: those that ask to pay ("net à payer", "te betalen") are what is due. */
const LEXICON_TOTALS = labelSources('total');
const ASKS_TO_PAY = /pay|zahl|betal|pagar|pagare|d[ûu]/u;
const LEXICON_DUE = LEXICON_TOTALS.filter((source) => ASKS_TO_PAY.test(source));
const LEXICON_OTHER_TOTALS = LEXICON_TOTALS.filter((source) => !ASKS_TO_PAY.test(source));
const LEXICON_EXCLUDED = [...labelSources('subtotal'), ...labelSources('tax')];

/** More specific kinds first: at one position the first kind that matches wins ("net pay" before "net"). */
const LABELS = combineLabels<AmountLabel>([
  // Before the exclusions, which would read "net à payer" as a net amount.
  ['due', wordsRegex(LEXICON_DUE)],
  // The total after cash rounding is what was paid; the rounding adjustment itself is below a unit and skipped.
  [
    'rounded',
    wordsRegex([
      'rounded total',
      'total rounded',
      'total after rounding',
      'rounding',
      'gerundet(?:er betrag)?',
      'rundung',
      'total arrondi',
      'arrondi',
      'afgerond(?: totaal)?',
      'afronding',
      'redondeo',
      'total redondeado',
      'arrotondamento',
      'totale arrotondato',
    ]),
  ],
  // What a customer handed over and got back: never the amount, but tendered less change is what was paid.
  [
    'change',
    wordsRegex([
      'change(?: due| given| amt| amount)?',
      'rückgeld',
      'wechselgeld',
      'retour',
      'rendu',
      'monnaie(?: rendue)?',
      'à rendre',
      'wisselgeld',
      'terug',
      'cambio',
      'vuelto',
      'devolución',
      'resto',
    ]),
  ],
  [
    'tendered',
    wordsRegex([
      'cash(?: tendered| paid| received)?',
      'tendered',
      'amount tendered',
      'gegeben',
      'bar(?:geld)?',
      'bar gegeben',
      'espèces',
      'contant(?:en)?',
      'efectivo',
      'contanti',
      'credit card',
      'debit card',
      'card',
      'visa',
      'mastercard',
      'amex',
      'kartenzahlung',
      'ec-?karte',
      'girocard',
      'carte(?: bancaire)?',
      'pinbetaling',
      'tarjeta',
      'carta(?: di credito)?',
      'bancomat',
    ]),
  ],
  [
    'payout',
    wordsRegex([
      'auszahlungsbetrag',
      'auszahlung',
      'überweisung',
      'net pay',
      'take-?home pay',
      'nettoverdienst',
      'nettobezüge',
      'nettolohn',
      'nettogehalt',
      'net (?:salary|wages?|earnings)',
      'amount paid to you',
    ]),
  ],
  // What a receipt confirms; on an invoice the same words name an earlier payment.
  [
    'paid',
    wordsRegex([
      '(?:total|amount|sum) paid',
      'paid (?:total|amount)',
      'gezahlter betrag',
      'bezahlter betrag',
      'betrag (?:dankend )?erhalten',
      'gesamt bezahlt',
      'bezahlt gesamt',
    ]),
  ],
  [
    'excluded',
    wordsRegex([
      'zwischen ?summe',
      'zwischenbetrag',
      'sub-? ?total',
      'netto(?:betrag|summe|preis|wert|entgelt)?',
      'net(?: amount| total| price| value)?',
      'netto ?gesamt',
      'gesamt ?netto',
      'summe netto',
      'total net',
      'total (?:excl\\.?|excluding|before) (?:vat|tax)',
      '(?:zzgl\\.?|zuzüglich|plus|enthaltene|davon|darin enthalten)? ?(?:\\d{1,2}(?:[.,]\\d+)? ?%)? ?(?:mwst\\.?|ust\\.?|umsatzsteuer|mehrwertsteuer|vat|sales tax|tax|steuer|steuerbetrag|mwst\\.?-?betrag)',
      'rabatt',
      'nachlass',
      'discount',
      'skonto',
      'gutschein',
      'voucher',
      'anzahlung',
      'bereits (?:gezahlt|bezahlt|erhalten|beglichen)',
      'abschl[äa]ge?(?:szahlung(?:en)?)?',
      'geleistete (?:abschläge|zahlungen)',
      '(?:amount )?paid',
      'payments?(?: received)?',
      'deposit',
      'einzelpreis',
      'stückpreis',
      'unit price',
      'e-?preis',
      'menge',
      'qty',
      'quantity',
      '\\p{L}*steuer',
      'versand(?:kosten)?',
      'shipping',
      'porto',
      'mahngebühr(?:en)?',
      'mahnkosten',
      'zinsen',
      'verzugszinsen',
      'interest',
      'alter (?:konto)?stand',
      'alter saldo',
      'opening balance',
      'previous balance',
      'kreditlimit',
      'credit limit',
      'limit',
      'verfügbar(?:er betrag)?',
      'available',
      'versicherungssumme',
      'deckungssumme',
      'sum insured',
      'selbstbeteiligung',
      'deductible',
      'excess',
      'stammkapital',
      'grundkapital',
      'share capital',
      'steuerpflichtig\\p{L}*',
      'zu versteuern\\p{L}*',
      'einkünfte',
      'einkommen',
      'festgesetzt',
      'festgesetzte \\p{L}+',
      'vorauszahlung(?:en)?',
      'anrechnung',
      'angerechnet',
      'price (?:rise|increase)',
      'preiserhöhung',
      'one-?off(?: \\p{L}+)? (?:charge|fee)',
      'joining fee',
      'aufnahmegebühr',
      ...LEXICON_EXCLUDED,
    ]),
  ],
  [
    'deduction',
    wordsRegex([
      'brutto(?:lohn|gehalt|verdienst|bezüge|entgelt)',
      'gesamt-?brutto',
      'gross(?: pay| salary| earnings| wages?)?',
      'solidaritätszuschlag',
      'soli',
      '\\p{L}*versicherung(?: an)?',
      'sv-?beitr[äa]ge?',
      'abzüge',
      'deductions',
      'income tax',
      'national insurance',
    ]),
  ],
  [
    'due',
    wordsRegex([
      'zu zahlen(?:der (?:gesamt)?betrag)?',
      'noch zu zahlen',
      'zahlbetrag',
      'zahlungsbetrag',
      'überweisungsbetrag',
      'offene(?:r)? (?:gesamt)?(?:betrag|forderung|posten|saldo|summe)',
      'gesamtforderung',
      'forderungsbetrag',
      'ausstehender betrag',
      'fälliger betrag',
      'fällig',
      'nachzahlung',
      'abschlusszahlung',
      'erstattung(?:sbetrag)?',
      'zu erstattender betrag',
      'gutschriftsbetrag',
      'gutschrift(?:sbetrag)?',
      'verbleibender betrag',
      'restbetrag',
      'amount due',
      'total amount due',
      'balance due',
      'total due',
      'amount payable',
      'total payable',
      'amount to pay',
      'amount owing',
      'amount owed',
      'outstanding (?:amount|balance)',
      'overdue (?:amount|balance)',
      'amount overdue',
      'arrears',
      'mahnbetrag',
      'please pay',
      'refund(?: amount)?',
      'credit(?: amount| total)',
      'due',
    ]),
  ],
  [
    'total',
    wordsRegex([
      'gesamtbetrag(?: brutto)?',
      'rechnungsbetrag',
      'endbetrag',
      'rechnungsendbetrag',
      'gesamtsumme',
      'gesamtpreis',
      'endsumme',
      'rechnungssumme',
      'bruttobetrag',
      'brutto(?:summe|gesamt)?',
      'gesamt ?brutto',
      'summe brutto',
      'angebotssumme',
      'gesamtkosten',
      'gesamtbetrag (?:inkl\\.?|inklusive) \\p{L}+',
      'grand total',
      'invoice total',
      'total amount',
      'total (?:incl\\.?|including|inc\\.?) (?:vat|tax)',
      'total (?:eur|gbp|usd|chf)',
      'gesamtbetrag (?:eur|chf)',
      ...LEXICON_OTHER_TOTALS.filter((source) => source !== 'total'),
    ]),
  ],
  ['sum', wordsRegex(['summe(?: eur| chf)?', 'gesamt', 'total', 'betrag gesamt'])],
  [
    'premium',
    wordsRegex([
      '(?:jahres|monats|gesamt|versicherungs|halbjahres|quartals)?beitrag',
      '(?:jahres)?prämie',
      '(?:annual |monthly )?premium',
      'monatliche[rs]? (?:rate|gebühr|miete|grundpreis|grundgebühr|preis|beitrag|betrag)',
      'monthly (?:fee|payment|rate|rent|charge|price|cost)',
      '(?:kalt|warm|gesamt|netto)?miete',
      'rent',
      'grundgebühr',
      'monatlich',
      'monthly',
      'jährlich',
      'annually',
      'vergütung',
      'gehalt',
      'salary',
      'honorar',
      'fee',
    ]),
  ],
  [
    'balance',
    wordsRegex([
      'neuer (?:konto)?stand',
      'neuer saldo',
      'schlusssaldo',
      'endsaldo',
      'kontostand',
      'closing balance',
      'new balance',
      'ending balance',
      'saldo',
      'balance',
      'depotwert',
      'kurswert',
      'gesamtwert',
      'portfolio value',
    ]),
  ],
  [
    'weak',
    wordsRegex([
      'betrag',
      'amount',
      'preis',
      'price',
      'kosten',
      'costs?',
      'gebühr',
      'charges?',
      'wert',
      'value',
      'geldbuße',
      'bußgeld',
      'verwarnungsgeld',
      'penalty(?: charge)?',
      'fine',
    ]),
  ],
]);

const INCLUDED_TAX =
  /(?:inkl\.?|inklusive|incl\.?|including|inclusive(?: of)?|inc\.|einschl\.?|einschließlich|compris|incluse?|inclusa|inclusief|incluido|incluida) ?(?:\d{1,2}(?:[.,]\d+)? ?% ?)?(?:der |gesetzl(?:\.|ichen)? |la |de |)?(?:mwst|ust|umsatzsteuer|mehrwertsteuer|vat|gst|sst|tva|btw|iva|tax|versst|[a-zäöü]*steuern?)\.?\)?/gi;
/** "27,91 € Mehrwertsteuer" / "€20.00 VAT": the label after the number says it is tax. */
/** "VAT 8% included in total 1.48": the tax a total contains, not that total. */
const TAX_IN_TOTAL =
  /(?<!\p{L})(?:gst|vat|sst|tax|mwst|ust|tva|btw|iva)(?!\p{L})[^\d]{0,6}(?:\d{1,2}(?:[.,]\d+)? ?%)?[ :]*(?:is )?(?:included|incl\.?|inclusive) in (?:the )?total/iu;
const TAX_AFTER =
  /^ ?\)?[ :]*(?:\(?\d{1,2}(?:[.,]\d+)? ?%\)? ?)?(?:mwst|ust|umsatzsteuer|mehrwertsteuer|vat|tax|steuer)(?![a-zäöü])/i;
const TAX_LABELS = combineLabels<AmountLabel>([['excluded', INCLUDED_TAX]]);
/** A price per unit of consumption ("1,859 EUR/l", OCR "EUR/1", "0,32 €/kWh") or a column of them ("Standing charge (p/day)"). */
const RATE_AFTER =
  /^ ?\/ ?(?:kwh|mwh|l|1(?!\d)|ltr|liter|litre|m³|m3|m²|m2|qm|std|h|hr|km|stk|st|kg|g|t|day|tag|unit|einheit|page|seite)(?![a-zäöü])/i;
const RATE_LABEL = /\((?:p|ct|cent|pence|€|eur|£|\$) ?\/ ?(?:kwh|mwh|day|tag|l|ltr|m³|m3|km|unit|einheit|std|h)\)/iu;
const ID_LINE =
  /\b(?:iban|bic|swift|blz|tel(?:efon)?|fax|steuer-?nr|steuernummer|ust-?id|vat (?:no|reg)|hrb|hra|kontonummer|konto-nr|sort code|account no|routing)\b/iu;

const PROSE = /\p{Ll}{3,} \p{Ll}{3,} \p{Ll}{3,}/u;
const TOTAL_KINDS = new Set<AmountLabel>(['due', 'total', 'sum', 'rounded']);

/** Every amount in the text with the label that stands before it (on its line, or as a column header above it). */
export function findAmounts(
  doc: Doc,
  blockedByLine: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>,
): AmountCandidate[] {
  const result: AmountCandidate[] = [];
  const money = findMoney(doc, blockedByLine);
  const labelLines = [...money.keys()].flatMap((n) => [n, n - 1]);
  const spans = indexLabelsOf(doc, labelLines, LABELS);
  const taxSpans = indexLabelsOf(doc, money.keys(), TAX_LABELS);
  for (const index of [...money.keys()].sort((a, b) => a - b)) {
    const line = doc.lines[index] ?? '';
    const tokens = money.get(index)!.filter((t) => t.currency || t.decimals);
    const idLine = ID_LINE.test(line);
    let header: AmountLabel[] | null = null;
    const prose = line.length > 70 && PROSE.test(line);
    const taxes = taxSpans.get(index) ?? [];
    const lineSpans = spans.get(index);
    const outsideTax = lineSpans?.filter((span) => !taxes.some((t) => span.start >= t.start && span.end <= t.end));
    tokens.forEach((token, i) => {
      if (idLine && !token.currency) return;
      const from = i > 0 ? tokens[i - 1]!.end : 0;
      const segment = line.slice(from, token.start);
      // "Gesamtbetrag inkl. MwSt. 119,00" is a total; "inkl. 19 % MwSt. 19,00" alone is the tax in it.
      let hit = nearestLabel(outsideTax, from, token.start) ?? nearestLabel(lineSpans, from, token.start);
      if (hit && hit.distance > 40) hit = null;
      let label: AmountLabel = hit?.kind ?? 'none';
      // "Total 18.50 22.20": values after a total's with nothing between them are that total's columns (net, gross).
      const previous = result[result.length - 1];
      // A smaller value after a total is its tax column, not a gross.
      if (
        !hit &&
        i > 0 &&
        previous?.line === index &&
        TOTAL_KINDS.has(previous.label) &&
        !/\p{L}{2,}/u.test(segment) &&
        Math.abs(token.value) > Math.abs(previous.value)
      ) {
        label = previous.label;
      }
      if (!hit && !/\p{L}{2,}/u.test(segment) && index > 0 && !money.has(index - 1)) {
        // A header row above the values: map by column when the counts agree, or a single label above one value.
        header ??= headerLabels(spans.get(index - 1) ?? [], doc.lines[index - 1] ?? '');
        const headerLabel =
          header.length === tokens.length
            ? header[i]
            : header.length === 1 && tokens.length === 1
              ? header[0]
              : undefined;
        if (headerLabel) label = headerLabel;
      }
      if (TAX_AFTER.test(line.slice(token.end, token.end + 30)) || TAX_IN_TOTAL.test(segment)) label = 'excluded';
      const rate =
        RATE_AFTER.test(line.slice(token.end, token.end + 12)) ||
        RATE_LABEL.test(line.slice(Math.max(0, token.start - 60), token.start));
      if (rate) label = 'excluded';
      result.push({ ...token, line: index, label, prose });
    });
  }
  markTaxSummary(result, doc.lines);
  markRemainders(result);
  restoreLostDecimals(result);
  return result;
}

/** The heading of a receipt's tax table ("GST Summary", "VAT analysis", "Tax code  Net  Tax"). */
const TAX_SUMMARY =
  /(?<!\p{L})(?:(?:gst|vat|sst|tax|mwst|ust|tva|btw|iva)[ -]?(?:summary|analysis|breakdown|info)|tax code|r[ée]capitulatif tva|mwst[- ]?(?:übersicht|aufstellung)|btw[- ]?overzicht|riepilogo iva|resumen iva)(?!\p{L})/iu;
/** A tax table has a row per rate and a total row. */
const TAX_SUMMARY_ROWS = 5;

/**
 * Below the total, a receipt repeats net and tax per rate in a table whose last row is labelled "Total": those rows
 * are the tax's breakdown, not the amount paid. Only when a total was printed before the table, so a document whose
 * only total is such a table keeps it.
 */
function markTaxSummary(candidates: AmountCandidate[], lines: readonly string[]): void {
  const heading = lines.findIndex((line) => TAX_SUMMARY.test(line));
  if (heading < 0 || !candidates.some((c) => c.line < heading && TOTAL_KINDS.has(c.label))) return;
  for (const candidate of candidates) {
    if (candidate.line >= heading && candidate.line <= heading + TAX_SUMMARY_ROWS) candidate.label = 'excluded';
  }
}

/**
 * OCR drops a decimal comma ("38846 €" for 388,46 €): a whole number of four or more plain digits whose digits are
 * those of an amount with cents at most three lines away is that amount read again, not a hundred times it.
 */
function restoreLostDecimals(candidates: AmountCandidate[]): void {
  for (const candidate of candidates) {
    if (candidate.decimals || !/^\d{4,}$/.test(candidate.text.replace(/[^\d.,'’ ]/g, '').trim())) continue;
    const cents = Math.round(Math.abs(candidate.value));
    const twin = candidates.find(
      (other) =>
        other.decimals &&
        Math.abs(other.line - candidate.line) <= 3 &&
        Math.round(Math.abs(other.value) * 100) === cents,
    );
    if (!twin) continue;
    candidate.value = Math.sign(candidate.value) * Math.abs(twin.value);
    candidate.decimals = true;
  }
}

/**
 * "Treatment total 341,00 / Deposit paid -50,00 / 291,00": an unlabelled amount right after a total that equals the
 * total less a payment or discount listed in between is what is left to pay (its label is often lost in a scan).
 */
function markRemainders(candidates: AmountCandidate[]): void {
  let total: AmountCandidate | null = null;
  let since: AmountCandidate[] = [];
  for (const candidate of candidates) {
    if (candidate.label === 'total' || candidate.label === 'sum' || candidate.label === 'rounded') {
      total = candidate;
      since = [];
    } else if (candidate.label === 'excluded' && total && since.length < 5) {
      since.push(candidate);
    } else if (candidate.label === 'none' && total && candidate.line > total.line && candidate.line - total.line <= 6) {
      const rest = Math.round(Math.abs(candidate.value) * 100);
      const base = Math.round(Math.abs(total.value) * 100);
      if (rest > 0 && since.some((x) => x.line > total!.line && base - Math.round(Math.abs(x.value) * 100) === rest)) {
        candidate.label = 'due';
      }
    }
  }
}

function headerLabels(spans: readonly LabelSpan<AmountLabel>[], line: string): AmountLabel[] {
  if (!line || /\d[.,]\d{2}/.test(line)) return [];
  const hits = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const columns: AmountLabel[] = [];
  let end = -1;
  for (const hit of hits) {
    if (hit.start < end) continue;
    columns.push(hit.kind);
    end = hit.end;
  }
  return columns;
}

const BASE_SCORE: Record<AmountLabel, number> = {
  deduction: 3,
  due: 12,
  rounded: 11,
  total: 10,
  tendered: -1,
  change: -1,
  sum: 8,
  payout: 5,
  paid: -1,
  premium: 6,
  balance: 5,
  weak: 4,
  none: 1,
  excluded: -1,
};
const CONFIDENCE: Record<AmountLabel, number> = {
  deduction: 0.5,
  due: 0.9,
  rounded: 0.85,
  total: 0.9,
  tendered: 0,
  change: 0,
  sum: 0.8,
  payout: 0.8,
  paid: 0.9,
  premium: 0.75,
  balance: 0.75,
  weak: 0.6,
  none: 0.4,
  excluded: 0,
};

function scoreFor(label: AmountLabel, eventType: EventType | null): number {
  if (label === 'payout' && eventType === 'payslip') return 13;
  if (label === 'paid' && eventType === 'receipt') return 12;
  if (label === 'premium' && (eventType === 'policy' || eventType === 'contract')) return 11;
  if (label === 'balance' && eventType === 'statement') return 13;
  if (label === 'deduction' && eventType === 'payslip') return -1;
  if (label === 'due' && eventType === 'payslip') return 4;
  return BASE_SCORE[label];
}

export interface PickAmountOptions {
  eventType: EventType | null;
  language: string | null;
  text: string;
}

/** Letters and notices ask for money only in so many words; a figure in passing is not their amount. */
const SAYS_AMOUNT = new Set<AmountLabel>(['due', 'total', 'sum']);
const PAY_REQUEST =
  /(?<![\p{L}])(?:bitte (?:zahlen|überweisen)|(?:zahlen|überweisen|begleichen) sie|zu (?:zahlen|überweisen)|pay|must be paid|is payable|remit)(?![\p{L}])/iu;

export function pickAmount(
  lines: readonly string[],
  candidates: readonly AmountCandidate[],
  options: PickAmountOptions,
): AmountPick | null {
  let best: { candidate: AmountCandidate; score: number } | null = null;
  const correspondence = options.eventType === 'letter' || options.eventType === 'notice';
  const asks = new Map<number, boolean>();
  const asksToPay = (line: number): boolean => {
    let found = asks.get(line);
    if (found === undefined) asks.set(line, (found = PAY_REQUEST.test(lines[line] ?? '')));
    return found;
  };
  for (const candidate of candidates) {
    const base = scoreFor(candidate.label, options.eventType);
    if (base < 0 || candidate.value === 0 || !isPrintedAmount(candidate, lines[candidate.line] ?? '')) continue;
    // A rounding adjustment ("Rounding -0.02") is not the rounded total.
    if (candidate.label === 'rounded' && Math.abs(candidate.value) < 1) continue;
    if (
      correspondence &&
      !SAYS_AMOUNT.has(candidate.label) &&
      (candidate.label === 'none' || candidate.prose) &&
      !asksToPay(candidate.line)
    )
      continue;
    // A table or label line states the total; a sentence mentions amounts in passing.
    let score = base + (candidate.currency ? 0.5 : 0) - (candidate.prose ? 1.5 : 0);
    // Totals come after the items they add up; among equals the later one wins (on one line too: net, then gross),
    // and unlabelled ones by size.
    score +=
      candidate.label === 'none'
        ? Math.min(Math.abs(candidate.value), 1e9) / 1e10
        : candidate.line / 100_000 + (TOTAL_KINDS.has(candidate.label) && !candidate.prose ? candidate.start / 1e8 : 0);
    if (!best || score > best.score) best = { candidate, score };
  }
  const fromChange = best && STATES_TOTAL.has(best.candidate.label) ? null : paidFromChange(candidates);
  if (fromChange) best = { candidate: fromChange, score: 0 };
  if (!best) return null;
  const settled = fromChange ? null : paidByTender(candidates);
  const printed = settled ?? grossOf(best.candidate, candidates) ?? best.candidate;
  const rounded = settled ? null : roundedByAdjustment(printed, candidates);
  const total = rounded ?? printed;
  const remainder = settled || rounded ? null : remainderOf(total, candidates, lines);
  const candidate = remainder ?? total;
  let confidence =
    CONFIDENCE[candidate.label === 'none' && candidate !== best.candidate ? best.candidate.label : candidate.label];
  // Arithmetic that adds up (net + tax, total + rounding, cash − change) confirms the pick; a larger total after
  // it that nothing explains makes it doubtful. Cash less change alone, with no total to agree, is a weaker reading.
  if (fromChange) confidence = 0.6;
  else if (settled || remainder || confirmedBySum(candidate, candidates)) confidence = Math.max(confidence, 0.9) + 0.05;
  else if (candidate.label !== 'due' && laterLargerTotal(candidate, candidates)) confidence -= 0.2;
  let currency = candidate.currency;
  // "$", "¥", "kr", "Rs" alone, in a document that names no country, is the likeliest of several currencies only.
  if (currency && SHARED_SYMBOL.test(candidate.text) && documentCountries(options.text).length === 0)
    confidence -= 0.15;
  if (!currency) {
    currency = dominantCurrency(options.text);
    confidence -= currency ? 0.1 : 0.3;
    currency ??= defaultCurrency(options.language, options.text);
  }
  return {
    value: Math.abs(candidate.value),
    currency,
    confidence: Math.min(0.97, Math.max(0.2, Math.round(confidence * 100) / 100)),
    evidence: evidence(lines[candidate.line] ?? candidate.text),
  };
}

/** Labels that state the amount itself; without one, a receipt's payment lines tell it. */
const STATES_TOTAL = new Set<AmountLabel>([...TOTAL_KINDS, 'paid', 'payout', 'premium', 'balance']);

const SHARED_SYMBOL = /(?<![\p{L}$])(?:\$|¥|kr\.?|Kr\.?|Rs\.?)(?!\p{L})/u;

const cents = (value: number): number => Math.round(Math.abs(value) * 100);

/** A year is printed next to a month, a date or the word year ("March 2026", "Jahresabrechnung 2026"). */
const YEAR_CONTEXT =
  /\p{L}{3,}\.? \d{4}(?!\d)|\d{1,2}[./-]\d{4}(?!\d)|\b(?:year|jahr|année|anno|año|jaar)|jahres|annual|annuel/iu;
const QUANTITY_BEFORE =
  /(?:\b(?:qty|menge|anzahl|quantity|quantité|qté|aantal|cantidad|cant|quantità|qtà|pcs|stk)\.?:? ?|\d ?[x×] ?)$/iu;

/** Whether a candidate is a printed amount rather than a year, a postcode, an IBAN fragment or a quantity. */
export function isPrintedAmount(candidate: AmountCandidate, line: string): boolean {
  if (!candidate.decimals) {
    const whole = Math.abs(candidate.value);
    if (Number.isInteger(whole) && whole >= 1900 && whole <= 2100 && YEAR_CONTEXT.test(line)) return false;
    if (/^\d{4,5}$/.test(String(whole)) && isPostcodeLine(line.replace(/\s*(?:[A-Z]{3}|€|\$|£)\s*$/u, '')))
      return false;
    if (/\b[A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){2,}/u.test(line)) return false;
  }
  return !QUANTITY_BEFORE.test(line.slice(Math.max(0, candidate.start - 10), candidate.start));
}

/**
 * The gross amount when the pick is a net one: a candidate printed after it that equals the pick plus a tax or
 * surcharge listed in the document ("Total 18.50" … "VAT 3.70" … "22.20").
 */
function grossOf(pick: AmountCandidate, candidates: readonly AmountCandidate[]): AmountCandidate | null {
  if (pick.label === 'due' || pick.label === 'rounded') return null;
  const excluded = candidates.filter((c) => c.label === 'excluded' && c.value > 0 && c !== pick);
  const after = candidates.filter(
    (c) =>
      (c.line > pick.line || (c.line === pick.line && c.start > pick.start)) &&
      (c.label === 'none' || TOTAL_KINDS.has(c.label)) &&
      cents(c.value) > cents(pick.value),
  );
  // A cash-rounding adjustment may sit between them ("Total 40.00 / Tax 3.20 / Rounding -0.05 / Total 43.15").
  const roundings = [
    0,
    ...candidates
      .filter((c) => c.label === 'rounded' && cents(c.value) > 0 && cents(c.value) < 10)
      .map((c) => Math.round(c.value * 100)),
  ];
  for (const gross of after) {
    if (
      excluded.some(
        (tax) =>
          tax !== gross &&
          roundings.some((rounding) => cents(pick.value) + cents(tax.value) + rounding === cents(gross.value)),
      )
    )
      return gross;
  }
  return null;
}

/** The pick equals the sum or difference of two other printed amounts (net + tax, total + rounding, tendered − change). */
function confirmedBySum(pick: AmountCandidate, candidates: readonly AmountCandidate[]): boolean {
  const target = cents(pick.value);
  // Only labelled amounts: among a receipt's many item prices some pair adds up to anything.
  const others = candidates
    .filter((c) => c !== pick && c.label !== 'none' && cents(c.value) > 0)
    .map((c) => cents(c.value))
    .slice(0, 200);
  const values = new Set(others);
  return (
    others.some(
      (a) => a < target && values.has(target - a) && !(target - a === a && others.filter((x) => x === a).length < 2),
    ) || others.some((a) => a > target && values.has(a - target) && a - target !== target)
  );
}

/** A line that names what is left to pay ("Solde à payer", "Restbetrag", "Balance due", "Te betalen"). */
const LEFT_TO_PAY = /pay|zahl|betal|pagar|pagare|due|d[ûu]|rest|reste|solde|saldo|balance|resto|restante/iu;

/**
 * What is left to pay after a prepayment: an amount near the total, on a line that says so, that equals the total less
 * another printed amount (a deposit, a transfer already made).
 */
function remainderOf(
  total: AmountCandidate,
  candidates: readonly AmountCandidate[],
  lines: readonly string[],
): AmountCandidate | null {
  if (total.label === 'due' || total.label === 'rounded') return null;
  for (const rest of candidates) {
    if (
      rest.line <= total.line ||
      rest.line - total.line > 6 ||
      cents(rest.value) >= cents(total.value) ||
      rest.value <= 0
    )
      continue;
    if (!LEFT_TO_PAY.test(lines[rest.line]?.slice(0, rest.start) ?? '')) continue;
    const paid = cents(total.value) - cents(rest.value);
    if (candidates.some((other) => other !== rest && other !== total && cents(other.value) === paid)) return rest;
  }
  return null;
}

/**
 * On a receipt the amount paid is what was tendered less the change given ("Cash 20.00 / Change 7.60" → 12.40); a
 * total printed with that value is the one. Paid by card, the card's amount is the total itself.
 */
function paidByTender(candidates: readonly AmountCandidate[]): AmountCandidate | null {
  const payment = tenderLessChange(candidates);
  if (!payment) return null;
  const { tendered, change, paid } = payment;
  // With change given the arithmetic alone is evidence enough; paid by card, a total label must agree.
  const totals = candidates.filter(
    (c) =>
      c !== tendered &&
      cents(c.value) === paid &&
      (TOTAL_KINDS.has(c.label) || (change !== undefined && c.label !== 'tendered' && c.label !== 'change')),
  );
  return totals.findLast((c) => c.line <= tendered.line) ?? null;
}

function laterLargerTotal(pick: AmountCandidate, candidates: readonly AmountCandidate[]): boolean {
  return candidates.some((c) => c.line > pick.line && TOTAL_KINDS.has(c.label) && cents(c.value) > cents(pick.value));
}

/** Only a guess: the currency most documents in that language use. */
function defaultCurrency(language: string | null, text: string): string {
  if (language === 'en') return /\b(?:ltd|plc|vat reg|united kingdom|uk)\b/iu.test(text) ? 'GBP' : 'USD';
  return 'EUR';
}
