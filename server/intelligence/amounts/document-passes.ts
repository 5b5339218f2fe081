/**
 * Passes over all of a document's amounts once each has its own label: what a label alone cannot tell, the amounts
 * around it can (a tax table below the total, a remainder after a deposit, a decimal comma OCR dropped).
 */

import { TOTAL_KINDS, cents, type AmountCandidate } from './types.ts';
import { CONDITIONAL_PAYMENT } from './labels.ts';

/** The heading of a receipt's tax table ("GST Summary", "VAT analysis", "Tax code  Net  Tax"). */
const TAX_SUMMARY =
  /(?<!\p{L})(?:(?:gst|vat|sst|tax|mwst|ust|tva|btw|iva)[ -]?(?:summary|analysis|breakdown|info)|tax code|r[ée]capitulatif tva|mwst[- ]?(?:übersicht|aufstellung)|btw[- ]?overzicht|riepilogo iva|resumen iva)(?!\p{L})/iu;
/** A tax table has a row per rate and a total row. */
const TAX_SUMMARY_ROWS = 5;

/**
 * Below the total, a receipt repeats net and tax per rate in a table whose last row is labelled "Total": those rows
 * are the tax's breakdown, not the amount paid. Only when a total was printed before the table, so a document whose
 * only total is such a table keeps it.
 */
export function markTaxSummary(candidates: AmountCandidate[], lines: readonly string[]): void {
  const heading = lines.findIndex((line) => TAX_SUMMARY.test(line));
  if (heading < 0 || !candidates.some((c) => c.line < heading && TOTAL_KINDS.has(c.label))) return;
  for (const candidate of candidates) {
    if (candidate.line >= heading && candidate.line <= heading + TAX_SUMMARY_ROWS) candidate.label = 'excluded';
  }
}

/** A tax rate printed in a row: "S @6%", "SR 6%", "19 %". */
const RATE_IN_ROW = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?) ?%/u;
/** "Discount 10% 50.00 5.00" has the same arithmetic as a tax row: the price and what came off it. */
export const DISCOUNT_ROW =
  /(?<!\p{L})(?:disc(?:ount)?|coupon|voucher|rabatt|nachlass|gutschein|remise|r[ée]duction|descuento|cup[óo]n|sconto|buono|korting|waardebon|off)(?!\p{L})/iu;

/** VAT, GST and sales-tax rates in use, for a tax row whose printed rate OCR lost ("SR#%) 40.00 2.40"). */
const STANDARD_RATES = [
  2.5, 2.6, 3.7, 5, 5.5, 6, 7, 7.7, 8, 8.1, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
];

/** The tax is the rate of the net, to the cent. */
const taxOf = (net: AmountCandidate, tax: AmountCandidate, percent: number): boolean =>
  cents(net.value) > 0 && Math.abs(Math.round((cents(net.value) * percent) / 100) - cents(tax.value)) <= 1;

/** An item line: a quantity times a price ("1x 4.20 4.20", "2 @ 3.10"). */
const QUANTITY_TIMES = /(?<![\p{L}\d.,])\d{1,3}\s?[x×@*]\s?\d/iu;

/** A tax line that says the tax is in the total ("INC 6% GST", "inkl. 19 % MwSt", "TVA incluse"). */
const TAX_INCLUDED =
  /(?<!\p{L})(?:inc|incl|included|inclusive|inkl|enthalten|compris|incluse?|incluido|inclusa|inclusief)(?!\p{L})/iu;

/** At most this many amounts in one row of a tax table. */
const TAX_ROW_AMOUNTS = 5;

/** The amount right after this one on its line is about a standard rate of it: the two are a net and its tax. */
function netOfTaxRow(amount: AmountCandidate, row: readonly AmountCandidate[]): boolean {
  const next = row[row.indexOf(amount) + 1];
  if (!next || cents(amount.value) === 0) return false;
  const percent = (cents(next.value) * 100) / cents(amount.value);
  return STANDARD_RATES.some((rate) => Math.abs(percent - rate) <= 0.05 * rate);
}

/**
 * A tax row ("SR @6%  50.00  3.00": rate, net, tax) whose tax is the rate of its net, to the cent: both amounts are the
 * tax's breakdown, never the amount paid. The gross they add up to, printed elsewhere unlabelled or as a subtotal, is
 * then a total that includes the tax. Also read: a row whose rate OCR lost, when its tax is a standard rate of its net
 * and the gross is printed; and a tax on a line of its own ("6% GST 1.50") whose net is printed elsewhere ("Taxable
 * amount 25.00"), with the gross ("Subtotal 26.50").
 */
