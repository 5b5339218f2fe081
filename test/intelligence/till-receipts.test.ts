/** Till receipts read from a scan: the currency of the shop's country, the amount paid, the merchant's full name. */
import { describe, expect, it } from 'vitest';
import { documentCountries } from '../../server/intelligence/country.ts';
import { currencyReader, dominantCurrency } from '../../server/intelligence/money.ts';
import { findParties } from '../../server/intelligence/parties.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { readScan } from './sample-types.ts';

const amountOf = (text: string) => readScan(text).amount?.value.value;
const senderOf = (text: string) => readScan(text).sender_name?.value;

describe('the country of a receipt, for its currency', () => {
  it('is Malaysia by its company forms and its states, as addresses name them', () => {
    expect(documentCountries('KEDAI RUNCIT MAJU (M) BHD\nTotal 5.00')).toContain('MY');
    expect(documentCountries('Warung Pelangi S/B\nTotal 5.00')).toContain('MY');
    expect(documentCountries('12 Jalan Mawar, 47000 Sungai Buloh, Selangor\nTotal 5.00')).toContain('MY');
    expect(documentCountries('Lot 5, 88000 Kota Kinabalu, Sabah')).toContain('MY');
  });

  it('is not Malaysia for a word that merely contains those letters', () => {
    expect(documentCountries('Bhdzone Gadgets\nSubtotal 5.00')).not.toContain('MY');
    expect(documentCountries('Johorson Bakery, 5 Mill Road')).not.toContain('MY');
  });
});

describe('currency symbols on a receipt from a named country', () => {
  it('reads a bare "$" in Malaysia as the ringgit it was written for', () => {
    expect(currencyReader('KEDAI BUKU CERIA SDN BHD\nTotal $8.20')('$')).toBe('MYR');
    expect(currencyReader('Harbour Diner\nTotal $8.20')('$')).toBe('USD');
  });

  it('reads a symbol the country does not use as a misread of the currency the text writes elsewhere', () => {
    const text = 'KEDAI KAIN INDAH\nKUALA LUMPUR MALAYSIA\nScarf ¥ 24.50\nTax table Net (RM) Tax (RM)';
    expect(currencyReader(text)('¥')).toBe('MYR');
    expect(dominantCurrency(text)).toBe('MYR');
    // Without the country's own currency written anywhere the symbol keeps its reading.
    expect(currencyReader('Ramen Bar Sakura\nLot 3, Penang\nRamen ¥ 800')('¥')).toBe('JPY');
  });

  it("reads a letter symbol alone at the end of a line as the amount column's currency", () => {
    expect(dominantCurrency('Kopitiam Ceria\nTable 4   Served 19:42   RM\n2 SATAY 8.40\nTOTAL 8.40')).toBe('MYR');
    expect(dominantCurrency('Harbour Diner\nTable 4   Served 19:42\nTotal 8.40')).toBeNull();
  });

  it('gives a receipt without any currency sign the currency of the country its company form names', () => {
    expect(
      readScan('KEDAI RUNCIT MAJU (M) BHD\nBread 4.50\nTOTAL 4.50\nCASH 10.00\nCHANGE 5.50').amount?.value,
    ).toEqual({
      value: 4.5,
      currency: 'MYR',
    });
  });
});

describe('the amount paid at the till', () => {
  it('applies the cash-rounding adjustment printed under the total when the rounded total is not legible', () => {
    expect(
      amountOf('Kedai Kopi Baru\nTea 3.30\nCoffee 4.42\nTotal (Incl GST) 7.72\nRounding Adj -0.02\nThank you'),
    ).toEqual(7.7);
    expect(amountOf('Corner Deli\nSoup 6.48\nTotal 6.48\nRounding 0.02\nThank you')).toEqual(6.5);
  });

  it('keeps a rounded total that is printed, and a total with no adjustment', () => {
    expect(amountOf('Corner Deli\nSoup 6.48\nTotal 6.48\nRounding 0.02\nRounded Total 6.50')).toEqual(6.5);
    expect(amountOf('Corner Deli\nSoup 6.48\nTotal 6.48\nThank you')).toEqual(6.48);
  });

  it('reads the total after tax, even with a rounding adjustment between them', () => {
    const text =
      'Grill House\nSteak 40.00\nSoup 12.50\nTotal Amount : 52.50\nService Tax 6% 3.15\nRounding Adj : -0.05\nTOTAL: $55.60\nThank you';
    expect(amountOf(text)).toEqual(55.6);
  });

  it('takes the tender less the change when no total can be read', () => {
    const text = 'Noodle Corner\nFried noodles x2 6.00 12.00\nTotal Sales: $S.5O\nCash $20.00\nChange $7.50';
    expect(amountOf(text)).toEqual(12.5);
    expect(readScan(text).amount!.confidence).toBeLessThan(0.8);
  });

  it('does not take the tax a total includes for the total', () => {
    const text =
      'Hardware Depot\nHammer 1 18.00 18.00\nNails 1 4.50 4.50\nTotal $22.50\nVAT 8% included in total $1.67\nThank you';
    expect(amountOf(text)).toEqual(22.5);
  });

  it('does not take the total row of the tax summary printed under the total', () => {
    const text =
      'Cafe Aroma\nLatte 9.00\nCake 3.40\nTOTAL 12.40\nTAX SUMMARY\nCode % Net Tax\nS 8 11.48 0.92\nTotal : 11.48 0.92\nThank you';
    expect(amountOf(text)).toEqual(12.4);
  });
});

