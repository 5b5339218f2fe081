/** Picks the amount a document is about from its labelled candidates: the total to pay, not a line item or the tax. */

import { CONDITIONAL_PAYMENT } from './labels.ts';
import type { EventType } from '../../../common/archive-types.ts';
import { paidFromChange, roundedByAdjustment } from '../cash-rounding.ts';
import { documentCountries } from '../country.ts';
import { dominantCurrency } from '../money.ts';
import { evidence } from '../text.ts';
import { CONFIDENCE, CONFIRMED_BY_ARITHMETIC, scoreFor } from './label-scores.ts';
import { isPrintedAmount } from './printed.ts';
import {
  confirmedBySum,
  grossOf,
  laterLargerTotal,
  NAMED_TOTAL,
  paidByTender,
  remainderOf,
  rowGross,
  equalsResult,
} from './totals-arithmetic.ts';
import { TOTAL_KINDS, type AmountCandidate, type AmountLabel, type AmountPick } from './types.ts';

export interface PickAmountOptions {
  eventType: EventType | null;
  language: string | null;
  text: string;
}

/** Letters and notices ask for money only in so many words (six languages); a figure in passing is not their amount. */
const SAYS_AMOUNT = new Set<AmountLabel>(['due', 'total', 'sum']);
const PAY_REQUEST =
  /(?<![\p{L}])(?:bitte (?:zahlen|überweisen)|(?:zahlen|überweisen|begleichen) sie|zu (?:zahlen|überweisen)|pay|must be paid|is payable|remit|outstanding|r[èée]gl\p{L}*|payer|verser|solde|reste dû|montant dû|betalen|over te maken|overmaken|voldoen|openstaande?|pagar|abonar|pendiente|pagare|versare|saldare|dovuto)(?![\p{L}])/iu;

/** Labels that state the amount itself; without one, a receipt's payment lines tell it. */
const STATES_TOTAL = new Set<AmountLabel>([...TOTAL_KINDS, 'paid', 'payout', 'premium', 'balance']);

const SHARED_SYMBOL = /(?<![\p{L}$])(?:\$|¥|kr\.?|Kr\.?|Rs\.?)(?!\p{L})/u;

