import { describe, expect, it } from 'vitest';
import { findDates } from '../../server/intelligence/dates.ts';
import { dominantCurrency, findMoney } from '../../server/intelligence/money.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

/** [value, currency] of every money token in a text, dates blocked as the pipeline does. */
function money(text: string): Array<[number, string | null]> {
  const doc = makeDoc(text);
  const blocked = new Map<number, Array<readonly [number, number]>>();
  for (const d of findDates(doc, { monthFirst: true, today: '2027-01-20' }))
    blocked.set(d.line, [...(blocked.get(d.line) ?? []), [d.start, d.end]]);
  return [...findMoney(doc, blocked).values()].flat().map((t) => [t.value, t.currency]);
}

describe('number formats', () => {
  it('reads the four ways of grouping thousands', () => {
    expect(money('Summe 1.234,56 €')).toEqual([[1234.56, 'EUR']]);
    expect(money('Total $1,234.56')).toEqual([[1234.56, 'USD']]);
    expect(money('Total TTC 1 234,56 €')).toEqual([[1234.56, 'EUR']]);
    expect(money("Totale CHF 1'234.56")).toEqual([[1234.56, 'CHF']]);
  });
});

describe('currency symbols and codes', () => {
  it('knows the symbols of the currencies a receipt or invoice may carry', () => {
    expect(money('TOTAL RM 12.40')).toEqual([[12.4, 'MYR']]);
    expect(money('TOTAL RM12.40')).toEqual([[12.4, 'MYR']]);
    expect(money('Grand total ₹ 1,250.00')).toEqual([[1250, 'INR']]);
    expect(money('Net payable Rs. 450.00')).toEqual([[450, 'INR']]);
    expect(money('Razem 99,90 zł')).toEqual([[99.9, 'PLN']]);
    expect(money('Celkem 250,00 Kč')).toEqual([[250, 'CZK']]);
    expect(money('Total 4 990 Ft')).toEqual([[4990, 'HUF']]);
  });

  it('reads any ISO 4217 code beside a number, but not a code that is a word', () => {
    expect(money('Amount MYR 15.90')).toEqual([[15.9, 'MYR']]);
    expect(money('Total 320.00 ZAR')).toEqual([[320, 'ZAR']]);
    expect(money('Total THB 1,200.00')).toEqual([[1200, 'THB']]);
    expect(money('BLUE PEN 2.50')).toEqual([[2.5, null]]);
    expect(money('Offer no. ANG-025830 of 12.50 EUR')).toEqual([[12.5, 'EUR']]);
  });

  it('resolves a shared symbol by the country the document names', () => {
    expect(money('Summa 1 234,50 kr')).toEqual([[1234.5, 'SEK']]);
    expect(money('Oslo, Norge\nTotalt 1 234,50 kr')[0]).toEqual([1234.5, 'NOK']);
    expect(money('København, Danmark\nI alt kr. 125,00')[0]).toEqual([125, 'DKK']);
    expect(money('Total $ 49.00')).toEqual([[49, 'USD']]);
    expect(money('Toronto, Ontario, Canada\nTotal $ 49.00')[0]).toEqual([49, 'CAD']);
    expect(money('Sydney NSW, Australia\nTotal $49.00')[0]).toEqual([49, 'AUD']);
    expect(money('Karachi, Pakistan\nTotal Rs. 450')[0]).toEqual([450, 'PKR']);
    expect(dominantCurrency('Lund, Sverige\n3 x 10,00 kr\nSumma 30,00 kr')).toBe('SEK');
    expect(dominantCurrency('Kr. Musterkreis, Tel. 123')).toBeNull();
  });
});

describe('the currency of a document', () => {
  it('counts a code or letter symbol in a column header, and takes no company form for a currency', () => {
    expect(dominantCurrency('Item Qty Amount (RM)\nTea 2 5.00')).toBe('MYR');
    expect(dominantCurrency('Kedai Contoh Sdn Bhd\nTotal 5.00')).toBe('MYR');
    expect(money('Kedai Contoh Sdn BHD 5.00')).toEqual([[5, null]]);
  });

  it("falls back on the currency of the country a company form or a GST number's shape names", () => {
    expect(dominantCurrency('Example Traders Pte Ltd\nTotal 5.00')).toBe('SGD');
    // Only Malaysia's GST numbers have twelve digits; "GST" alone is several countries' tax.
    expect(dominantCurrency('GST Reg No: 001234567890\nTotal $5.00')).toBe('MYR');
    expect(dominantCurrency('GST Reg No: 123456789\nTotal $5.00')).toBe('USD');
  });

  it('counts no sign before letters or before a zero, and gives a tie to the currency of the named country', () => {
    // A code whose first letter OCR read as "€", a zero price: the shop's own currency stands.
    expect(dominantCurrency('Kedai Maju Sdn Bhd\nDoc No €S0042\nDisc €0.00\nTotal 5.00')).toBe('MYR');
    expect(dominantCurrency('Doc No €S0042\nDisc €0.00\nTotal 5.00')).toBeNull();
    expect(dominantCurrency('Sale €4.00\nDisc €1.50\nTotal 5.00')).toBe('EUR');
    // "CNY" in item names as often as the "RM" of its prices.
    expect(dominantCurrency('Kedai Maju Sdn Bhd\nCNY LANTERN x2\nCNY CANDLES\nRM 4.00\nRM 5.00')).toBe('MYR');
    expect(dominantCurrency('Total 5.00')).toBeNull();
    expect(dominantCurrency('Angebot ANG-025830\nSumme 12,50 €')).toBe('EUR');
  });
});

describe('a symbol between two numbers', () => {
  it('belongs to the number after it, so a year before a price is no amount', () => {
    expect(money('TOTAL DUE ON 2026 $7.20')).toEqual([[7.2, 'USD']]);
    expect(money('TOTAL DUE ON March 5, 2026 $7.20')).toEqual([[7.2, 'USD']]);
    expect(money('Total 18.50 € 22.20')).toEqual([
      [18.5, null],
      [22.2, 'EUR'],
    ]);
  });

  it('stays after its number when every number on the line carries one after it', () => {
    expect(money('2 x 12,50 € 25,00 €')).toEqual([
      [12.5, 'EUR'],
      [25, 'EUR'],
    ]);
  });
});
