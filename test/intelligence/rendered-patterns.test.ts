/**
 * Reading rules found on rendered documents (PDFs and scans of invoices, bills, credit notes and receipts): text-layer
 * quirks, OCR misreadings, labels and layouts of more countries. Every name, address and number below is invented.
 */
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../server/intelligence/amounts.ts';
import { labelValuePairs } from '../../server/intelligence/layout/label-value.ts';
import { linesOf } from '../../server/intelligence/layout/lines.ts';
import { findZones } from '../../server/intelligence/layout/zones.ts';
import type { PageLayout, TextBox } from '../../server/intelligence/layout-types.ts';
import { isPostcodeLine, isReturnAddress } from '../../server/intelligence/parties.ts';
import { dueDateFromTerms, parsePaymentTerms } from '../../server/intelligence/payment-terms.ts';
import { findReferences } from '../../server/intelligence/references.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';
import { withoutLetterSpacing } from '../../server/pipeline/steps/pdf-text.ts';
import { CATEGORIES, moneyTokens, TODAY } from './sample-types.ts';

const read = (text: string) =>
  understand({ text, filename: 'document.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });
const doc = (...lines: string[]) => lines.join('\n');
/** [kind, value] of every reference a text labels. */
const references = (text: string) => findReferences(makeDoc(text)).map((r) => [r.kind, r.value]);
/** The label of each amount in a text, by its value. */
const amountLabels = (text: string) => findAmounts(makeDoc(text), new Map()).map((a) => [a.value, a.label]);

const A4 = 842 / 595;
/** A box in points on an A4 page (origin top left), turned into page fractions; about 0.5 pt per character of 11 pt type. */
function box(text: string, x: number, y: number, size = 11): TextBox {
  return { text, x: x / 595, y: y / 842, width: (text.length * size * 0.5) / 595, height: size / 842 };
}
const page = (boxes: TextBox[], aspect = A4): PageLayout => ({ page: 1, aspect, boxes });
/** The text a reader gives for the boxes: one line per row, cells separated by tabs. */
const textOf = (layout: PageLayout): string =>
  linesOf(layout)
    .map((line) => line.cells.map((c) => c.text).join('\t'))
    .join('\n');

describe('the text layer of a PDF', () => {
  it('joins words set with wide letter spacing, and capitals that kerning split unevenly', () => {
    expect(withoutLetterSpacing('T O T A L')).toBe('TOTAL');
    expect(withoutLetterSpacing('R E C H N U N G S D A T U M')).toBe('RECHNUNGSDATUM');
    // Kerning pulls a pair together now and then.
    expect(withoutLetterSpacing('I N V O I CE')).toBe('INVOICE');
    expect(withoutLetterSpacing('D ATE')).toBe('DATE');
    expect(withoutLetterSpacing('N ETO')).toBe('NETO');
  });

  it('leaves short words of ordinary text apart', () => {
    expect(withoutLetterSpacing('SOPA O TÉ A LA CARTA')).toBe('SOPA O TÉ A LA CARTA');
    expect(withoutLetterSpacing('Pan y vino de la casa')).toBe('Pan y vino de la casa');
  });
});

describe('the amount', () => {
  it('takes the balance still to pay after a prepayment', () => {
    const invoice = doc(
      'Talleres Olmedo S.L.',
      'C/ Olmo 14, 28041 Madrid',
      'FACTURA Nº 2026-0417',
      'Fecha: 03/11/2026',
      'Reparación de persiana   1.250,00 €',
      'Total factura 1.250,00 €',
      'Anticipo pagado 500,00 €',
      'Pendiente de pago 750,00 €',
    );
    expect(read(invoice).amount?.value).toEqual({ value: 750, currency: 'EUR' });
    const italian = doc(
      'Serramenti Bordin',
      'Fattura n. 2026-0417',
      'Data 03/11/2026',
      'Totale documento 1.250,00 €',
      'Acconto versato 500,00 €',
      'Importo residuo 750,00 €',
    );
    expect(read(italian).amount?.value.value).toBe(750);
    const dutch = doc(
      'Schilderwerken Van Dam',
      'Factuur 2026-0417',
      'Factuurdatum 03-11-2026',
      'Totaal 1.250,00 €',
      'Aanbetaling 500,00 €',
      'Resterend bedrag 750,00 €',
    );
    expect(read(dutch).amount?.value.value).toBe(750);
  });

  it('reads "NET PAYABLE" as the amount due', () => {
    const invoice = doc(
      'Harbourside Motors Ltd',
      'Service invoice SI-4471',
      'Date: 19/08/2026',
      '',
      'Labour                        240.00',
      'Parts                         186.40',
      'Total                         426.40',
      'Less deposit paid             100.00',
      'NET PAYABLE                   326.40',
    );
    expect(read(invoice).amount?.value.value).toBe(326.4);
  });

  it('reads a number OCR split after its group dot as one, only beside a currency', () => {
    expect(moneyTokens('Total $ 725. 300,00')).toEqual([[725300, 'USD']]);
    expect(moneyTokens('Saldo 725. 300,00')).not.toContainEqual([725300, null]);
  });

  it('reads a dash between a currency and its number as a leader, a minus before the symbol as negative', () => {
    expect(moneyTokens('TOTAL EUR - 58,16')).toEqual([[58.16, 'EUR']]);
    expect(moneyTokens('Descuento -$2.35')).toEqual([[-2.35, 'USD']]);
  });

  it('labels an amount whose label takes in the currency before it', () => {
    expect(amountLabels('TOTAL EUR 58,16')).toEqual([[58.16, 'total']]);
  });

  it('does not take a suggested tip line for the amount', () => {
    const check = doc(
      'THE PEWTER LADLE',
      '418 Elm Avenue, Springfield',
      '',
      'Check #2281   Server: Dana',
      '2 Burger                  31.00',
      '1 Caesar salad            13.50',
      '2 Lemonade                 9.00',
      'Subtotal                  53.50',
      'Tax                        4.41',
      'Total                     57.91',
      '',
      'Suggested gratuity',
      '18% (Tip $9.64) Total $67.55',
      '20% (Tip $10.70) Total $68.61',
    );
    expect(read(check).amount?.value.value).toBe(57.91);
  });

  it('does not let a tip guide complete the total as if it were tax', () => {
    // 18 % of the total is the tip, the line under it the total with the tip: no tax row, nor the gross of one.
    const amountWith = (...tips: string[]) =>
      read(
        doc(
          'THE PEWTER LADLE',
          '418 Elm Avenue, Springfield',
          '',
          'Check #2281   Server: Dana',
          '2 Burger                  31.00',
          '1 Caesar salad            13.50',
          '2 Lemonade                 9.00',
          'Subtotal                  53.50',
          'Tax                        4.41',
          'Total                     57.91',
          '',
          'Tip guide',
          ...tips,
        ),
      ).amount?.value.value;
    expect(amountWith('18% tip 10.42', '          68.33', '20% tip 11.58', '          69.49')).toBe(57.91);
    expect(
      amountWith(
        '18%               10.42',
        'Total with tip    68.33',
        '20%               11.58',
        'Total with tip    69.49',
      ),
    ).toBe(57.91);
  });

  it('reads German "Bar" as cash only right before its amount', () => {
    const labels = amountLabels('Bar – Le Comptoir         18,50\nBar EUR 10,00');
    expect(labels[0]).toEqual([18.5, 'none']);
    expect(labels[1]).toEqual([10, 'tendered']);
  });
});

describe('the currency by the country', () => {
  it('reads "$" as Colombian pesos beside Bogotá or the DIAN', () => {
    const invoice = (place: string) =>
      doc(
        'Papelería El Cóndor',
        place,
        'FACTURA DE VENTA Nº FV-3381',
        'Fecha: 05/10/2026',
        'Total a pagar $ 84.500,00',
      );
    expect(read(invoice('Carrera 9 # 45-12, Bogotá')).amount?.value).toEqual({ value: 84500, currency: 'COP' });
    expect(read(invoice('Resolución DIAN 18764000112233')).amount?.value).toEqual({ value: 84500, currency: 'COP' });
  });

  it('reads "R" as rand in a South African document, and as no currency elsewhere', () => {
    const invoice = (company: string, town: string) =>
      doc(company, `41 Marula Street, ${town}`, '', 'TAX INVOICE  PP-20417', 'Date: 08/05/2026', 'TOTAL   R 418.00');
    expect(read(invoice('Protea Paint Supplies (Pty) Ltd', 'Exampleton')).amount?.value).toEqual({
      value: 418,
      currency: 'ZAR',
    });
    expect(read(invoice('Protea Paint Supplies', 'Johannesburg')).amount?.value).toEqual({
      value: 418,
      currency: 'ZAR',
    });
    expect(moneyTokens('Protea Paint Supplies (Pty) Ltd\nTOTAL R 418.00')).toEqual([[418, 'ZAR']]);
    expect(moneyTokens('Lasur Kiefer R 12.50')).toEqual([[12.5, null]]);
  });
});

describe('document numbers', () => {
  it('reads "Nº" as OCR reads it ("N9", "Ne") before a number', () => {
    const invoice = (numberLine: string) =>
      doc(
        'Menuiserie Granier SARL',
        '12 rue des Orfèvres, 69003 Lyon',
        numberLine,
        'Date : 14/10/2026',
        'Total TTC 480,00 €',
      );
    expect(read(invoice('FACTURE N9 2026-0385')).reference_number?.value).toBe('2026-0385');
    expect(read(invoice('Ne MX-7731')).reference_number?.value).toBe('MX-7731');
    // After a French or Spanish invoice word, "N9" makes an invoice number.
    expect(references('FACTURE N9 2026-0385')).toEqual([['invoice', '2026-0385']]);
    expect(references('FACTURA N9 A-0385')).toEqual([['invoice', 'A-0385']]);
  });

  it('reads a month-shaped value as a number when its label says number, not after a statement heading', () => {
    expect(references('Fattura numero 09/2026')).toContainEqual(['invoice', '09/2026']);
    expect(references('Rechnung Nr. 07/2026')).toContainEqual(['invoice', '07/2026']);
    expect(references('Kontoauszug 05/2027')).toEqual([]);
  });

  it('takes two digits after a full number word, not after "Nr."', () => {
    expect(references('Numero 63')).toEqual([['generic', '63']]);
    expect(references('Rechnungsnummer 29')).toEqual([['invoice', '29']]);
    expect(references('Haus Nr. 17')).toEqual([]);
  });

  it("prefers the till's Bon-Nr. over the Beleg-Nr.", () => {
    const slip = doc(
      'Getränkemarkt Quellgrund',
      'Mühlweg 2, 35037 Marburg',
      '',
      'Beleg-Nr. 8812',
      'Bon-Nr. 3307',
      'Mineralwasser 12x0,7   5,49',
      'SUMME EUR 5,49',
      'BAR EUR 10,00',
      'RÜCKGELD EUR 4,51',
    );
    expect(read(slip).reference_number?.value).toBe('3307');
  });

  it('reads a folio, a "DOCUMENTO. N." and a "Receipt:" number as receipt numbers', () => {
    expect(references('FOLIO: 52907')).toEqual([['receipt', '52907']]);
    expect(references('DOCUMENTO. N. 0733-0214')).toEqual([['receipt', '0733-0214']]);
    expect(references('Receipt: 517-30962')).toEqual([['receipt', '517-30962']]);
  });

  it('reads a bare "No:" as a number label, but not the one of a phone or fax', () => {
    expect(references('NO: TK-30418')).toEqual([['generic', 'TK-30418']]);
    expect(references('Tel. No: 0412 5567')).toEqual([]);
    expect(references('Fax No: 0412 5568')).toEqual([]);
  });
});

describe('the sender and the recipient', () => {
  it('takes the name after "Razón social:" at the head of the page', () => {
    const invoice = doc(
      'Razón social: Ferretería Los Almendros',
      'NIF: B12345678',
      'Domicilio: Calle del Olmo 7, 46009 Valencia',
      'FACTURA Nº A-2231',
      'Fecha: 21/09/2026',
      'Total a pagar 86,40 €',
    );
    expect(read(invoice).sender_name?.value).toBe('Ferretería Los Almendros');
  });

  it("does not take an original or copy marker for the sender's name", () => {
    const invoice = doc(
      'COPIA CLIENTE',
      'Ferretería Los Almendros',
      'Calle del Olmo 7, 46009 Valencia',
      'FACTURA Nº A-2231',
      'Fecha: 21/09/2026',
      'Total a pagar 86,40 €',
    );
    expect(read(invoice).sender_name?.value).toBe('Ferretería Los Almendros');
  });

  it('does not take the name of a payment slip or till receipt for a name', () => {
    const slip = (heading: string) =>
      doc(
        heading,
        'Fietsenmaker De Spaak',
        'Kerkstraat 19, 3511 LX Utrecht',
        '',
        'Datum: 04-05-2026',
        'Totaal 62,50 EUR',
      );
    expect(read(slip('BETALINGSBEWIJS KLANT')).sender_name?.value).toBe('Fietsenmaker De Spaak');
    expect(read(slip('KASSABON KLANT')).sender_name?.value).toBe('Fietsenmaker De Spaak');
  });

  it("reads a buyer's label as the recipient's, in Spanish and French", () => {
    const spanish = doc(
      'Distribuciones Marisma S.A.',
      'Avenida del Faro 41, 46024 Valencia',
      'FACTURA Nº DV-0912',
      'Fecha: 12/08/2026',
      'Adquiriente: Hostal La Ribera S.L.',
      'Total a pagar 312,00 €',
    );
    expect(read(spanish).buyer_name?.value).toBe('Hostal La Ribera S.L.');
    expect(read(spanish).sender_name?.value).toBe('Distribuciones Marisma S.A.');
    const french = doc(
      'Moulins du Val SAS',
      '8 route de Dijon, 21000 Beaune',
      '',
      'Acheteur : Boulangerie Martin SARL',
      '',
      'FACTURE N° MV-5520',
      'Date : 12/08/2026',
      'Total TTC 312,00 €',
    );
    expect(read(french).buyer_name?.value).toBe('Boulangerie Martin SARL');
  });

  it('keeps the partner of an Italian partnership in its name', () => {
    const invoice = doc(
      'Officina Meccanica S.n.c. di Galli Pietro & C.',
      'Via dei Tigli 140, 40026 Imola',
      'Fattura n. 2026/77',
      'Data 03/06/2026',
      'Totale documento 412,30 €',
    );
    expect(read(invoice).sender_name?.value).toBe('Officina Meccanica S.n.c. di Galli Pietro & C.');
  });

  it('knows the Swiss legal forms Sagl and Sàrl', () => {
    const letterhead = (line: string) => doc(line, 'FATTURA n. 2026-144', 'Data 11/06/2026', 'Totale CHF 380.00');
    expect(read(letterhead('Manutenzione del verde · Giardini Tanner Sagl · Lugano')).sender_name?.value).toBe(
      'Giardini Tanner Sagl',
    );
    expect(read(letterhead('Menuiserie · Atelier Roulin Sàrl · Vevey')).sender_name?.value).toBe('Atelier Roulin Sàrl');
  });

  it('never takes the bank\'s name for the sender, but the company "for" which the invoice is signed', () => {
    const invoice = doc(
      'TAX INVOICE',
      'Invoice No: KT/2026/311',
      'Date: 14/07/2026',
      '',
      'Bill to: Raman Textiles',
      '',
      'Cotton yarn 40s, 120 kg        18,400.00',
      'Total                          18,400.00',
      '',
      'Bank Name : Coastal Mercantile Bank Ltd',
      'A/c No: 3310 0045 1187',
      '',
      'for Kaveri Traders',
      'Authorised Signatory',
    );
    expect(read(invoice).sender_name?.value).toBe('Kaveri Traders');
  });

  it('reads a French company written form first at the head of the page or in the legal block', () => {
    const head = doc(
      'SARL MOULIN FRÈRES au capital de 8 000 €',
      '14 avenue des Platanes, 84000 Avignon',
      '',
      'FACTURE N° MF-2026-090',
      'Date : 22/04/2026',
      'Total TTC 1 146,00 €',
    );
    expect(read(head).sender_name?.value).toBe('SARL MOULIN FRÈRES');
    const footer = doc(
      'FACTURE N° MF-2026-090',
      'Date : 22/04/2026',
      '',
      'Livraison de farine T65, 20 sacs     955,00',
      'Total HT 955,00',
      'TVA 20 % 191,00',
      'Total TTC 1 146,00 €',
      '',
      'Merci de votre confiance.',
      '',
      'SAS PROVENCE MEUNERIE - capital 20 000 € - RCS Avignon 812 345 678',
    );
    expect(read(footer).sender_name?.value).toBe('SAS PROVENCE MEUNERIE');
  });

  it("does not take a recipient's company written form first for the sender", () => {
    const invoice = doc(
      'Boulangerie des Remparts',
      "3 place de l'Horloge, 84000 Avignon",
      '',
      'FACTURE N° BR-1187',
      'Date : 22/04/2026',
      '',
      'Nous avons livré ce jour à la',
      'SAS ATELIER GOURMAND',
      'Pains et viennoiseries       96,00',
      'Total TTC 96,00 €',
    );
    expect(read(invoice).sender_name?.value).toBe('Boulangerie des Remparts');
  });

  it('reads "KG" before a number as a weight, not a legal form', () => {
    const slip = doc(
      'Obsthof Lindner',
      'Marktplatz, Stand 14',
      '',
      'Äpfel Elstar KG 1,250 x 2,80     3,50',
      'Birnen Conference KG 0,800 x 3,20   2,56',
      'SUMME EUR 6,06',
      'BAR EUR 10,00',
      'RÜCKGELD EUR 3,94',
    );
    expect(read(slip).sender_name?.value).toBe('Obsthof Lindner');
  });

  it("keeps a company line below a shop's sign when it carries the sign's name", () => {
    const roll = (boxes: TextBox[]): PageLayout => ({ page: 1, aspect: 3, boxes });
    const row = (text: string, y: number, size = 0.012, x = 0.1): TextBox => ({
      text,
      x,
      y,
      width: text.length * 0.025,
      height: size,
    });
    const slip = roll([
      row('HOLLYHOCK', 0.03, 0.025),
      row('12 Market Row, Exampleton', 0.07),
      row('Tel 0161 555 0188', 0.09),
      row('Seed compost 40L', 0.15),
      row('7.50', 0.15, 0.012, 0.7),
      row('Trowel', 0.17),
      row('4.25', 0.17, 0.012, 0.7),
      row('Twine', 0.19),
      row('2.10', 0.19, 0.012, 0.7),
      row('TOTAL', 0.23),
      row('13.85', 0.23, 0.012, 0.7),
      row('CASH', 0.25),
      row('20.00', 0.25, 0.012, 0.7),
      row('CHANGE', 0.27),
      row('6.15', 0.27, 0.012, 0.7),
      row('Hollyhock Garden Supplies Ltd', 0.32),
      row('Company No. 0412 5561', 0.34),
    ]);
    const result = understand({
      text: textOf(slip),
      layout: [slip],
      filename: 'r.jpg',
      categories: [],
      einvoice: null,
      today: TODAY,
    });
    expect(result.sender_name?.value).toBe('Hollyhock Garden Supplies Ltd');
  });
});

describe('what kind of document it is', () => {
  it('reads fee notes as invoices', () => {
    const kind = (text: string) => read(text).event_type?.value;
    expect(
      kind(
        doc(
          'Avv. Chiara Monti',
          'Via dei Gelsi 9, 20122 Milano',
          "NOTA D'ONORARIO n. 41/2026",
          'Data 18/05/2026',
          'Per assistenza stragiudiziale',
          'Totale 976,00 €',
        ),
      ),
    ).toBe('invoice');
    expect(
      kind(
        doc(
          'Mag. Lukas Berger',
          'Steuerberatung',
          'Honorarnote 2026-058',
          'Wien, am 18.05.2026',
          'Für Beratung im April',
          'Summe 540,00 EUR',
        ),
      ),
    ).toBe('invoice');
    expect(
      kind(
        doc(
          'Harriet Quill',
          'Translation services',
          'FEE NOTE',
          'Date: 18/05/2026',
          'Translation of lease, 12 pages',
          'Amount 312.00 GBP',
        ),
      ),
    ).toBe('invoice');
  });

  it("does not read a Swiss QR-bill's receipt part as a receipt", () => {
    const qrBill = doc(
      'Receipt',
      'Account / Payable to',
      'CH12 3000 5204 1187 7321 0',
      'Alpine Garden Care Ltd',
      'Rebhalde 12',
      '8810 Horgen',
      'Payable by',
      'Nora Feldmann',
      'Rainweg 5, 8805 Richterswil',
      'Currency Amount',
      'CHF 380.00',
      'Acceptance point',
      'Payment part',
      'Additional information',
      'Invoice 2026-144 of 11.06.2026',
    );
    expect(read(qrBill).event_type?.value).not.toBe('receipt');
  });

  it("keeps a credit note's heading over a till's shape", () => {
    const refund = doc(
      'KESTREL HOME STORE',
      '22 Quay Street, Exampleton',
      '',
      'CREDIT NOTE',
      '14/03/2026  Till 3',
      'Cushion cover, returned      12.99',
      'Lamp shade, returned         21.50',
      'TOTAL                        34.49',
      'CASH                         34.49',
    );
    expect(read(refund).event_type?.value).toBe('credit_note');
  });
});

describe('dates', () => {
  it('reads Spanish "Fecha:" and Italian "Data" right before a date as its label, not "con fecha" or "in data"', () => {
    const italian = doc(
      'Studio Tecnico Ferraris',
      'Via Po 31, 10124 Torino',
      'Rif. contratto stipulato in data 02/03/2025',
      'Data 22/09/2026',
      'Fattura n. 377',
      'Totale 23,50 €',
    );
    expect(read(italian).document_date?.value).toBe('2026-09-22');
    const spanish = doc(
      'Gestoría Peñalver',
      'Calle Luna 8, 41001 Sevilla',
      'Según contrato con fecha 10/01/2025',
      'Fecha: 22/09/2026',
      'Factura Nº 377',
      'Total 23,50 €',
    );
    expect(read(spanish).document_date?.value).toBe('2026-09-22');
  });

  it("does not take a subscription's next billing or renewal date for the document's", () => {
    const billing = doc(
      'Fernwave Music',
      'Your subscription receipt',
      '',
      'Next billing date: 14 October 2026',
      'Paid on 14 September 2026',
      'Family plan, monthly    $16.99',
      'Total $16.99',
    );
    expect(read(billing).document_date?.value).toBe('2026-09-14');
    const renewal = doc(
      'Cloudnest Storage',
      'Order confirmation',
      '',
      'Plan renews on 02/11/2026',
      'Charged 02/10/2026',
      'Storage 2 TB    $9.99',
      'Total $9.99',
    );
    expect(read(renewal).document_date?.value).toBe('2026-10-02');
  });

  it("does not take an event's date for the document's", () => {
    const invoice = doc(
      'Marigold Catering Co.',
      '12 Orchard Lane, Exampleton EX4 7QT',
      '',
      '30 September 2026',
      '',
      'Invoice INV-5527',
      'Event date: 21/11/2026',
      'Buffet for 40 guests   £1,240.00',
      'Total due £1,240.00',
    );
    expect(read(invoice).document_date?.value).toBe('2026-09-30');
  });

  it("does not read a person's name before a comma as a letter's place", () => {
    const invoice = doc(
      'Atelier Roulin Sàrl',
      'Rue du Lac 4, 1800 Vevey',
      '',
      'FACTURE 2026-144',
      'Votre commande Mme L. Garnier, 03.02.2026',
      'Vevey, 20.02.2026',
      "Table en chêne                 CHF 1'480.00",
      "Total                          CHF 1'480.00",
    );
    expect(read(invoice).document_date?.value).toBe('2026-02-20');
    const titled = invoice.replace('Votre commande Mme L. Garnier,', 'Votre commande :\nMme L. Garnier,');
    expect(read(titled).document_date?.value).toBe('2026-02-20');
  });

  it('counts Italian terms to the end of the month when "d.f." and "f.m." are written apart', () => {
    const terms = parsePaymentTerms(makeDoc('Pagamento: bonifico 90 gg d.f. f.m.').lines);
    expect(terms && dueDateFromTerms(terms, '2026-03-10')).toBe('2026-06-30');
  });
});

describe('label and value on the page', () => {
  it('pairs two labels in one cell with the two values in the cell under it', () => {
    const lines = linesOf(page([box('Invoice no. / date', 360, 200), box('R-2291 · 03.09.2026', 360, 214)]));
    expect(labelValuePairs(lines)).toEqual(['Invoice no. R-2291', 'date 03.09.2026']);
  });

  it('pairs a label with its value two lines down when a line of another column came between', () => {
    const lines = linesOf(
      page([box('Customer no.', 360, 200), box('Lindenstraße 8, 20095 Hamburg', 57, 208), box('KD-40417', 360, 216)]),
    );
    expect(labelValuePairs(lines)).toEqual(['Customer no. KD-40417']);
  });
});

describe('the address window', () => {
  const recipient = [
    box('Nora Feldmann', 330, 160),
    box('Chemin des Vignes 5', 330, 174),
    box('1814 La Tour-de-Peilz', 330, 188),
  ];
  const heading = box('Facture n° 2026-144', 57, 280);

  it('finds the window on the right half under a letterhead on the left', () => {
    const letter = page([
      box('Menuiserie Roulin', 57, 60),
      box('Rue du Lac 4', 57, 74),
      box('1800 Vevey', 57, 88),
      ...recipient,
      heading,
    ]);
    expect(findZones(linesOf(letter)).address).toEqual([
      'Nora Feldmann',
      'Chemin des Vignes 5',
      '1814 La Tour-de-Peilz',
    ]);
  });

  it('does not take a block with a phone and a web address for the window', () => {
    const letter = page([
      box('Roulin', 57, 40, 20),
      box('Menuiserie Roulin', 57, 140),
      box('Rue du Lac 4', 57, 154),
      box('1800 Vevey', 57, 168),
      box('Tél. 021 555 01 02', 57, 182),
      box('www.roulin.example', 57, 196),
      ...recipient,
      heading,
    ]);
    const zones = findZones(linesOf(letter));
    expect(zones.address).toEqual(['Nora Feldmann', 'Chemin des Vignes 5', '1814 La Tour-de-Peilz']);
    expect(zones.letterhead).toContain('Menuiserie Roulin');
  });

  it('reads the block under its own logo word as the letterhead', () => {
    const letter = page([
      box('ROULIN', 57, 40, 20),
      box('Roulin Menuiserie Sàrl', 57, 120),
      box('Rue du Lac 4', 57, 134),
      box('1800 Vevey', 57, 148),
      ...recipient,
      heading,
    ]);
    const zones = findZones(linesOf(letter));
    expect(zones.address).toEqual(['Nora Feldmann', 'Chemin des Vignes 5', '1814 La Tour-de-Peilz']);
    expect(zones.letterhead).toContain('Roulin Menuiserie Sàrl');
  });
});

describe('what reviewing these rules narrowed', () => {
  it('leaves a post office box and short words in capitals apart', () => {
    expect(withoutLetterSpacing('P O BOX')).toBe('P O BOX');
    expect(withoutLetterSpacing('A LA')).toBe('A LA');
    expect(withoutLetterSpacing('I AM')).toBe('I AM');
  });

  it('reads a numbered line before an amount as a number and the amount, not as one number', () => {
    expect(moneyTokens('Rate 2. 450,00 €')).toContainEqual([450, 'EUR']);
    expect(moneyTokens('Rate 2. 450,00 €')).not.toContainEqual([2450, 'EUR']);
  });

  it('takes two digits after a number word only where the word starts its line or cell', () => {
    expect(references('Calle del Pez número 23\n28004 Madrid')).toEqual([]);
    expect(references('Presupuesto\nNúmero\t41')).toContainEqual(['generic', '41']);
  });

  it('reads "Nº" as OCR reads it before a colon too', () => {
    expect(references('FACTURA SIMPLIFICADA\nN9: K7-20419')).toContainEqual(['generic', 'K7-20419']);
  });
});

describe('totals without labels', () => {
  it('reads three bare amounts that add up under an item table as net, tax and gross', () => {
    const invoice = doc(
      'Fattura 2026/318',
      'Posa pavimento (h)     6   41,00   246,00',
      'Battiscopa (m)         9    6,10    54,90',
      '300,90',
      '66,20',
      '€ 367,10',
    );
    expect(amountLabels(invoice).slice(-3)).toEqual([
      [300.9, 'excluded'],
      [66.2, 'excluded'],
      [367.1, 'total'],
    ]);
  });

  it('does not take item lines that happen to add up for a net, a tax and a gross', () => {
    const bill = doc(
      'Broadband 300                        £42.00',
      'Evening calls pack                    £5.00',
      'Calls over the pack                  £47.00',
    );
    expect(amountLabels(bill)).toContainEqual([47, 'none']);
    expect(amountLabels(bill)).toContainEqual([5, 'none']);
  });
});

describe('columns OCR read as separate blocks', () => {
  it('pairs a label with the amount to its right when the text has them apart, not when it prints them together', () => {
    const lines = linesOf(page([box('Importe pendiente', 57, 400), box('188,40 €', 480, 400)]));
    expect(labelValuePairs(lines, 'Importe pendiente\n\n188,40 €')).toEqual(['Importe pendiente 188,40 €']);
    expect(labelValuePairs(lines, 'Importe pendiente   188,40 €')).toEqual([]);
  });
});

describe('more about senders and dates', () => {
  it('reads the place of "Fait à …, le …" as a letter\'s place and date', () => {
    const letter = doc(
      'Menuiserie Exemple SARL',
      '4 rue des Vanniers, 35000 Rennes',
      '',
      'Facture F-2026-77',
      'Période du 01/02/2026 au 28/02/2026',
      'Total TTC 540,00 €',
      'Fait à Rennes, le 3 mars 2026',
    );
    expect(read(letter).document_date?.value).toBe('2026-03-03');
  });

  it("does not take the footer's bank for the sender", () => {
    const invoice = doc(
      'Kellner Haustechnik',
      'Ahornweg 7',
      '34119 Kassel',
      '',
      'Rechnung 2026-0731',
      'Rechnungsdatum 04.05.2026',
      'Wartung Heizungsanlage        480,00 €',
      'Gesamtbetrag                  571,20 €',
      ...Array.from({ length: 14 }, (_, i) => `Leistungsposition ${i + 1}`),
      'Nordhessen Volksbank eG',
      'IBAN DE12 5205 0000 0012 3456 78',
    );
    expect(read(invoice).sender_name?.value).toBe('Kellner Haustechnik');
  });

  it('reads a return address whose middle dots OCR read as "+", but not a French label with its spaced colon', () => {
    expect(isReturnAddress('Kellner Haustechnik GmbH + Ahornweg 7 + 34119 Kassel')).toBe(true);
    expect(isReturnAddress('Chantier : 12 rue des Lilas, 35000 Rennes')).toBe(false);
  });
});

describe('from the second round', () => {
  it('reads "S/" as soles, and a Peruvian document by its RUC', () => {
    expect(moneyTokens('Total S/ 12.00')).toEqual([[12, 'PEN']]);
    const unmarked = doc('FACTURA ELECTRÓNICA E001-77', 'RUC 20999999999', 'IMPORTE TOTAL 1,234.50');
    expect(read(unmarked).amount?.value).toEqual({ value: 1234.5, currency: 'PEN' });
  });

  it('reads Peru by its RUC and "S/" as soles, and S.A.C. as a legal form', () => {
    const invoice = doc(
      'COMERCIAL EJEMPLO DEL SUR S.A.C.   RUC 20999999999',
      'Av. Ejemplo 123, Arequipa',
      'FACTURA ELECTRÓNICA F002-00001234',
      'IMPORTE TOTAL                       S/ 1,234.50',
    );
    const result = read(invoice);
    expect(result.amount?.value).toEqual({ value: 1234.5, currency: 'PEN' });
    expect(result.sender_name?.value).toBe('COMERCIAL EJEMPLO DEL SUR S.A.C.');
  });

  it('reads "$" as New Zealand dollars beside a New Zealand city', () => {
    const invoice = doc('Tax Invoice 4410', '12 Example Road, Hamilton Hill, Auckland 0620', 'Total due   $412.50');
    expect(read(invoice).amount?.value).toEqual({ value: 412.5, currency: 'NZD' });
  });

  it("does not take a bank named beside an IBAN in the body for the sender, but a bank's own letterhead", () => {
    const notice = doc(
      'RESIDENZA ESEMPIO',
      'Via Esempio 4, 10100 Torino',
      '',
      'Avviso di pagamento rata 3/2026',
      'Importo da versare              € 412,00',
      'IBAN: IT00 X000 0000 0000 0000 0000 000 - Banca Esempio Nord S.p.A., ag. 4',
    );
    expect(read(notice).sender_name?.value).not.toBe('Banca Esempio Nord S.p.A.');
    const statement = doc(
      'Banca Esempio Nord S.p.A.',
      'Estratto conto n. 12/2026',
      'IBAN: IT00 X000 0000 0000 0000 0000 000',
      'Saldo finale € 1.204,00',
      '',
      'Polizze auto con Gruppo Esempio Assicurazioni S.p.A.',
    );
    expect(read(statement).sender_name?.value).toBe('Banca Esempio Nord S.p.A.');
  });

  it("does not take a till's salesperson for the seller", () => {
    const receipt = doc(
      'BOULANGERIE EXEMPLE',
      'SARL BOULANGERIE EXEMPLE',
      '3 rue Exemple 37000 TOURS',
      'Ticket N° 0918',
      'Vendeur : CLARA',
      'TOTAL 7,40 €',
    );
    expect(read(receipt).sender_name?.value).toBe('SARL BOULANGERIE EXEMPLE');
  });

  it('keeps the payment deadline over a labelled date a year out (an inspection, a renewal)', () => {
    const invoice = doc(
      'Garage Voorbeeld',
      'Factuurdatum 09-06-2025',
      'APK goedgekeurd, vervaldatum APK 09-06-2026',
      'Totaal te betalen € 212,00',
      'Betaling binnen 14 dagen, uiterlijk 23-06-2025',
    );
    expect(read(invoice).due_date?.value).toBe('2025-06-23');
  });

  it('reads Dutch terms counted from the invoice date when the verb runs onto the next line', () => {
    const invoice = doc(
      'Praktijk Voorbeeld',
      'Factuurdatum 11-05-2026',
      'Totaal € 120,00',
      'Wij verzoeken u het bedrag binnen 30 dagen na factuurdatum over te',
      'maken op onze rekening.',
    );
    expect(read(invoice).due_date?.value).toBe('2026-06-10');
  });

  it('reads "À payer jusqu\'au" as the due date', () => {
    const bill = doc('Facture 2026-41', 'Date : 02.04.2026', "À payer jusqu'au 19.06.2026", 'Total CHF 89.00');
    expect(read(bill).due_date?.value).toBe('2026-06-19');
  });
});

describe('senders, from the second round too', () => {
  it("does not take a limited partnership's general partner for the sender", () => {
    const invoice = doc(
      'Wohnwelt Beispiel',
      'Beispielstraße 4, 35390 Gießen',
      '',
      'Rechnung 26-0041',
      'Gesamtbetrag 1.204,00 €',
      ...Array.from({ length: 12 }, (_, i) => `Position ${i + 1}`),
      'Beispiel Verwaltungs-GmbH, AG Gießen HRB 5678',
      'Möbelhaus Beispiel GmbH & Co. KG',
      'Sitz Gießen, AG Gießen HRA 1234',
    );
    expect(read(invoice).sender_name?.value).toBe('Möbelhaus Beispiel GmbH & Co. KG');
  });

  it("does not take a payment stub's headings for a name", () => {
    const bill = doc(
      'Example Dental Associates',
      'PAY BY   AMOUNT DUE',
      '120 Example Ave, Suite 4',
      'Springfield, IL 62704',
      'Statement 2026-118',
      'Amount due $84.20',
    );
    expect(read(bill).sender_name?.value).toBe('Example Dental Associates');
  });
});

describe('places, from the second round', () => {
  it('reads an Australian state and postcode as a town line, so a window on the left is the recipient', () => {
    expect(isPostcodeLine('EXAMPLETON VIC 3999')).toBe(true);
    expect(isPostcodeLine('Example Creek, NSW 2999')).toBe(true);
  });

  it('reads "$" as Argentine pesos in Buenos Aires, but not for a word that starts like its short name', () => {
    expect(moneyTokens('CIUDAD AUTONOMA DE BUENOS AIRES\nTOTAL $ 1.250,00')).toContainEqual([1250, 'ARS']);
    expect(moneyTokens('CABA\nTOTAL $ 1.250,00')).toContainEqual([1250, 'ARS']);
    expect(moneyTokens('Alquiler de cabaña\nTOTAL $ 1.250,00')).not.toContainEqual([1250, 'ARS']);
  });
});
