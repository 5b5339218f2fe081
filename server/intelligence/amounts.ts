/** Finds the amount a document is about: the total to pay, not a line item, a subtotal or the tax. */

import type { EventType } from '../../common/archive-types.ts';
import { dominantCurrency, findMoney, type MoneyToken } from './money.ts';
import { evidence, nearestLabel, wordsRegex } from './text.ts';

export type AmountLabel = 'due' | 'total' | 'sum' | 'payout' | 'premium' | 'balance' | 'weak' | 'excluded' | 'none';

export interface AmountCandidate extends MoneyToken { line: number; label: AmountLabel }

export interface AmountPick { value: number; currency: string; confidence: number; evidence: string }

const LABELS: ReadonlyArray<readonly [AmountLabel, RegExp]> = [
  ['excluded', wordsRegex([
    'zwischen ?summe', 'zwischenbetrag', 'sub-? ?total', 'netto(?:betrag|summe|preis|wert|entgelt)?', 'net(?: amount| total| price| value)?',
    'netto ?gesamt', 'gesamt ?netto', 'summe netto', 'total net', 'total (?:excl\\.?|excluding|before) (?:vat|tax)',
    '(?:zzgl\\.?|zuzüglich|plus|enthaltene|davon|darin enthalten)? ?(?:\\d{1,2}(?:[.,]\\d+)? ?%)? ?(?:mwst\\.?|ust\\.?|umsatzsteuer|mehrwertsteuer|vat|sales tax|tax|steuer|steuerbetrag|mwst\\.?-?betrag)',
    'rabatt', 'nachlass', 'discount', 'skonto', 'gutschein', 'voucher', 'anzahlung', 'bereits (?:gezahlt|bezahlt|erhalten|beglichen)',
    'abschl[äa]ge?(?:szahlung(?:en)?)?', 'geleistete (?:abschläge|zahlungen)', '(?:amount )?paid', 'payments?(?: received)?',
    'deposit', 'gegeben', 'bar(?:geld)?', 'cash', 'rückgeld', 'wechselgeld', 'change', 'tendered', 'einzelpreis', 'stückpreis',
    'unit price', 'e-?preis', 'menge', 'qty', 'quantity', 'brutto(?:lohn|gehalt|verdienst|bezüge|entgelt)', 'gesamt-?brutto',
    'gross(?: pay| salary| earnings| wages?)?', 'lohnsteuer', 'kirchensteuer', 'solidaritätszuschlag', 'soli(?:daritätszuschlag)?',
    '\\p{L}*versicherung(?:sbeitrag)?(?: an)?', 'sv-?beitr[äa]ge?', 'abzüge', 'deductions', 'income tax', 'national insurance',
    'versand(?:kosten)?', 'shipping', 'porto', 'mahngebühr(?:en)?', 'mahnkosten', 'zinsen', 'verzugszinsen', 'interest',
    'alter (?:konto)?stand', 'alter saldo', 'opening balance', 'previous balance', 'kreditlimit', 'credit limit', 'limit',
    'verfügbar(?:er betrag)?', 'available', 'versicherungssumme', 'deckungssumme', 'sum insured', 'selbstbeteiligung',
    'deductible', 'excess', 'stammkapital', 'grundkapital', 'share capital', 'steuerpflichtig\\p{L}*', 'zu versteuern\\p{L}*',
    'einkünfte', 'einkommen', 'festgesetzt', 'festgesetzte \\p{L}+', 'vorauszahlung(?:en)?', 'anrechnung', 'angerechnet',
  ])],
  ['due', wordsRegex([
    'zu zahlen(?:der (?:gesamt)?betrag)?', 'noch zu zahlen', 'zahlbetrag', 'zahlungsbetrag', 'überweisungsbetrag',
    'offene(?:r)? (?:gesamt)?(?:betrag|forderung|posten|saldo|summe)', 'gesamtforderung', 'forderungsbetrag', 'ausstehender betrag',
    'fälliger betrag', 'fällig', 'nachzahlung', 'abschlusszahlung', 'erstattung(?:sbetrag)?', 'zu erstattender betrag',
    'gutschriftsbetrag', 'gutschrift(?:sbetrag)?', 'verbleibender betrag', 'restbetrag', 'amount due', 'total amount due',
    'balance due', 'total due', 'amount payable', 'total payable', 'amount to pay', 'amount owing', 'amount owed',
    'outstanding (?:amount|balance)', 'please pay', 'refund(?: amount)?', 'credit(?: amount| total)', 'due',
  ])],
  ['total', wordsRegex([
    'gesamtbetrag(?: brutto)?', 'rechnungsbetrag', 'endbetrag', 'rechnungsendbetrag', 'gesamtsumme', 'gesamtpreis', 'endsumme',
    'rechnungssumme', 'bruttobetrag', 'brutto(?:summe|gesamt)?', 'gesamt ?brutto', 'summe brutto', 'angebotssumme',
    'gesamtkosten', 'gesamtbetrag (?:inkl\\.?|inklusive) \\p{L}+', 'grand total', 'invoice total', 'total amount',
    'total (?:incl\\.?|including|inc\\.?) (?:vat|tax)', 'total (?:eur|gbp|usd|chf)', 'gesamtbetrag (?:eur|chf)',
  ])],
  ['sum', wordsRegex(['summe(?: eur| chf)?', 'gesamt', 'total', 'betrag gesamt'])],
  ['payout', wordsRegex([
    'auszahlungsbetrag', 'auszahlung', 'überweisung', 'net pay', 'take-?home pay', 'nettoverdienst', 'nettobezüge', 'nettolohn',
    'nettogehalt', 'net (?:salary|wages?|earnings)', 'amount paid to you',
  ])],
  ['premium', wordsRegex([
    '(?:jahres|monats|gesamt|versicherungs|halbjahres|quartals)?beitrag', '(?:jahres)?prämie', '(?:annual |monthly )?premium',
    'monatliche (?:rate|gebühr|miete)', 'monthly (?:fee|payment|rate|rent)', '(?:kalt|warm|gesamt|netto)?miete', 'rent',
    'grundgebühr', 'monatlich', 'monthly', 'jährlich', 'annually', 'vergütung', 'gehalt', 'salary', 'honorar', 'fee',
  ])],
  ['balance', wordsRegex([
    'neuer (?:konto)?stand', 'neuer saldo', 'schlusssaldo', 'endsaldo', 'kontostand', 'closing balance', 'new balance',
    'ending balance', 'saldo', 'balance', 'depotwert', 'kurswert', 'gesamtwert', 'portfolio value',
  ])],
  ['weak', wordsRegex(['betrag', 'amount', 'preis', 'price', 'kosten', 'costs?', 'gebühr', 'charges?', 'wert', 'value'])],
];

