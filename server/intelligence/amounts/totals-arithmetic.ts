/**
 * The arithmetic of a totals block: net + tax = gross, total − deposit = rest to pay, tendered − change = paid. A pick
 * that such a sum explains is moved to the amount actually owed, or confirmed.
 */

import { tenderLessChange } from '../cash-rounding.ts';
import { DISCOUNT_ROW } from './document-passes.ts';
import { TOTAL_KINDS, cents, type AmountCandidate } from './types.ts';

/** A line that calls its amount a total, whatever else it says ("Net Total (MYR)", where net means after tax). */
export const NAMED_TOTAL = /(?<!\p{L})(?:total|totaal|totale|gesamt|summe)(?!\p{L})/iu;

/**
 * The gross amount when the pick is a net one: a candidate printed after it that equals the pick plus a tax or
 * surcharge listed in the document ("Total 18.50" … "VAT 3.70" … "22.20"), even under a label that reads as a net
 * total ("Item total 40.00" … "GST 2.40" … "Net total 42.40"): the sum says which is the gross.
 */
export function grossOf(
  pick: AmountCandidate,
  candidates: readonly AmountCandidate[],
  lines: readonly string[],
): AmountCandidate | null {
  if (pick.label === 'due' || pick.label === 'rounded') return null;
  // A discount, a coupon, is taken off: a larger amount later equal to the pick plus it is not the gross.
  const excluded = candidates.filter(
    (c) => c.label === 'excluded' && c.value > 0 && c !== pick && !DISCOUNT_ROW.test(lines[c.line] ?? ''),
  );
  const after = candidates.filter(
    (c) =>
      (c.line > pick.line || (c.line === pick.line && c.start > pick.start)) &&
      (c.label === 'none' ||
        TOTAL_KINDS.has(c.label) ||
        (c.label === 'excluded' && NAMED_TOTAL.test(lines[c.line] ?? ''))) &&
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

/**
 * A totals row read across its columns ("Totale  275,00  61,19  336,19": net, tax, gross): when the two amounts after
 * the pick on its line add up with it, the last is the total.
 */
export function rowGross(pick: AmountCandidate, candidates: readonly AmountCandidate[]): AmountCandidate | null {
  const row = candidates.filter((c) => c.line === pick.line && c.start > pick.start);
  if (row.length !== 2) return null;
  const [tax, gross] = row as [AmountCandidate, AmountCandidate];
  return cents(pick.value) + cents(tax.value) === cents(gross.value) ? gross : null;
}

/**
 * The result of a sum written on the pick's line ("Cuota mensual 39,90 € + IVA 21 % = 48,28 € / mes"): the amount
 * right after an equals sign is what the line comes to.
 */
export function equalsResult(
  pick: AmountCandidate,
  candidates: readonly AmountCandidate[],
  lines: readonly string[],
): AmountCandidate | null {
  const line = lines[pick.line] ?? '';
  return (
    candidates.find(
      (c) => c.line === pick.line && c.start > pick.end && /=\s*$/u.test(line.slice(pick.end, c.start).trimEnd()),
    ) ?? null
  );
}

/** The pick equals the sum or difference of two other printed amounts (net + tax, total + rounding, tendered − change). */
export function confirmedBySum(pick: AmountCandidate, candidates: readonly AmountCandidate[]): boolean {
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
export function remainderOf(
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
      rest.value <= 0 ||
      // A tax, a cash discount or what a late payer would owe is not what is left to pay.
      rest.label === 'excluded'
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
export function paidByTender(candidates: readonly AmountCandidate[]): AmountCandidate | null {
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

/** A larger total printed after the pick, which no arithmetic explains, makes the pick doubtful. */
export function laterLargerTotal(pick: AmountCandidate, candidates: readonly AmountCandidate[]): boolean {
  return candidates.some((c) => c.line > pick.line && TOTAL_KINDS.has(c.label) && cents(c.value) > cents(pick.value));
}
