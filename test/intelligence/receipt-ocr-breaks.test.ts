/**
 * Till slips as OCR leaves them: a merchant's name broken by a gap in the print or one misread letter in its company
 * form, a tax row that is the total's breakdown, a date with spaces beside its separators. Invented slips.
 */
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../server/intelligence/amounts.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { readScan } from './sample-types.ts';

describe("the merchant's name on a scanned slip", () => {
  it('joins a company form printed under the name after a blank line', () => {
    const slip = 'KEDAI RUNCIT CAHAYA\n\nSDN BHD\n\nCo. No. (123456-A)\n12 Jalan Melur, 43000 Kajang\nTOTAL 5.00';
    expect(readScan(slip).sender_name?.value).toBe('KEDAI RUNCIT CAHAYA SDN BHD');
  });

  it('joins a line that holds only "Co. (Branch) Sdn Bhd" to the name above it', () => {
    const slip = 'PELANGI PAPER\nCO. (M) SDN BHD\n(Company No. 123456-A)\n12 Jalan Melur, 43000 Kajang\nTOTAL 5.00';
    expect(readScan(slip).sender_name?.value).toBe('PELANGI PAPER CO. (M) SDN BHD');
  });

  it('joins the name above through a mark OCR put before it, but never to a house number', () => {
    const slip = '© PELANGI PAPER\nCO. (M) SDN BHD\n(Company No. 123456-A)\n12 Jalan Melur, 43000 Kajang\nTOTAL 5.00';
    expect(readScan(slip).sender_name?.value).toBe('PELANGI PAPER CO. (M) SDN BHD');
    const shop = 'Harbour Greens\n\n1520 SE Alder Street\nPortland, OR 97214\nTOTAL 5.00';
    expect(readScan(shop).sender_name?.value).toBe('Harbour Greens');
  });

  it('joins a name that goes on with "&" to its first line', () => {
    const slip = 'THE TEA HOUSE\n& CAKE CORNER (M) SDN. BHD.\n(123456-A)\n12 Jalan Melur, 43000 Kajang\nTOTAL 5.00';
    expect(readScan(slip).sender_name?.value).toBe('THE TEA HOUSE & CAKE CORNER (M) SDN. BHD.');
  });

  it('reads one misread letter in "Sdn Bhd" as the company form', () => {
    const slip = (form: string) => `KEDAI MAJU JAYA ${form}\n(123456-A)\n12 Jalan Melur, 43000 Kajang\nTOTAL 5.00`;
    const misreads: ReadonlyArray<readonly [string, string]> = [
      ['SQN BHD', 'SDN BHD'],
      ['SDM BHD', 'SDN BHD'],
      ['SDN BKD', 'SDN BHD'],
      ['Sdm Bhd', 'Sdn Bhd'],
    ];
    for (const [misread, form] of misreads)
      expect(readScan(slip(misread)).sender_name?.value).toBe(`KEDAI MAJU JAYA ${form}`);
    expect(readScan('TIGA KEDAI HEMAT 5/8\nLot 3, 43000 Kajang\nTOTAL 5.00').sender_name?.value).toBe(
      'TIGA KEDAI HEMAT S/B',
    );
  });
});

describe('the total among misread words and signs', () => {
  it('reads "inclusive" with letters OCR misread as the total including tax, not as the tax', () => {
    const slip = (word: string) =>
      `KEDAI MAJU JAYA SDN BHD\n12 Jalan Melur, 43000 Kajang\n1 X 9.00 9.00\n1 X 5.50 5.50\nTotal Sales ${word} GST @6% 14.50`;
    for (const word of ['Inclusive', 'Inclsuive', 'lnclusve', 'Incbsive'])
      expect(readScan(slip(word)).amount?.value, word).toEqual({ value: 14.5, currency: 'MYR' });
    const bracketed = (word: string) =>
      `KEDAI MAJU JAYA SDN BHD\n12 Jalan Melur, 43000 Kajang\n1 X 9.00 9.00\n1 X 5.50 5.50\nTotal Sales (${word} of GST} 14.50`;
    for (const word of ['Inclusive', 'Inclusivo', '1nclusiue'])
      expect(readScan(bracketed(word)).amount?.value, word).toEqual({ value: 14.5, currency: 'MYR' });
    // "Income" is no misread "inclusive".
    expect(readScan(bracketed('Income')).amount?.value.value).not.toBe(14.5);
  });

  it('does not take a whole number with a currency sign among prices printed with cents', () => {
    const slip =
      'KEDAI MAJU JAYA SDN BHD\nLot 7, £3000 Kajang\n1 PAPER A4 £500 SHEETS\n1 12.90 12.90\n1 PEN BLUE 3.10\nCASH 20.00';
    expect(readScan(slip).amount?.value).not.toEqual({ value: 500, currency: 'GBP' });
    expect(readScan(slip).amount?.value).not.toEqual({ value: 3000, currency: 'GBP' });
    // With no prices in cents, a whole amount with its sign is one.
    expect(readScan('Invoice 7\nDesign work £500\nThank you').amount?.value).toEqual({ value: 500, currency: 'GBP' });
  });
});

