/**
 * What a till receipt says was paid when no line prints it: the total plus the cash-rounding adjustment below it
 * ("Total 12.43 / Rounding +0.02" → 12.45), or the cash handed over less the change ("Cash 20.00 / Change 3.15" →
 * 16.85) when the total line itself is unreadable.
 */

import type { AmountCandidate, AmountLabel } from './amounts/types.ts';

/** Cash rounding moves a total by less than the smallest coin in use (0.05 or 0.10 in most countries). */
export const MAX_ADJUSTMENT_CENTS = 9;
/** The adjustment is printed right below the total it rounds. */
const ADJUSTMENT_LINES = 3;
const ROUNDABLE = new Set<AmountLabel>(['total', 'sum', 'due']);

const cents = (value: number): number => Math.round(Math.abs(value) * 100);

/** The total with the rounding adjustment printed below it applied, or null when there is none. */
export function roundedByAdjustment(
  total: AmountCandidate,
  candidates: readonly AmountCandidate[],
): AmountCandidate | null {
  if (!ROUNDABLE.has(total.label)) return null;
  const adjustment = candidates.find(
    (c) =>
      c.label === 'rounded' &&
      c.line > total.line &&
      c.line - total.line <= ADJUSTMENT_LINES &&
      cents(c.value) > 0 &&
      cents(c.value) <= MAX_ADJUSTMENT_CENTS,
  );
  if (!adjustment) return null;
  const value = (Math.round(Math.abs(total.value) * 100) + Math.round(adjustment.value * 100)) / 100;
  if (value <= 0) return null;
  // A rounded total printed after the adjustment is read as such; this covers a rounded total the scan lost.
  return { ...total, value, label: 'rounded' };
}

/** The payment lines: what was tendered, the change given right below it (if any) and the difference in cents. */
export function tenderLessChange(
  candidates: readonly AmountCandidate[],
): { tendered: AmountCandidate; change: AmountCandidate | undefined; paid: number } | null {
  const tendered = candidates.find((c) => c.label === 'tendered' && c.value > 0);
  if (!tendered) return null;
  const change = candidates.find((c) => c.label === 'change' && c.line >= tendered.line && c.line - tendered.line <= 3);
  const paid = cents(tendered.value) - (change ? cents(change.value) : 0);
  return paid > 0 ? { tendered, change, paid } : null;
}

/**
 * Cash tendered less the change given, when no total-like amount is known: the arithmetic of the payment lines is
 * then the best reading of what was paid.
 */
export function paidFromChange(candidates: readonly AmountCandidate[]): AmountCandidate | null {
  const payment = tenderLessChange(candidates);
  if (!payment?.change || payment.change === payment.tendered) return null;
  return { ...payment.tendered, value: payment.paid / 100, label: 'paid' };
}