const INCLUDED_TAX = /(?:inkl\.?|inklusive|incl\.?|including|inc\.|einschl\.?|einschließlich)\s*(?:\d{1,2}(?:[.,]\d+)?\s*%\s*)?(?:der\s+|gesetzl(?:\.|ichen)?\s+)?(?:mwst|ust|umsatzsteuer|mehrwertsteuer|vat|tax|steuern?)\.?\)?/giu;
const ID_LINE = /\b(?:iban|bic|swift|blz|tel(?:efon)?|fax|steuer-?nr|steuernummer|ust-?id|vat (?:no|reg)|hrb|hra|kontonummer|konto-nr|sort code|account no|routing)\b/iu;

function labelOf(segment: string): { kind: AmountLabel; distance: number } | null {
  // "Gesamtbetrag inkl. MwSt. 119,00" is a total; "inkl. 19 % MwSt. 19,00" alone is the tax in it.
  const withoutIncludedTax = segment.replace(INCLUDED_TAX, (m) => ' '.repeat(m.length));
  return nearestLabel(withoutIncludedTax, LABELS) ?? nearestLabel(segment, LABELS);
}

/** Every amount in the text with the label that stands before it (on its line, or as a column header above it). */
export function findAmounts(lines: readonly string[], blockedByLine: ReadonlyMap<number, Array<readonly [number, number]>>): AmountCandidate[] {
  const result: AmountCandidate[] = [];
  let previousTokens: MoneyToken[] = [];
  lines.forEach((line, index) => {
    const tokens = /\d/.test(line) ? findMoney(line, blockedByLine.get(index)).filter((t) => t.currency || t.decimals) : [];
    const idLine = ID_LINE.test(line);
    const header = index > 0 && previousTokens.length === 0 ? headerLabels(lines[index - 1] ?? '') : [];
    tokens.forEach((token, i) => {
      if (idLine && !token.currency) return;
      const segmentStart = i > 0 ? tokens[i - 1]!.end : 0;
      const segment = line.slice(segmentStart, token.start);
      let hit = labelOf(segment);
      if (hit && hit.distance > 40) hit = null;
      let label: AmountLabel = hit?.kind ?? 'none';
      if (!hit && !/\p{L}{2,}/u.test(segment)) {
        // A header row above the values: map by column when the counts agree, or a single label above one value.
        const headerLabel = header.length === tokens.length ? header[i] : header.length === 1 && tokens.length === 1 ? header[0] : undefined;
        if (headerLabel) label = headerLabel;
      }
      result.push({ ...token, line: index, label });
    });
    previousTokens = tokens;
  });
  return result;
}