export function markTaxRows(candidates: AmountCandidate[], lines: readonly string[]): void {
  const byLine = new Map<number, AmountCandidate[]>();
  const byCents = new Map<number, AmountCandidate[]>();
  for (const candidate of candidates) {
    byLine
      .set(candidate.line, byLine.get(candidate.line) ?? [])
      .get(candidate.line)!
      .push(candidate);
    const key = cents(candidate.value);
    byCents
      .set(key, byCents.get(key) ?? [])
      .get(key)!
      .push(candidate);
  }
  const twinsOf = (net: AmountCandidate, tax: AmountCandidate): AmountCandidate[] =>
    (byCents.get(cents(net.value) + cents(tax.value)) ?? []).filter(
      (twin) =>
        twin !== net &&
        twin !== tax &&
        (twin.label === 'none' || twin.label === 'excluded') &&
        // Not the net of another row of the tax table, one whose tax OCR misread by a cent or two, nor an item's price.
        !netOfTaxRow(twin, byLine.get(twin.line) ?? []) &&
        !QUANTITY_TIMES.test(lines[twin.line] ?? '') &&
        !CONDITIONAL_PAYMENT.test(lines[twin.line] ?? ''),
    );
  const settle = (net: AmountCandidate, tax: AmountCandidate, twins: readonly AmountCandidate[]): void => {
    net.label = 'excluded';
    tax.label = 'excluded';
    for (const twin of twins) twin.label = 'total';
  };
  for (const [line, row] of byLine) {
    const text = lines[line] ?? '';
    // A tax table's row holds a rate, a net, a tax and perhaps a gross; a line of many amounts is something else.
    if (
      row.length > TAX_ROW_AMOUNTS ||
      DISCOUNT_ROW.test(text) ||
      CONDITIONAL_PAYMENT.test(text) ||
      row.some((c) => c.value < 0)
    )
      continue;
    const rate = RATE_IN_ROW.exec(text);
    const percent = rate ? Number(rate[1]!.replace(',', '.')) : 0;
    if (rate && percent > 0 && row.length === 1) {
      const tax = row[0]!;
      const net = candidates.find((c) => c.line !== line && taxOf(c, tax, percent) && twinsOf(c, tax).length > 0);
      if (net) settle(net, tax, twinsOf(net, tax));
      else if (TAX_INCLUDED.test(text)) {
        // "INC 6% GST 1.80" under "SUBTOTAL 31.80": the tax is the rate's share of a gross printed alone on its line.
        const gross = candidates.find(
          (c) =>
            c.line !== line &&
            (c.label === 'none' || c.label === 'excluded') &&
            byLine.get(c.line)?.length === 1 &&
            Math.abs(Math.round((cents(c.value) * percent) / (100 + percent)) - cents(tax.value)) <= 1,
        );
        if (gross) {
          tax.label = 'excluded';
          gross.label = 'total';
        }
      }
      continue;
    }
    const after = rate ? row.filter((c) => c.start > rate.index) : row;
    for (let i = 0; i + 1 < after.length; i++) {
      const net = after[i]!,
        tax = after[i + 1]!;
      // The printed rate decides; one that does not fit may be misread ("8%" for 6%), so a standard rate with the
      // gross printed elsewhere still makes the row.
      const printedRate = rate !== null && percent > 0 && taxOf(net, tax, percent);
      if (!printedRate && !STANDARD_RATES.some((standard) => taxOf(net, tax, standard))) continue;
      const twins = twinsOf(net, tax);
      if (!printedRate && twins.length === 0) continue;
      settle(net, tax, twins);
      break;
    }
  }
}

/**
 * OCR drops a decimal comma ("38846 €" for 388,46 €): a whole number of four or more plain digits whose digits are
 * those of an amount with cents at most three lines away is that amount read again, not a hundred times it.
 */
