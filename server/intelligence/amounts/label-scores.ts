/** How strongly each label claims to be the document's amount, and how sure a pick by that label is. */

import type { EventType } from '../../../common/archive-types.ts';
import type { AmountLabel } from './types.ts';

/** Negative: never the amount itself (a tax, the cash handed over, the change). */
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
export const CONFIDENCE: Record<AmountLabel, number> = {
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

/** An amount that arithmetic confirms (net + tax, total + rounding, cash − change) is at least this sure. */
export const CONFIRMED_BY_ARITHMETIC = 0.95;

/** What a label means depends on the document: a payslip's "due" is not what it pays out. */
export function scoreFor(label: AmountLabel, eventType: EventType | null): number {
  if (label === 'payout' && eventType === 'payslip') return 13;
  if (label === 'paid' && eventType === 'receipt') return 12;
  if (label === 'premium' && (eventType === 'policy' || eventType === 'contract')) return 11;
  if (label === 'balance' && eventType === 'statement') return 13;
  if (label === 'deduction' && eventType === 'payslip') return -1;
  if (label === 'due' && eventType === 'payslip') return 4;
  // A payslip's totals are its gross pay and its deductions; what is paid out is labelled as such.
  if ((label === 'total' || label === 'sum') && eventType === 'payslip') return 3;
  return BASE_SCORE[label];
}
