/** The vocabulary of amount finding: what a label says an amount is, and the candidates and pick it produces. */

import type { MoneyToken } from '../money.ts';

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

/** Labels that name the document's total; the later and the larger of these usually is the amount. */
export const TOTAL_KINDS = new Set<AmountLabel>(['due', 'total', 'sum', 'rounded']);

/** Amounts are compared in whole cents so that float sums (18.5 + 3.7) match what was printed. */
export const cents = (value: number): number => Math.round(Math.abs(value) * 100);