function headerLabels(line: string): AmountLabel[] {
  if (!line || /\d[.,]\d{2}/.test(line)) return [];
  const hits: Array<{ kind: AmountLabel; start: number; end: number }> = [];
  for (const [kind, pattern] of LABELS) {
    pattern.lastIndex = 0;
    for (const m of line.matchAll(pattern)) hits.push({ kind, start: m.index, end: m.index + m[0].length });
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
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
  due: 12, total: 10, sum: 8, payout: 5, premium: 6, balance: 5, weak: 4, none: 1, excluded: -1,
};
const CONFIDENCE: Record<AmountLabel, number> = {
  due: 0.9, total: 0.9, sum: 0.8, payout: 0.8, premium: 0.75, balance: 0.75, weak: 0.6, none: 0.4, excluded: 0,
};

function scoreFor(label: AmountLabel, eventType: EventType | null): number {
  if (label === 'payout' && eventType === 'payslip') return 13;
  if (label === 'premium' && (eventType === 'policy' || eventType === 'contract')) return 11;
  if (label === 'balance' && eventType === 'statement') return 11;
  if (label === 'due' && eventType === 'payslip') return 4;
  return BASE_SCORE[label];
}

export interface PickAmountOptions { eventType: EventType | null; language: string | null; text: string }

export function pickAmount(lines: readonly string[], candidates: readonly AmountCandidate[], options: PickAmountOptions): AmountPick | null {
  let best: { candidate: AmountCandidate; score: number } | null = null;
  for (const candidate of candidates) {
    if (candidate.label === 'excluded' || candidate.value === 0) continue;
    let score = scoreFor(candidate.label, options.eventType) + (candidate.currency ? 0.5 : 0);
    // Totals come after the items they add up; among equals the later one wins, and unlabelled ones by size.
    score += candidate.label === 'none' ? Math.min(Math.abs(candidate.value), 1e9) / 1e10 : candidate.line / 100_000;
    if (!best || score > best.score) best = { candidate, score };
  }
  if (!best) return null;
  const { candidate } = best;
  let confidence = CONFIDENCE[candidate.label];
  let currency = candidate.currency;
  if (!currency) {
    currency = dominantCurrency(options.text);
    confidence -= currency ? 0.1 : 0.3;
    currency ??= defaultCurrency(options.language, options.text);
  }
  return {
    value: Math.abs(candidate.value), currency, confidence: Math.max(0.2, Math.round(confidence * 100) / 100),
    evidence: evidence(lines[candidate.line] ?? candidate.text),
  };
}

/** Only a guess: the currency most documents in that language use. */
function defaultCurrency(language: string | null, text: string): string {
  if (language === 'en') return /\b(?:ltd|plc|vat reg|united kingdom|uk)\b/iu.test(text) ? 'GBP' : 'USD';
  return 'EUR';
}
