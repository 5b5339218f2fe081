/**
 * Finds the amount a document is about: the total to pay, not a line item, a subtotal or the tax. The work is in
 * amounts/ (finding and labelling, label lexicon, totals arithmetic, picking); this is its public entry.
 */

export { findAmounts } from './amounts/find.ts';
export { pickAmount, type PickAmountOptions } from './amounts/pick.ts';
export { isPrintedAmount } from './amounts/printed.ts';
export type { AmountCandidate, AmountLabel, AmountPick } from './amounts/types.ts';