describe("a slip's foot whose labels OCR lost", () => {
  it('reads three lone amounts, the second less the third equal to the first, as total, cash and change', () => {
    const slip =
      'KEDAI MAJU JAYA SDN BHD\n1 PAPER A4 12.90\n1 PEN BLUE 3.10\nDISC -1.00\nxx RH 15.00\nCA vv RH 20.00\nCH ii RH 5.00';
    expect(readScan(slip).amount?.value.value).toBe(15);
  });

  it('does not read two of an item at its unit price that way', () => {
    const slip =
      'KEDAI MAJU JAYA SDN BHD\n1 TEA 4.20\n2 NOODLES 17.00\n(@RM8.50)\n1 RICE 2.00\nTOTAL 23.20\nCASH 50.00\nCHANGE 26.80';
    expect(readScan(slip).amount?.value.value).toBe(23.2);
    const unlabelled = 'KEDAI MAJU JAYA SDN BHD\n1 TEA 4.20\n1 NOODLES 8.50\n2 NOODLES 17.00\n(@RM8.50)\n1 RICE 2.00';
    expect(readScan(unlabelled).amount?.value.value).not.toBe(8.5);
  });
});

describe('a tax row under the total', () => {
  it('is the breakdown of the gross the slip printed as its subtotal, not the amount paid', () => {
    const slip = [
      'KEDAI KOPI MESRA',
      'Nasi lemak 26.00',
      'Teh tarik 5.80',
      'Subtotal: 31.80',
      'Cash: 50.00',
      'Change: l8.2O',
      'Tax code Rate Net Tax',
      'S @6% 30.00 1.80',
    ].join('\n');
    expect(readScan(slip).amount?.value.value).toBe(31.8);
  });

  it('is found with its net on another line, and with a rate OCR lost', () => {
    const apart = [
      'KEDAI KOPI MESRA',
      'Laksa 50.00',
      'SUBTOTAL 53.00',
      'CASH 100.00',
      'TAXABLE AMOUNT 50.00',
      '6% GST 3.00',
    ];
    expect(readScan(apart.join('\n')).amount?.value.value).toBe(53);
    const lost = ['KEDAI KOPI MESRA', 'Laksa 100.00', 'SALE 106.00', 'SR&%) 100.00 6.00', 'TOTAL 100.00 6.00'];
    expect(readScan(lost.join('\n')).amount?.value.value).toBe(106);
    // A gross that is itself the net of a tax row (its rate lost) is no total: the service charge added up to it.
    const service = ['KEDAI KOPI MESRA', 'Subtotal 100.00', '10% Service 10.00', 'Total 116.60', 'SR 110.00 6.60'];
    expect(readScan(service.join('\n')).amount?.value.value).toBe(116.6);
  });

  it('is read with a misread rate ("8%" for 6 %) when its gross is printed', () => {
    const misread = ['KEDAI KOPI MESRA', 'Laksa 100.00', 'Subtotal 106.00', 'SR 8% 100.00 6.00'];
    expect(readScan(misread.join('\n')).amount?.value.value).toBe(106);
  });

  it('makes no total of an item line that its net and tax add up to', () => {
    const labels = (text: string) => findAmounts(makeDoc(text), new Map()).map((a) => `${a.value} ${a.label}`);
    expect(labels('KEDAI KOPI MESRA\n1x 17.00 17.00\nS 66.0% 16.04 0.96')).not.toContain('17 total');
    expect(labels('KEDAI KOPI MESRA\nSALE 17.00\nS 66.0% 16.04 0.96')).toContain('17 total');
  });

  it('makes the gross a total when the tax line says the tax is in it (its share, not its rate of a net)', () => {
    const slip = ['KEDAI KOPI MESRA', 'Laksa', 'Teh tarik', 'SUBTOTAL 31.80', 'CHANGE 18.20', 'INC 6% GST 1.80'];
    expect(readScan(slip.join('\n')).amount?.value.value).toBe(31.8);
  });

  it('is not a discount row, whose arithmetic is the same', () => {
    const slip = ['KEDAI KAIN INDAH', 'Jacket 50.00', 'Discount 10% 50.00 5.00', 'Total 45.00', 'Points 55.00'];
    expect(readScan(slip.join('\n')).amount?.value.value).toBe(45);
  });

  it('reads "Total with GST" as a total, rounded by the adjustment under it', () => {
    const slip = ['KEDAI KOPI MESRA', 'Laksa 30.00', 'Total with GST 6% 31.78', 'Rounding 0.02', 'Card 31.80'];
    expect(readScan(slip.join('\n')).amount?.value.value).toBe(31.8);
  });

  it('makes a total of a gross labelled as tax included', () => {
    const slip = ['KEDAI KOPI MESRA', 'Total Excl. of GST 30.00', 'Total Incl. of GST 31.80', 'Thank you'].join('\n');
    expect(readScan(slip).amount?.value.value).toBe(31.8);
  });
});