export function restoreLostDecimals(candidates: AmountCandidate[]): void {
  for (const candidate of candidates) {
    if (candidate.decimals || !/^\d{4,}$/.test(candidate.text.replace(/[^\d.,'’ ]/g, '').trim())) continue;
    const cents = Math.round(Math.abs(candidate.value));
    const twin = candidates.find(
      (other) =>
        other.decimals &&
        Math.abs(other.line - candidate.line) <= 3 &&
        Math.round(Math.abs(other.value) * 100) === cents,
    );
    if (!twin) continue;
    candidate.value = Math.sign(candidate.value) * Math.abs(twin.value);
    candidate.decimals = true;
  }
}

/**
 * "Treatment total 341,00 / Deposit paid -50,00 / 291,00": an unlabelled amount right after a total that equals the
 * total less a payment or discount listed in between is what is left to pay (its label is often lost in a scan).
 */
export function markRemainders(candidates: AmountCandidate[]): void {
  let total: AmountCandidate | null = null;
  let since: AmountCandidate[] = [];
  for (const candidate of candidates) {
    if (candidate.label === 'total' || candidate.label === 'sum' || candidate.label === 'rounded') {
      total = candidate;
      since = [];
    } else if (candidate.label === 'excluded' && total && since.length < 5) {
      since.push(candidate);
    } else if (candidate.label === 'none' && total && candidate.line > total.line && candidate.line - total.line <= 6) {
      const rest = Math.round(Math.abs(candidate.value) * 100);
      const base = Math.round(Math.abs(total.value) * 100);
      if (rest > 0 && since.some((x) => x.line > total!.line && base - Math.round(Math.abs(x.value) * 100) === rest)) {
        candidate.label = 'due';
      }
    }
  }
}

/** The change is printed right under what was handed over. */
const CHANGE_LINES = 2;

/**
 * "Total paid 50.00 / Change 34.60": an amount labelled as paid with change given right under it, and larger than
 * that change, is what the customer handed over, not the total. The change's label may be lost in the scan
 * ("Pay 20.00 / 0.80"): an unlabelled smaller amount alone on the next line is the change when the payment less it
 * is an amount printed above.
 */
export function markTenderedWithChange(candidates: AmountCandidate[]): void {
  for (const paid of candidates) {
    if (paid.label !== 'paid' && paid.label !== 'tendered') continue;
    const smaller = (c: AmountCandidate): boolean => c.value > 0 && cents(c.value) < cents(paid.value);
    let change = candidates.find(
      (c) => c.label === 'change' && c.line > paid.line && c.line - paid.line <= CHANGE_LINES && smaller(c),
    );
    if (!change) {
      const next = candidates.filter((c) => c.line === paid.line + 1);
      const only = next.length === 1 ? next[0]! : undefined;
      const rest = only && only.label === 'none' && smaller(only) ? cents(paid.value) - cents(only.value) : -1;
      if (only && candidates.some((c) => c.line < paid.line && cents(c.value) === rest)) {
        only.label = 'change';
        change = only;
      }
    }
    if (change) paid.label = 'tendered';
  }
}

/**
 * Three consecutive lines holding one unlabelled positive amount each (and passing `accept`), top to bottom. Read as
 * the caller relabels: an amount relabelled by one triple is no longer lone for the next.
 */
function* loneAmountTriples(
  candidates: readonly AmountCandidate[],
  accept: (amount: AmountCandidate) => boolean = () => true,
): Generator<readonly [AmountCandidate, AmountCandidate, AmountCandidate], void, void> {
  const byLine = new Map<number, AmountCandidate[]>();
  for (const c of candidates) byLine.set(c.line, [...(byLine.get(c.line) ?? []), c]);
  const lone = (line: number): AmountCandidate | undefined => {
    const on = byLine.get(line);
    const only = on?.length === 1 ? on[0]! : undefined;
    return only && only.label === 'none' && only.value > 0 && accept(only) ? only : undefined;
  };
  for (const [line] of byLine) {
    const first = lone(line);
    const second = lone(line + 1);
    const third = lone(line + 2);
    if (first && second && third) yield [first, second, third];
  }
}

/**
 * "300,90 / 66,20 / € 367,10" under an item table, their labels lost or never printed: three lines of one bare
 * amount each, the first two adding up to the third and the second the smaller, are net, tax and gross.
 */
export function markUnlabelledTotals(candidates: AmountCandidate[], lines: readonly string[]): void {
  // Bare amounts: no words on their lines but a currency's code (item lines "Evening calls  5.00" add up too).
  const bare = (amount: AmountCandidate): boolean =>
    amount.decimals && !/\p{L}{2,}/u.test((lines[amount.line] ?? '').replace(/\b[A-Z]{3}\b/gu, ''));
  for (const [net, tax, gross] of loneAmountTriples(candidates, bare)) {
    if (cents(net.value) + cents(tax.value) !== cents(gross.value)) continue;
    if (cents(tax.value) >= cents(net.value)) continue;
    net.label = 'excluded';
    tax.label = 'excluded';
    gross.label = 'total';
  }
}

/**
 * "60.30 / 70.30 / 10.00" at a slip's foot, their labels lost in the scan: three lines of one unlabelled amount each,
 * the second less the third equal to the first, are the total, the cash handed over and the change.
 */
export function markUnlabelledSettlement(candidates: AmountCandidate[]): void {
  for (const [total, cash, change] of loneAmountTriples(candidates)) {
    if (cents(cash.value) - cents(change.value) !== cents(total.value)) continue;
    // Two of an item at its unit price ("18.90 / 37.80 / @18.90") look the same; and a labelled total below is the foot.
    if (cents(change.value) === cents(total.value)) continue;
    if (candidates.some((c) => c.line > change.line && TOTAL_KINDS.has(c.label))) continue;
    total.label = 'total';
    cash.label = 'tendered';
    change.label = 'change';
  }
}

/**
 * "Total 88.1 / Visa 88.17": a total with one decimal digit that the card payment right under it, with no change
 * given, extends by one digit lost its last digit in the scan; the payment has it.
 */
export function restoreLostLastDigit(candidates: AmountCandidate[]): void {
  for (const total of candidates) {
    if (!TOTAL_KINDS.has(total.label) || !/[.,]\d(?!\d)\s*\D*$/u.test(total.text)) continue;
    const tender = candidates.find(
      (c) => c.label === 'tendered' && c.line > total.line && c.line - total.line <= CHANGE_LINES,
    );
    if (!tender || candidates.some((c) => c.label === 'change' && c.line >= tender.line)) continue;
    const tenderCents = Math.round(Math.abs(tender.value) * 100);
    if (tenderCents % 10 !== 0 && Math.floor(tenderCents / 10) === Math.round(Math.abs(total.value) * 10))
      total.value = Math.sign(total.value) * Math.abs(tender.value);
  }
}
