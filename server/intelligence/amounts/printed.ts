/** Tells a printed amount from a number that only looks like one: a year, a postcode, an IBAN fragment, a quantity. */

import { isPostcodeLine } from '../parties.ts';
import type { AmountCandidate } from './types.ts';

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
