import type { Amount } from '../../../common/archive-types.ts';

/** `120.50 EUR`, `5000 JPY`: the currency's usual decimals, no locale (the calendar export, which a calendar shows whatever its language). */
export function formatAmount(amount: Amount): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: amount.currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // Not a currency Intl knows: two decimals, the common case.
  }
  return `${amount.value.toFixed(digits)} ${amount.currency}`;
}