describe('totals whose label reads otherwise', () => {
  it('is the gross when a bracket says the tax is included, and the tax when a rate stands in it', () => {
    expect(readScan('KEDAI KOPI MESRA\nHarga (Inclusive GST) RM 31.80\nCASH RM 50.00').amount?.value.value).toBe(31.8);
    expect(readScan('Bäckerei am Markt\nBrot 3,50\nSumme 19,00\n(inkl. 19 % MwSt.) 3,03').amount?.value.value).toBe(19);
  });

  it('is the sum of the items and the tax under it, even labelled "net total"', () => {
    const slip = ['KEDAI KOPI MESRA', '3 Item(s) Total : 40.00', 'GST : 2.40', 'Net Total (MYR) : 42.40'];
    expect(readScan(slip.join('\n')).amount?.value.value).toBe(42.4);
  });
});

describe('the currency of a slip whose address lost its state', () => {
  it('is the ringgit for a Malaysian town or street abbreviation', () => {
    expect(readScan('KEDAI KOPI MESRA\nNo 5, Jln Mawar 3, Tmn Melati\nTOTAL 12.00').amount?.value.currency).toBe('MYR');
    expect(readScan('KEDAI KOPI MESRA\n40000 Shah Alam\nTOTAL 12.00').amount?.value.currency).toBe('MYR');
    expect(readScan('Corner Cafe\n12 Mill Lane\nTOTAL 12.00').amount?.value.currency).not.toBe('MYR');
  });

  it('is the ringgit for a street or estate spelt out, or a twelve-digit GST number', () => {
    const currency = (text: string) => readScan(text).amount?.value.currency;
    expect(currency('KEDAI KOPI MESRA\nNo 5, Jalan Mawar 3\nTOTAL 12.00')).toBe('MYR');
    expect(currency('KEDAI KOPI MESRA\nLot 9, Taman Melati\nTOTAL 12.00')).toBe('MYR');
    expect(currency('KEDAI KOPI MESRA\nGST ID : 001234567890\nTOTAL 12.00')).toBe('MYR');
    // Other countries' GST numbers have other shapes: a nine-digit one does not name Malaysia.
    expect(currency('Corner Cafe\nGST No: 123456789\nTOTAL 12.00')).not.toBe('MYR');
  });
});

describe('a card payment on a slip that lost its total line', () => {
  it('is the amount paid; cash handed over is not (it may have had change)', () => {
    const slip = (payment: string) => `KEDAI KOPI MESRA\nLaksa 5.00\nTeh 2.00\nS 6: 6.60 0.40\n${payment}`;
    expect(readScan(slip('VISA 7.00')).amount?.value.value).toBe(7);
    expect(readScan(slip('CASH 10.00')).amount?.value.value).not.toBe(10);
  });
});

describe('a rounding adjustment whose decimal point OCR lost', () => {
  it('is not the rounded total', () => {
    const slip = ['KEDAI KOPI MESRA', 'Total Sales (Inclusive GST) RM 74.98', 'Rounding RM 75.00', 'CREDIT RM 75.00'];
    const text = (adjustment: string) => [...slip, adjustment].join('\n');
    expect(readScan(text('Rounding Adjustment RM 02')).amount?.value.value).toBe(75);
    // A total after the adjustment is a total.
    expect(readScan(text('Total after rounding adj. RM 75.00')).amount?.value.value).toBe(75);
  });
});

describe('a time of day in dots after the date', () => {
  it('is not read as a date', () => {
    expect(readScan('KEDAI KOPI MESRA\nCB#: 4471 23/05/2019 8.11.52\nTOTAL 5.00').document_date?.value).toBe(
      '2019-05-23',
    );
    // Alone, the same digits are a date.
    expect(readScan('Bäckerei am Markt\nDatum 8.08.25\nSumme 5,00').document_date?.value).toBe('2025-08-08');
  });
});

describe('a date with spaces beside its separators', () => {
  it('is read, with and without a label', () => {
    expect(readScan('KEDAI KOPI MESRA\nDate : 14- 07- 2019 11:05:41\nTOTAL 5.00').document_date?.value).toBe(
      '2019-07-14',
    );
    expect(readScan('KEDAI KOPI MESRA\n09- 11-19 08:12 T02\nTOTAL 5.00').document_date?.value).toBe('2019-11-09');
    expect(readScan('KEDAI KOPI MESRA\nDate : 14- -07- 2019 11:05\nTOTAL 5.00').document_date?.value).toBe(
      '2019-07-14',
    );
  });

  it('is read after a date label with a separator lost or specks beside one; without the label it is not', () => {
    const date = (line: string) => readScan(`KEDAI KOPI MESRA\n${line}\nTOTAL 5.00`).document_date?.value ?? null;
    expect(date('Date + 14 07- 2019 11:05')).toBe('2019-07-14');
    expect(date('Date : 03+ -08- 2019 11:05')).toBe('2019-08-03');
    expect(date('Datum: 14 07 2019')).toBe('2019-07-14');
    expect(date('Table 14 07 2019')).toBeNull();
  });
});