describe('the merchant named at the top of a receipt', () => {
  it('joins a company form printed alone with the name on the line above', () => {
    expect(senderOf('GREEN LEAF BOOKS\nSDN BHD\nGST No: 001122334455\n12 Jalan Bunga\nTotal 10.00')).toBe(
      'GREEN LEAF BOOKS SDN BHD',
    );
    expect(senderOf('SURIA FRESH MARKET\n(KAJANG) SDN BHD\n(123456-A)\nTotal 10.00')).toBe(
      'SURIA FRESH MARKET (KAJANG) SDN BHD',
    );
  });

  it('keeps the shop sign at the top over the company that owns the shop', () => {
    const text =
      'HAPPY PAGES BOOKSHOP\nNo. 8, Jalan Kenari 2\nTel: 03-1234 5678\nOwned By :\nPELANGI RETAIL SDN BHD (765432-K)\nTAX INVOICE\nTotal 12.00';
    const merchantOf = (receipt: string) =>
      findParties(makeDoc(receipt), {
        address: [],
        issuer: [],
        merchant: { text: 'HAPPY PAGES BOOKSHOP', prominent: false },
      }).sender?.name;
    expect(merchantOf(text)).toBe('HAPPY PAGES BOOKSHOP');
    // Without the word "owned" the company is the sender.
    expect(merchantOf(text.replace('Owned By :\n', ''))).toBe('PELANGI RETAIL SDN BHD');
  });

  it("takes the merchant found in the slip's layout even where the page's zones read its lines as an address", () => {
    const slip = 'LOTUS LEAF SDN BHD\n(CO.REG: 123456-A)\nLot 5, Jalan Mawar 3\n43000 Kajang\nTOTAL 12.00';
    const layout = { address: ['LOTUS LEAF SDN BHD', 'Lot 5, Jalan Mawar 3'], issuer: [] };
    expect(findParties(makeDoc(slip), { ...layout, merchant: null }).sender?.name).not.toBe('LOTUS LEAF SDN BHD');
    const merchant = { text: 'LOTUS LEAF SDN BHD', prominent: false };
    expect(findParties(makeDoc(slip), { ...layout, merchant }).sender?.name).toBe('LOTUS LEAF SDN BHD');
  });

  it('never takes a line with marks no name is spelt with, and strips a bar or bullet OCR put before it', () => {
    const merchant = { text: '| LOTUS LEAF RESTAURANT', prominent: false };
    const slip = '| LOTUS LEAF RESTAURANT\nTeh (B) ! 20 SA\nLot 5, Jalan Mawar 3\nTOTAL 12.00';
    expect(findParties(makeDoc(slip), { address: [], issuer: [], merchant }).sender?.name).toBe(
      'LOTUS LEAF RESTAURANT',
    );
  });

  it('reads the whole header line when the layout set its first word apart in larger type', () => {
    const slip = 'TOKO CAHAYA BARU\n(402377-K)\nLot 5, Jalan Mawar 3\nTOTAL 12.00';
    const merchant = { text: 'TOKO', prominent: true };
    expect(findParties(makeDoc(slip), { address: [], issuer: [], merchant }).sender?.name).toBe('TOKO CAHAYA BARU');
  });

  it('keeps the shop over its owner when a blank line parts "Owned by" from the owner', () => {
    const slip =
      'HAPPY PAGES BOOKSHOP\nNo. 8, Jalan Kenari 2\nOwned By :\n\nPELANGI RETAIL SDN BHD (765432-K)\nTotal 12.00';
    const merchant = { text: 'HAPPY PAGES BOOKSHOP', prominent: true };
    expect(findParties(makeDoc(slip), { address: [], issuer: [], merchant }).sender?.name).toBe('HAPPY PAGES BOOKSHOP');
  });

  it("takes no company from far down the slip (a customer's) over the merchant at the top", () => {
    const header = ['LOTUS LEAF RESTAURANT', '(123456-A)', 'Lot 5, Jalan Mawar 3', '43000 Kajang', 'Table 4'];
    const body = ['Nasi lemak 5.00', 'Teh tarik 2.00', 'Total 7.00', 'HILLTOP PAPER SUPPLIES SDN BHD'];
    const merchant = { text: 'LOTUS LEAF RESTAURANT', prominent: false };
    const sender = (lines: string[]) =>
      findParties(makeDoc(lines.join('\n')), { address: [], issuer: [], merchant }).sender?.name;
    expect(sender([...header, ...body])).toBe('LOTUS LEAF RESTAURANT');
  });

  it('keeps an exclamation mark that is part of a brand', () => {
    expect(senderOf('Yippee! Toys Ltd\n12 Mill Lane, Leeds LS1 4AB\nTotal 12.00')).toBe('Yippee! Toys Ltd');
  });

  it('does not join a register line to a legal form it mentions', () => {
    expect(
      senderOf(
        'Le Petit Four SARL\n12 rue des Lilas\nTVA : FR00123456789 - APE : 1071C - SARL au capital de 5 000 €\nTotal 10,00 €',
      ),
    ).toBe('Le Petit Four SARL');
  });

  it('reads the company forms OCR misreads as such', () => {
    expect(senderOf('TERANG BULAN TRADING SON BHD\nGST No: 001122334455\nTotal 10.00')).toBe(
      'TERANG BULAN TRADING SDN BHD',
    );
    expect(senderOf('SINAR MINI MART 5/B\n(99887-X)\nTotal 10.00')).toBe('SINAR MINI MART S/B');
  });
});
