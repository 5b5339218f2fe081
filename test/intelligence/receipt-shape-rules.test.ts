/**
 * Till receipts whose words a scan blurred: the type from the slip's shape, the total from its payment lines, the
 * currency from the country the page names, the merchant's name with its OCR digit-for-letter misreads put right.
 * Every shop, name and figure here is invented.
 */
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../server/intelligence/amounts.ts';
import { dominantCurrency, findMoney, minorUnits } from '../../server/intelligence/money.ts';
import { withLettersForDigits } from '../../server/intelligence/ocr-letters.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { readScan } from './sample-types.ts';

describe('a till slip by its shape', () => {
  it('is a receipt under an invoice heading when a total is paid in cash below short priced lines (it)', () => {
    const slip = [
      'PANIFICIO AURORA',
      'FATTURA',
      'Focaccia 3,20',
      'Grissini 2,10',
      'Ciambella 1,90',
      'Totale 7,20',
      'Contanti 10,00',
      'Resto 2,80',
    ].join('\n');
    expect(readScan(slip).event_type?.value).toBe('receipt');
  });

  it('is a receipt in Dutch and Spanish too, paid by card with no change', () => {
    const nl = ['BLOEMENHUIS VIOLA', 'FACTUUR', 'Tulpen 6,50', 'Vaas 9,95', 'Lint 0,80', 'Totaal 17,25', 'Pin 17,25'];
    expect(readScan(nl.join('\n')).event_type?.value).toBe('receipt');
    const es = ['FERRETERÍA EL YUNQUE', 'FACTURA', 'Tornillos 2,40', 'Cinta 3,15', 'Brocha 4,05', 'Total 9,60'];
    expect(readScan([...es, 'Efectivo 20,00', 'Cambio 10,40'].join('\n')).event_type?.value).toBe('receipt');
  });

  it('is a receipt when cash less the change is the total, though its item lines did not read as prices (en)', () => {
    const slip = [
      'HILLTOP PAPER SUPPLIES SDN BHD',
      'TAX INVOICE',
      // Long item lines, as a wide scan joins the columns: not the short priced lines of the shape above.
      'A4 PAPER 80GSM WHITE 500 SHEETS PER REAM, CARTON OF FIVE   2 X 12.90   25.80 SR',
      'STAPLER NO.10 WITH 1000 STAPLES, ASSORTED COLOURS, BLISTER   1 X 8.40   8.40 SR',
      'Grand total 34.20',
      'Cash tendered 50.00',
      'Change due 15.80',
    ].join('\n');
    expect(readScan(slip).event_type?.value).toBe('receipt');
    // The same heading and figures whose payment lines do not add up stay an invoice.
    expect(readScan(slip.replace('Change due 15.80', 'Change due 5.80')).event_type?.value).toBe('invoice');
  });

  it('is a receipt however often the slip calls itself an invoice, paid with exact cash (en)', () => {
    const slip = [
      'HILLTOP PAPER SUPPLIES SDN BHD',
      'TAX INVOICE',
      'Invoice # : CS-20260307-0042',
      'Invoice Date : 07/03/2026',
      'Total Amount: 12.60',
      'CASH 12.60',
      'Change 0.00',
    ].join('\n');
    expect(readScan(slip).event_type?.value).toBe('receipt');
    // Without the payment lines the same slip is an invoice.
    expect(readScan(slip.replace('CASH 12.60\nChange 0.00', '')).event_type?.value).toBe('invoice');
  });

  it('is a receipt when the cash handed over right under the total is exactly the total, one item or not', () => {
    const slip = [
      'CORNER MART',
      'TAX INVOICE',
      'INVOICE NO: 7730/211',
      'ORANGE JUICE 1L 9.80',
      'Total 9.80',
      'CASH 9.80',
    ];
    expect(readScan(slip.join('\n')).event_type?.value).toBe('receipt');
    // Cash of another amount, with no change to explain it, proves nothing.
    expect(readScan(slip.join('\n').replace('CASH 9.80', 'CASH 15.00')).event_type?.value).toBe('invoice');
  });

  it('is a receipt on a till roll with prices on it and no word for any other type, a letter on a sheet unless priced in a currency', () => {
    const slip = 'CORNER MART\nBread 3.75 S\nMuesli 9.20 S\nRye bun 5.15 S\nSUBTTL 18.10';
    const onPage = (aspect: number) => readScan(slip, [{ page: 1, aspect, boxes: [] }]).event_type?.value;
    expect(onPage(2.6)).toBe('receipt');
    expect(onPage(1.41)).not.toBe('receipt');
    // A column of prices with their currency is a till's on any page.
    expect(readScan(slip.replace(/ (\d+\.\d\d)/g, ' RM$1')).event_type?.value).toBe('receipt');
  });

  it('leaves an invoice with a due date or without payment lines an invoice', () => {
    const invoice = ['Schreinerei Holm GmbH', 'Rechnung', 'Regal 120,00', 'Montage 80,00', 'Anfahrt 20,00'];
    expect(readScan([...invoice, 'Gesamt 220,00', 'Zahlbar bis 30.12.2026'].join('\n')).event_type?.value).toBe(
      'invoice',
    );
    expect(readScan([...invoice, 'Gesamt 220,00'].join('\n')).event_type?.value).toBe('invoice');
  });
});

