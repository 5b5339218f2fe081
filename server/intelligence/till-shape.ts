/**
 * A till receipt by its shape rather than its words (which a faded scan loses, and which a "Tax invoice" heading
 * contradicts): a total, what was handed over or given back under it (cash, card, change), and a column of short
 * priced lines above; or, where the item lines did not read as prices, the payment's own arithmetic: what was handed
 * over less the change given back is the total, or what was handed over right under the total is exactly it.
 */

import { cents, TOTAL_KINDS, type AmountCandidate } from './amounts/types.ts';
import { MAX_ADJUSTMENT_CENTS, tenderLessChange } from './cash-rounding.ts';

/** Items, subtotal and tax: a till slip prints a few priced lines before it is paid. */
const PRICED_LINES = 3;
/** A till roll is narrow: its priced lines are short, unlike an invoice's item descriptions. */
const SHORT_LINE = 60;
/** Lines between a total and the cash or card line that pays it exactly. */
const PAID_BELOW = 3;

export function hasTillShape(lines: readonly string[], candidates: readonly AmountCandidate[]): boolean {
  const total = candidates.find((c) => TOTAL_KINDS.has(c.label) && !c.prose);
  if (!total) return false;
  if (changeMakesTotal(candidates)) return true;
  const payment = candidates.find((c) => (c.label === 'tendered' || c.label === 'change') && c.line >= total.line);
  if (!payment) return false;
  // Handed over exactly, right under the total ("TOTAL 9.80 / CASH 9.80"): paid on the spot, items or not.
  if (
    payment.label === 'tendered' &&
    payment.line - total.line <= PAID_BELOW &&
    cents(payment.value) === cents(total.value)
  )
    return true;
  const priced = new Set(
    candidates
      .filter((c) => c.line < payment.line && !c.prose && (lines[c.line]?.length ?? Infinity) <= SHORT_LINE)
      .map((c) => c.line),
  );
  return priced.size >= PRICED_LINES;
}

/** Tendered less the change right under it equals a printed total, up to cash rounding: paid at the till. */
function changeMakesTotal(candidates: readonly AmountCandidate[]): boolean {
  const payment = tenderLessChange(candidates);
  if (!payment?.change) return false;
  return candidates.some(
    (c) =>
      TOTAL_KINDS.has(c.label) &&
      !c.prose &&
      Math.abs(Math.round(c.value * 100) - payment.paid) <= MAX_ADJUSTMENT_CENTS,
  );
}
