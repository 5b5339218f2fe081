/**
 * Invoices as vendors print them, not as a template would: India's digit groups, a net total that looks like a
 * payment term, a direct-debit sentence broken over two lines. Every name and number is invented.
 */
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../server/intelligence/amounts.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';
import { CATEGORIES, TODAY } from './sample-types.ts';

const read = (text: string) =>
  understand({ text, filename: 'invoice.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });

describe("India's lakh and crore digit groups", () => {
  it('reads 1,16,820.00 as one amount', () => {
    const amounts = (text: string) => findAmounts(makeDoc(text), new Map()).map((c) => c.value);
    expect(amounts('Invoice Total (₹) 1,16,820.00')).toEqual([116820]);
    expect(amounts('Grand Total Rs. 12,34,567.50')).toEqual([1234567.5]);
    // Groups of three are read as before.
    expect(amounts('Total 1,234,567.50')).toEqual([1234567.5]);
    expect(amounts('Summe 1.234,56 EUR')).toEqual([1234.56]);
  });
});

describe('a net total is no payment term', () => {
  it('does not read "netto 35,67" as net 35 days, and still reads "netto 30 Tage"', () => {
    const bill = (line: string) =>
      `Fernmelde Beispiel GmbH\nRechnung Nr. 4471\nRechnungsdatum 10.11.2026\n${line}\nGesamtbetrag 42,45 EUR`;
    expect(read(bill('Summe netto 35,67')).due_date).toBeUndefined();
    expect(read(bill('Zahlbar netto 30 Tage')).due_date?.value).toBe('2026-12-10');
  });

  it('keeps a payment clause whole across an amount with a comma', () => {
    const letter =
      'Kestrel Office Supplies Ltd\nInvoice No. KO-4410\nDate: 16 November 2026\nTotal overdue £1,146.18\n' +
      'We would be grateful if you could arrange payment of £1,146.18 within 7 days of the date of this letter.';
    expect(read(letter).due_date?.value).toBe('2026-11-23');
  });
});

describe('a direct debit announced over two lines', () => {
  it('takes the debit date as the due date', () => {
    const bill =
      'Fernmelde Beispiel GmbH\nRechnung Nr. 4471\nRechnungsdatum 27.10.2026\nGesamtbetrag 42,45 EUR\n' +
      'Der Rechnungsbetrag von 42,45 € wird frühestens am 10.11.2026 von Ihrem Konto\n' +
      'DE12 3456 7890 12XX XXXX 00 per SEPA-Lastschrift abgebucht.';
    expect(read(bill).due_date?.value).toBe('2026-11-10');
  });
});