describe('the total among the payment lines', () => {
  it('reads an amount "paid" with change given under it as what was handed over (en, fr)', () => {
    const en = 'Crumb & Crust\nSourdough 4.20\nBrownie 3.10\nTotal 7.30\nTotal paid 20.00\nChange 12.70\nThank you';
    expect(readScan(en).amount?.value.value).toBe(7.3);
    const fr = 'Boulangerie Mistral\nBaguette 1,20\nTarte 3,50\nTotal 4,70\nPayé 10,00\nRendu 5,30\nMerci';
    expect(readScan(fr).amount?.value.value).toBe(4.7);
  });

  it('finds the change whose label the scan lost: the tender less it is a printed amount (en, it)', () => {
    const labels = (text: string) => findAmounts(makeDoc(text), new Map()).map((a) => [a.value, a.label]);
    expect(labels('Noodle Stall\nLaksa 6.50\nTea 1.20\nxq 7.70\nCash 10.00\n2.30\nThank you')).toContainEqual([
      2.3,
      'change',
    ]);
    expect(labels('Gelateria Luna\nCono 2,50\nCoppa 3,70\nxq 6,20\nContanti 10,00\n3,80')).toContainEqual([
      3.8,
      'change',
    ]);
    // Nothing printed above equals the difference: a number under the cash line is not taken for change.
    expect(labels('Noodle Stall\nLaksa 6.50\nTea 1.20\nCash 10.00\n2.30')).toContainEqual([2.3, 'none']);
  });

  it('restores the last digit of a total from the card payment right under it (nl)', () => {
    expect(readScan('Tankstation Noord\nEuro 95 61,37\nTotaal 61,3\nPin 61,37\nBedankt').amount?.value.value).toBe(
      61.37,
    );
    // With change given the payment is cash, not the total.
    expect(readScan('Kiosk Zuid\nKoffie 2,40\nTotaal 2,4\nContant 5,00\nWisselgeld 2,60').amount?.value.value).toBe(
      2.4,
    );
  });

  it('takes no amount from a phone number that a speck gave a currency symbol', () => {
    const doc = makeDoc('Drogerie Lindgren\nTel: 07-331 £552\nSeife 2.40\nTOTAL 2.40');
    expect(findAmounts(doc, new Map()).map((a) => a.value)).not.toContain(552);
  });
});

describe('the currency of a till slip', () => {
  it('does not read a symbol wedged between the digits of a number as a currency', () => {
    const money = findMoney(makeDoc('BILL NO: 004217€3 / K02'), new Map());
    expect([...money.values()].flat().filter((m) => m.currency === 'EUR')).toEqual([]);
    expect(dominantCurrency('BILL NO: 004217€3 / K02\nTotal 7.40 RM')).toBe('MYR');
  });

  it('gives an amount with cents no currency that has none (yen, won)', () => {
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('EUR')).toBe(2);
    const slip = 'Kedai Roti Fajar\nJalan Melur 4, Ipoh, Perak\nRoti 2 ¥ 2 4.20\nKaya 1 ¥ 1 3.30\nTotal 7.50';
    expect(readScan(slip).amount?.value).toEqual({ value: 7.5, currency: 'MYR' });
  });

  it("prefers the country the page names over a symbol written once that the country doesn't use", () => {
    const slip = 'Kedai Harmoni\nJalan Kenari 9, Kuantan, Pahang\n£7) 0012345 3.90\nTotal 3.90';
    expect(dominantCurrency(slip)).toBe('MYR');
    // A code spelt out is no speck, and a symbol the page writes more than once is its currency.
    expect(dominantCurrency('Uhrmacher Brandt, Basel, Schweiz\nUhrwerk 80,00\nSumme EUR 80,00')).toBe('EUR');
    expect(dominantCurrency('Tea House\nSingapore road 4\n£3.90 scone\n£2.10 tea\nTotal 6.00')).toBe('GBP');
  });
});

describe("the merchant's name as OCR misread it", () => {
  it('reads "Sdn 8hd" and "Sdn Dhd" as the company form they are', () => {
    const slip = (name: string) =>
      readScan(`j k\n${name}\nNO 7, JALAN CEMPAKA\n47000 SUNGAI BULOH\nBread 4.50\nTOTAL 4.50`).sender_name?.value;
    expect(slip('KEDAI SINAR PAGI SDN 8HD')).toBe('KEDAI SINAR PAGI SDN BHD');
    expect(slip('KEDAI SINAR PAGI SDN DHD (12345-X)')).toBe('KEDAI SINAR PAGI SDN BHD');
    expect(slip('BR1GHT 1DEA SDN BHD')).toBe('BRIGHT IDEA SDN BHD');
  });

  it('puts back capitals OCR read as digits inside words of capitals', () => {
    expect(withLettersForDigits('BR1GHT 1DEA TRADING')).toBe('BRIGHT IDEA TRADING');
    expect(withLettersForDigits('K.L.5 HOME & D.1.Y. STORE')).toBe('K.L.S HOME & D.I.Y. STORE');
    expect(withLettersForDigits('G0LDEN 5TAR')).toBe('GOLDEN STAR');
  });

  it('leaves numbers, model names, ordinals and short codes alone', () => {
    for (const name of ['PS5 CORNER', 'A1 MOTORS', 'B2B SUPPLY', '1ST CHOICE', 'SHOP 2019', 'Studio 1', '3M', 'Mix8'])
      expect(withLettersForDigits(name)).toBe(name);
  });
});
