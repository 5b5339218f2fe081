/**
 * The merchant at the top of a till receipt: a name the roll's width broke over two lines is read whole, a note
 * written on the slip in lower case and a labelled field are not taken for it. Every name here is invented.
 */
import { describe, expect, it } from 'vitest';
import { linesOf } from '../../server/intelligence/layout/lines.ts';
import { looksLikeReceipt, receiptMerchant } from '../../server/intelligence/layout/receipt.ts';
import type { PageLayout, TextBox } from '../../server/intelligence/layout-types.ts';

const roll = (boxes: TextBox[]): PageLayout => ({ page: 1, aspect: 3, boxes });
const row = (text: string, y: number, size = 0.012, x = 0.1): TextBox => ({
  text,
  x,
  y,
  width: text.length * 0.025,
  height: size,
});
/** The body of a slip under its header: items, the total, cash and change. */
const body = (from: number): TextBox[] => [
  row('Garden gloves', from),
  row('7.90', from, 0.012, 0.7),
  row('Plant food', from + 0.02),
  row('5.40', from + 0.02, 0.012, 0.7),
  row('TOTAL', from + 0.05),
  row('13.30', from + 0.05, 0.012, 0.7),
  row('CASH', from + 0.07),
  row('20.00', from + 0.07, 0.012, 0.7),
  row('CHANGE', from + 0.09),
  row('6.70', from + 0.09, 0.012, 0.7),
];
const merchantOf = (boxes: TextBox[]) => receiptMerchant(linesOf(roll(boxes)));

describe('receipt merchant over two lines', () => {
  it('joins a name whose first line ends with "&"', () => {
    const merchant = merchantOf([
      row('BRIGHTWELL TOOLS &', 0.02, 0.018),
      row('GARDEN SUPPLIES', 0.042, 0.02),
      row('18 Quarry Lane', 0.07),
      row('Tel 0000 555 123', 0.085),
      ...body(0.2),
    ]);
    expect(merchant).toEqual({ text: 'BRIGHTWELL TOOLS & GARDEN SUPPLIES', prominent: true });
  });

  it('joins a legal form printed alone under the name', () => {
    const merchant = merchantOf([
      row('KESTREL HOME WARES', 0.02, 0.016),
      row('SDN BHD', 0.04, 0.016),
      row('(778812-K)', 0.06),
      row('Lot 9 Market Street', 0.075),
      ...body(0.2),
    ]);
    expect(merchant?.text).toBe('KESTREL HOME WARES SDN BHD');
  });

  it('keeps a shop sign and the company under it in other type apart', () => {
    const merchant = merchantOf([
      row('Moonbeam Bakery', 0.02, 0.024),
      row('ORCHARD FOODS LTD', 0.05, 0.013),
      row('4 Mill Road', 0.065),
      ...body(0.2),
    ]);
    expect(merchant).toEqual({ text: 'Moonbeam Bakery', prominent: true });
  });

  it('passes over a note in lower case written above the header, and a labelled field', () => {
    const merchant = merchantOf([
      row('jo smith', 0.01),
      row('Cashier : Dana', 0.025),
      row('WILLOW CORNER STORE', 0.04),
      row('22 Station Road', 0.055),
      ...body(0.2),
    ]);
    expect(merchant?.text).toBe('WILLOW CORNER STORE');
  });
});

describe('receipt merchant under a logo or beside till fields', () => {
  it('reads the name printed under a logo that OCR made a short word of, in larger type', () => {
    const merchant = merchantOf([
      row('Wemba', 0.01, 0.03),
      row('LOTUS LEAF RESTAURANT', 0.05),
      row('5 Jalan Mawar 3', 0.065),
      ...body(0.2),
    ]);
    expect(merchant?.text).toBe('LOTUS LEAF RESTAURANT');
    // Broken words, one in lower case, are a logo too; a sign in title case over a company is not (above).
    const broken = merchantOf([row('Qmo h xa', 0.01, 0.03), row('LOTUS LEAF RESTAURANT', 0.05), ...body(0.2)]);
    expect(broken?.text).toBe('LOTUS LEAF RESTAURANT');
    // A short name in large type with no name under it is the merchant itself.
    expect(merchantOf([row('ZEST', 0.01, 0.03), row('5 Jalan Mawar 3', 0.05), ...body(0.2)])?.text).toBe('ZEST');
  });

  it('looks for the merchant above the address and phone lines only', () => {
    const merchant = merchantOf([
      row('WILLOW', 0.02),
      row('22 Station Road', 0.035),
      row('TEL : 0000 555 123', 0.05),
      row('TABEL', 0.07, 0.03),
      ...body(0.2),
    ]);
    expect(merchant?.text).toBe('WILLOW');
  });

  it('passes over a thank-you line in large type', () => {
    const merchant = merchantOf([
      row('TQ FOR SHOPPING WITH US', 0.01, 0.03),
      row('WILLOW CORNER STORE', 0.04),
      ...body(0.2),
    ]);
    expect(merchant?.text).toBe('WILLOW CORNER STORE');
  });

  it('takes a page 1.7 times as tall as wide for a till roll, a Legal sheet (1.65) not', () => {
    expect(looksLikeReceipt([{ page: 1, aspect: 1.75, boxes: [] }])).toBe(true);
    expect(looksLikeReceipt([{ page: 1, aspect: 1.65, boxes: [] }])).toBe(false);
  });

  it('takes a cash-and-carry for a shop, not for the cash paid', () => {
    const merchant = merchantOf([row('MAJU CASH & CARRY', 0.02), row('22 Station Road', 0.04), ...body(0.2)]);
    expect(merchant?.text).toBe('MAJU CASH & CARRY');
  });

  it('passes over the table, the counter and a guest check', () => {
    for (const field of ['Table 7', 'Counter 2', 'GUEST CHECK']) {
      const merchant = merchantOf([
        row('WILLOW CORNER STORE', 0.02),
        row(field, 0.04, 0.03),
        row('22 Station Road', 0.07),
        ...body(0.2),
      ]);
      expect(merchant?.text).toBe('WILLOW CORNER STORE');
    }
  });
});