/** An invoice named with its number: "fattura n. 201", "factura A-2026/07", "invoice #4471", "Rechnung Nr. 12". */
const NAMES_AN_INVOICE =
  /(?:fattura|factura|facture|factuur|invoice|rechnung)\s+(?:n[.°º]?\s*|nr\.?\s*|no\.?\s*|#\s*)?[A-Z]{0,4}[-/]?\d/iu;

/** A line that pays money back to the reader. */
const REFUND =
  /(?<!\p{L})(?:refund|erstattung|rückerstattung|guthaben|\p{L}*gutschrift|remboursement|en votre faveur|terugbetaling|teruggave|terug te betalen aan u|teruggestort|tegoed|reembolso|devoluci[óo]n|a su favor|rimborso|a (?:suo|vostro) (?:credito|favore))(?!\p{L})/iu;

/**
 * The highest confidence of an amount that may or may not be the one a person notes: a contract's or policy's amount
 * not labelled as its fee or premium, a refund.
 */
const DOUBTFUL_AMOUNT = 0.75;

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
  // Where prices are printed with cents, an unlabelled whole number is not one of them: a code or a postcode whose
  // first digit OCR read as a currency sign ("£700"), a count.
  const centsPrinted = candidates.filter((c) => c.decimals).length >= 2;
  for (const candidate of candidates) {
    const base = scoreFor(candidate.label, options.eventType);
    if (base < 0 || candidate.value === 0 || !isPrintedAmount(candidate, lines[candidate.line] ?? '')) continue;
    if (candidate.label === 'none' && !candidate.decimals && centsPrinted) continue;
    // On a credit note, a total that names an invoice by its number is the corrected invoice's ("Totale fattura n. 201").
    if (options.eventType === 'credit_note' && NAMES_AN_INVOICE.test(lines[candidate.line] ?? '')) continue;
    // A rounding adjustment ("Rounding -0.02") is not the rounded total; neither is one whose line calls it an
    // adjustment, when OCR lost its decimal point ("Rounding Adj RM 03").
    if (
      candidate.label === 'rounded' &&
      (Math.abs(candidate.value) < 1 || isAdjustmentLine(lines[candidate.line] ?? ''))
    )
      continue;
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
  const fromChange =
    best && STATES_TOTAL.has(best.candidate.label)
      ? null
      : (paidFromChange(candidates) ?? paidByCard(candidates, lines));
  if (fromChange) best = { candidate: fromChange, score: 0 };
  if (!best) return null;
  const settled = fromChange ? null : paidByTender(candidates);
  // An amount that applies only if something happens (a suggested tip's total, a cash discount) completes no sum.
  const unconditional = candidates.filter((c) => !CONDITIONAL_PAYMENT.test(lines[c.line] ?? ''));
  const printed =
    settled ??
    grossOf(best.candidate, unconditional, lines) ??
    rowGross(best.candidate, unconditional) ??
    equalsResult(best.candidate, unconditional, lines) ??
    best.candidate;
  const rounded = settled ? null : roundedByAdjustment(printed, candidates);
  const total = rounded ?? printed;
  const remainder = settled || rounded ? null : remainderOf(total, unconditional, lines);
  const candidate = remainder ?? total;
  let confidence =
    CONFIDENCE[candidate.label === 'none' && candidate !== best.candidate ? best.candidate.label : candidate.label];
  // Arithmetic that adds up (net + tax, total + rounding, cash − change) confirms the pick; a larger total after
  // it that nothing explains makes it doubtful. Cash less change alone, with no total to agree, is a weaker reading.
  if (fromChange) confidence = 0.6;
  else if (settled || remainder || confirmedBySum(candidate, candidates))
    confidence = Math.max(confidence + 0.05, CONFIRMED_BY_ARITHMETIC);
  else if (candidate.label !== 'due' && laterLargerTotal(candidate, candidates)) confidence -= 0.2;
  // A contract's or policy's amount is its recurring fee or premium; any other total on it (a yearly cost, a sum due at
  // signing, a residual value) may be what a person notes, or may not.
  if ((options.eventType === 'contract' || options.eventType === 'policy') && candidate.label !== 'premium')
    confidence = Math.min(confidence, DOUBTFUL_AMOUNT);
  // A refund or a credit to the reader is an amount of the document, but whether it is "the" amount is a judgement.
  if (options.eventType !== 'credit_note' && REFUND.test(lines[candidate.line] ?? ''))
    confidence = Math.min(confidence, DOUBTFUL_AMOUNT);
  let currency = candidate.currency;
  // "$", "¥", "kr", "Rs" alone, in a document that names no country, is the likeliest of several currencies only.
  if (currency && SHARED_SYMBOL.test(candidate.text) && documentCountries(options.text).length === 0)
    confidence -= 0.15;
  if (!currency) {
    currency = dominantCurrency(options.text, Math.round(candidate.value * 100) % 100 !== 0);
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

/** A card payment line: the card's amount is what was paid (no change is given on a card). */
const CARD =
  /(?<!\p{L})(?:visa|master ?card|mastercard|amex|maestro|debit|credit|card|karte|girocard|carte|tarjeta|carta|pin)(?!\p{L})/iu;

/** With no total printed at all, an amount paid by card is the total (the slip lost its total's line). */
function paidByCard(candidates: readonly AmountCandidate[], lines: readonly string[]): AmountCandidate | null {
  if (candidates.some((c) => TOTAL_KINDS.has(c.label) && c.value > 0)) return null;
  const card = candidates.find((c) => c.label === 'tendered' && c.value > 0 && CARD.test(lines[c.line] ?? ''));
  if (!card || candidates.some((c) => c.label === 'change' && c.value > 0)) return null;
  return { ...card, label: 'paid' };
}

/** "Rounding adj.", "Rundungsdifferenz", "ajustement": the adjustment itself, not a total after it. */
const ADJUSTMENT =
  /(?<!\p{L})(?:adj(?:ustment)?|\p{L}*differenz|ajustement|aanpassing|ajuste|aggiustamento)(?!\p{L})/iu;
const isAdjustmentLine = (line: string): boolean => ADJUSTMENT.test(line) && !NAMED_TOTAL.test(line);

/** The UK's company forms, its VAT number's label and the shape of its postcodes ("KT9 2ZQ", "SW1A 1AA"). */
const UK_WORDS = /\b(?:ltd|plc|vat reg|vat no|united kingdom|uk)\b/iu;
const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b/u;

/** Only a guess: the currency most documents in that language use. */
function defaultCurrency(language: string | null, text: string): string {
  if (language === 'en') return UK_WORDS.test(text) || UK_POSTCODE.test(text) ? 'GBP' : 'USD';
  return 'EUR';
}
