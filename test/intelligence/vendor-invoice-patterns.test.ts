/**
 * Invoices as vendors print them, not as a template would: India's digit groups, a net total that looks like a
 * payment term, a direct-debit sentence broken over two lines. Every name and number is invented.
 */
import { describe, expect, it } from 'vitest';
import { findAmounts } from '../../server/intelligence/amounts.ts';
import { rejoinTableRows } from '../../server/intelligence/columns.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';
import { CATEGORIES, TODAY } from './sample-types.ts';

const read = (text: string) =>
  understand({ text, filename: 'invoice.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });

describe("India's lakh and crore digit groups", () => {
  it('reads 2,48,315.00 as one amount', () => {
    const amounts = (text: string) => findAmounts(makeDoc(text), new Map()).map((c) => c.value);
    expect(amounts('Invoice Total (₹) 2,48,315.00')).toEqual([248315]);
    expect(amounts('Grand Total Rs. 12,34,567.50')).toEqual([1234567.5]);
    // Groups of three are read as before.
    expect(amounts('Total 1,234,567.50')).toEqual([1234567.5]);
    expect(amounts('Summe 1.234,56 EUR')).toEqual([1234.56]);
  });
});

describe('a net total is no payment term', () => {
  it('does not read "netto 41,38" as net 41 days, and still reads "netto 30 Tage"', () => {
    const bill = (line: string) =>
      `Fernmelde Beispiel GmbH\nRechnung Nr. 4471\nRechnungsdatum 10.11.2026\n${line}\nGesamtbetrag 42,45 EUR`;
    expect(read(bill('Summe netto 41,38')).due_date).toBeUndefined();
    expect(read(bill('Zahlbar netto 30 Tage')).due_date?.value).toBe('2026-12-10');
  });

  it('keeps a payment clause whole across an amount with a comma', () => {
    const letter =
      'Kestrel Office Supplies Ltd\nInvoice No. KO-5273\nDate: 16 November 2026\nTotal overdue £1,082.40\n' +
      'We would be grateful if you could arrange payment of £1,082.40 within 7 days of the date of this letter.';
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

describe('what would be paid on another day', () => {
  it('is not the amount: neither the sum after a cash discount nor the discount itself', () => {
    const bill =
      'Nordwerk Systeme GmbH\nRechnung Nr. 2026-7781\nRechnungsdatum 09.11.2026\nSumme netto 2.000,00\n' +
      'zzgl. 19 % USt. 380,00\nRechnungsbetrag 2.380,00 EUR\nZahlungsbedingungen: Zahlbar bis 23.11.2026 ohne Abzug.\n' +
      'Bei Zahlung bis 16.11.2026 gewähren wir 2 % Skonto (47,60 €); Zahlbetrag dann 2.332,40 €.';
    expect(read(bill).amount?.value).toEqual({ value: 2380, currency: 'EUR' });
  });

  it('is not the amount with a late fee printed under it', () => {
    const bill =
      'Skyline Fibre Pvt Ltd\nBill No. SF/26/0912\nBill Date: 01/11/2026\nDue Date: 15/11/2026\n' +
      'Pay by Due Date ₹ 1,499.00\nPay after Due Date ₹ 1,599.00 (includes late payment fee of ₹ 100.00)';
    expect(read(bill).amount?.value).toEqual({ value: 1499, currency: 'INR' });
  });
});

describe('a reminder asks for its amount in its own language', () => {
  it.each([
    ['fr', 'Nous vous prions de bien vouloir procéder au règlement du solde de 640,00 € avant le 30 novembre 2026.'],
    ['nl', 'Wij verzoeken u het openstaande bedrag van € 640,00 binnen 7 dagen over te maken.'],
    ['es', 'Le rogamos que proceda a abonar el importe pendiente de 640,00 € en un plazo de 7 días.'],
    ['it', 'Vi preghiamo di voler saldare l’importo di 640,00 € entro 7 giorni.'],
  ])('%s', (_language, sentence) => {
    const reminder = `Atelier Beispiel\n12 Rue Exemple, 75001 Paris\nRappel / Herinnering / Recordatorio / Sollecito\n${sentence}`;
    expect(read(reminder).amount?.value.value).toBe(640);
  });
});

describe("a document's number in a header row over one row of values", () => {
  const facture = [
    'Ébénisterie Exemple SARL',
    'FACTURE',
    'N° de facture        Date              Code client      Votre commande',
    'F2026-2210           04/11/2026        C0977            BC-2026-31',
    '',
    'Total TTC 1 200,00 €',
  ].join('\n');

  it('is paired with its label; amounts and dates are left to their own readers', () => {
    expect(rejoinTableRows(facture.split('\n'))).toEqual([
      'N° de facture F2026-2210',
      'Code client C0977',
      'Votre commande BC-2026-31',
    ]);
    expect(read(facture).reference_number?.value).toBe('F2026-2210');
  });

  it("reads a reminder's invoice number from its table, not the reminder's own dates", () => {
    const reminder = [
      'Kestrel Office Supplies Ltd',
      'Payment reminder',
      'Date: 16 November 2026',
      'Invoice No.     Invoice Date     Due Date       Original       Outstanding',
      'KO-22817        25/09/2026       25/10/2026     £1,346.18      £1,082.40',
      '',
      'Account No: ACC-0042',
    ].join('\n');
    const read2 = read(reminder);
    expect(read2.reference_number?.value).toBe('KO-22817');
    expect(read2.document_date?.value).toBe('2026-11-16');
  });

  it('leaves item tables and tables of several rows alone', () => {
    const items = ['Qty   Item              Code       Total', '2     Paper A4          PA-4       12.90'];
    expect(rejoinTableRows(items)).toEqual([]);
    const several = [
      'Invoice No.     Invoice Date     Order',
      'KO-22817        25/09/2026       PO-1',
      'KO-22818        26/09/2026       PO-2',
    ];
    expect(rejoinTableRows(several)).toEqual([]);
  });
});

describe('an invoice number spaced as a typewriter would', () => {
  it('reads "N. 48 / 2026" as 48/2026', () => {
    const fattura = 'Studio Esempio\nVia Roma 1, 00100 Roma\nFATTURA N. 48 / 2026\nData 04/11/2026\nTotale 1.220,00 €';
    expect(read(fattura).reference_number?.value).toBe('48/2026');
  });
});

describe('who sent it, in the six languages', () => {
  it('is not the payee a payment slip at the foot addresses "To:"', () => {
    const invoice = [
      'BLUEGUM',
      'Bluegum Plumbing Pty Ltd',
      'ABN 12 345 678 901',
      '4/18 Example Street, Dandenong VIC 3175',
      '',
      'TAX INVOICE',
      'Invoice Number: 31552',
      'Invoice Date: 12/11/2026',
      'AMOUNT DUE AUD 418.00',
      '',
      'PAYMENT ADVICE',
      'To: Bluegum Plumbing Pty Ltd, 4/18 Example Street, Dandenong VIC 3175',
      'Amount Due 418.00',
    ].join('\n');
    expect(read(invoice).sender_name?.value).toBe('Bluegum Plumbing Pty Ltd');
  });

  it("is not the buyer after the languages' own recipient openers, nor a street without its number", () => {
    const fattura = [
      'STUDIO TECNICO ESEMPIO',
      'Ing. Paolo Esempio',
      'Viale Roma, 12 – 50100 Firenze – tel. 055 000 0000',
      'P.IVA 01234567890',
      '',
      'Spett.le',
      'Condominio Le Querce',
      'c/o Amministrazione Modello Srl',
      'Via dei Pini, 3',
      '50124 Firenze',
      '',
      'FATTURA N. 12/2026 del 04/11/2026',
      'Totale documento 1.220,00 €',
    ].join('\n');
    expect(read(fattura).sender_name?.value).toBe('STUDIO TECNICO ESEMPIO');
    const factura = [
      'mb · estudio',
      'Marta Blanco Ejemplo',
      'Ilustración editorial y web',
      'NIF 12345678-Z',
      'C/ Mayor, 5, 2º',
      '46001 València',
      '',
      'FACTURA Nº 2026-007',
      'Facturar a:',
      'Ejemplo Cervezas, S.L.',
      'Calle Nueva 8',
      '46002 València',
      'Total 726,00 €',
    ].join('\n');
    expect(read(factura).sender_name?.value).toBe('Marta Blanco Ejemplo');
  });
});

describe('a direct debit in the other languages', () => {
  it.each([
    ['fr', 'Ce montant sera prélevé sur votre compte à partir du 20/11/2026.'],
    ['en', "We'll collect this by Direct Debit on or just after 20 November 2026."],
    ['nl', 'Wij schrijven dit bedrag rond 20-11-2026 af van uw rekening.'],
    ['es', 'Este recibo se cargará en su cuenta ES00 0000 0000 0000 0000 0000 con fecha 20/11/2026.'],
  ])('%s: the debit date is the due date', (_language, sentence) => {
    const bill = `Energie Exemple\nFacture / Factuur / Bill / Factura Nº 2026-881\nDate: 05/11/2026\nTotal 84,20 €\n${sentence}`;
    expect(read(bill).due_date?.value).toBe('2026-11-20');
  });

  it('reads a Dutch deadline in a sentence asking to transfer', () => {
    const reminder =
      'Voorbeeld Installatie B.V.\nAanmaning\nDatum: 20-11-2026\n' +
      'Wij verzoeken u het openstaande bedrag van € 410,00 uiterlijk op 05-12-2026 over te maken.';
    expect(read(reminder).due_date?.value).toBe('2026-12-05');
  });
});

describe("the document's own number, in the other languages", () => {
  it.each([
    ["NOTE D'HONORAIRES N° 2026-129", '2026-129'],
    ['Notanummer 6120 3357', '6120 3357'],
    ['Nº de recibo: 2026-11-0042', '2026-11-0042'],
    ['Bolletta n. 2026/0045510001', '2026/0045510001'],
    ['Nº: R-2026-0071', 'R-2026-0071'],
    ['NOTA DI CREDITO n. NC 23/2026 del 10/11/2026', 'NC 23/2026'],
  ])('%s', (line, number) => {
    const text = `Esempio Servizi\n${line}\nData 10/11/2026\nTotale 120,00 €`;
    expect(read(text).reference_number?.value).toBe(number);
  });

  it('is not the number of the invoice a credit note corrects, nor an amount after a document word', () => {
    const abono = 'Ejemplo Reformas S.L.\nABONO\nNº: R-2026-0071\nRectifica a: Factura 2026-F-3001\nTotal -200,00 €';
    expect(read(abono).reference_number?.value).toBe('R-2026-0071');
    const nota =
      'Cartoleria Esempio\nNOTA DI CREDITO n. NC 23/2026\nA storno parziale della fattura n. 280/2026\nTotale 20,00 €';
    expect(read(nota).reference_number?.value).toBe('NC 23/2026');
    const recibo = 'Comunidad de Propietarios Ejemplo\nRECIBO DE COMUNIDAD\nTOTAL RECIBO 218,40 €';
    expect(read(recibo).reference_number?.value).not.toBe('218');
  });
});

describe('letterheads of small businesses', () => {
  it("takes the business over its owner's line, and an Italian sole trader with its owner", () => {
    const receipt =
      'Tankstelle Beispiel\nInh. Gerd Beispiel e.K.\nHauptstr. 12\n91154 Roth\nSumme EUR 52,10\nGegeben EC-Karte 52,10';
    expect(read(receipt).sender_name?.value).toBe('Tankstelle Beispiel');
    const nota = 'Cartoleria Esempio\ndi Rossi Anna\nVia Roma 12 - 40126 Bologna\nFATTURA n. 88/2026\nTotale 120,00 €';
    expect(read(nota).sender_name?.value).toBe('Cartoleria Esempio di Rossi Anna');
  });

  it('takes the name over a list of trades, and never a business park or a bank line', () => {
    const facture = [
      'MENUISERIE EXEMPLE & FILS',
      'Charpente · Couverture · Zinguerie',
      'ZA des Trois Ormes - 7 rue des Artisans - 37550 Saint-Avertin',
      'FACTURE N° 2026-0436',
      'Total TTC 1 200,00 €',
      'RIB : Banque Exemple - IBAN FR76 3000 6000 0112 3456 7890 189 - BIC EXMPFRPP',
    ].join('\n');
    expect(read(facture).sender_name?.value).toBe('MENUISERIE EXEMPLE & FILS');
  });

  it("takes a person's letterhead over their profession and specialities", () => {
    const note = [
      'Jeanne EXEMPLE-MARTIN',
      'Avocate au Barreau de Rennes',
      'Droit de la famille - Droit des successions',
      '28 quai Exemple - 69001 Lyon - Tél. 04 00 00 00 00',
      'Madame Odile Exemple',
      '5 montée des Carmes',
      '69005 Lyon',
      "NOTE D'HONORAIRES N° 2026-120",
      'Total TTC 960,00 €',
    ].join('\n');
    expect(read(note).sender_name?.value).toBe('Jeanne EXEMPLE-MARTIN');
  });
});

describe('bills named as their languages name them', () => {
  it('reads a Dutch annual bill and its balance to pay, and an Italian bolletta with its offer name', () => {
    const nota =
      'Energie Voorbeeld B.V.\nJaarnota 2026\nNotanummer 6120 3357\nTotaal incl. btw 3.100,00\nU moet nog betalen 142,40';
    const dutch = read(nota);
    expect(dutch.event_type?.value).toBe('invoice');
    expect(dutch.amount?.value).toEqual({ value: 142.4, currency: 'EUR' });
    const bolletta =
      'Energia Esempio S.p.A.\nBOLLETTA n. 2026/0045510001\nOfferta "Casa Verde Fisso"\nTotale da pagare 88,20 €';
    expect(read(bolletta).event_type?.value).toBe('invoice');
  });
});

describe("a reminder's reference", () => {
  it("is the invoice it reminds of, not the sender's file mark", () => {
    const reminder =
      'Voorbeeld Installatie B.V.\nAanmaning\nDatum: 20-11-2026\nOns kenmerk: DEB-5208 / factuur 2026-1264\n' +
      'Betreft: openstaande factuur 2026-1264\nWij verzoeken u het openstaande bedrag van € 410,00 binnen 7 dagen over te maken.';
    expect(read(reminder).reference_number?.value).toBe('2026-1264');
  });
});

describe('a reminder that names its invoice', () => {
  it('is a reminder whose amount is the one in its table, however often it names the invoice', () => {
    const sollecito = [
      'Esempio Forniture S.r.l.',
      'Via Roma 3 - 00100 Roma',
      'Oggetto: sollecito di pagamento – fattura n. 201/2026 del 15/09/2026 ancora aperta',
      'Dalle nostre registrazioni la fattura indicata risulta ancora da saldare.',
      'Fattura n.      Data            Scadenza        Importo',
      '201/2026        15/09/2026      15/10/2026      € 1.210,00',
    ].join('\n');
    const read2 = read(sollecito);
    expect(read2.event_type?.value).toBe('notice');
    expect(read2.amount?.value).toEqual({ value: 1210, currency: 'EUR' });
  });
});

describe('the currency of a "$" by its country', () => {
  it('reads Mexican and Argentine pesos from their tax ids', () => {
    const mexico =
      'TIENDA EJEMPLO S.A. DE C.V.\nRFC: TEJ010101AB1\nTICKET: 6254\nTOTAL $312.50\n(TRESCIENTOS DOCE PESOS 50/100 M.N.)';
    expect(read(mexico).amount?.value).toEqual({ value: 312.5, currency: 'MXN' });
    const argentina =
      'Materiales Ejemplo S.R.L.\nCUIT: 30-00000000-1\nFactura B Nº 0004-00018342\nImporte Total: $ 3332,00';
    expect(read(argentina).amount?.value).toEqual({ value: 3332, currency: 'ARS' });
  });
});

describe("a till receipt's own number", () => {
  it("is the check, ticket, folio or bon number, not the card slip's or a masked card's", () => {
    const check =
      'The Example Grill\nCheck #3318   Table 12\nTotal 58.40\nVISA ************1049\nAuth Code: 77120A  Ref#: 0533';
    expect(read(check).reference_number?.value).toBe('3318');
    const bon =
      'Beispiel Drogerie\nKasse 02  Bon-Nr. 6105\nSUMME EUR 12,40\nBeleg-Nr. 2264   Karte ####3377\nEC-Karte 12,40';
    expect(read(bon).reference_number?.value).toBe('6105');
    const clubcard = 'Example Stores Ltd\nClubcard Number ************5062\nTOTAL 23.10\nSTORE 3106 TILL 04 TRANS 7420';
    expect(read(clubcard).reference_number?.value).toBe('7420');
    const oxxo = 'TIENDA EJEMPLO\nTICKET: 6254    CAJA: 2\nTOTAL $312.50\nEFECTIVO $300.00\nCAMBIO $62.50';
    expect(read(oxxo).reference_number?.value).toBe('6254');
  });

  it("is never a company register's folio", () => {
    const abono =
      'Ejemplo Reformas S.L.\nABONO\nNº: R-2026-0071\nTotal -200,00 €\nInscrita en el Registro Mercantil de Valencia, Tomo 2875, Libro 2208, Folio 264';
    expect(read(abono).reference_number?.value).toBe('R-2026-0071');
  });
});

describe('names that end where their column ends', () => {
  it('does not join a name to the web address or the box in the next column', () => {
    const bill =
      'EXAMPLE POWER & LIGHT           examplepower.example\nAccount Number 5273 3018\nAmount Due $84.20\nDue Date 12/01/2026';
    expect(read(bill).sender_name?.value).toBe('EXAMPLE POWER & LIGHT');
    const factura = 'MATERIALES EJEMPLO S.R.L.        B        FACTURA\nCUIT: 30-00000000-1\nImporte Total: $ 3332,00';
    expect(read(factura).sender_name?.value).toBe('MATERIALES EJEMPLO S.R.L.');
  });
});

describe('dates and due dates as more senders print them', () => {
  it('reads "14MAR26" and the Spanish "Vto. para el pago" and "Fecha de cargo"', () => {
    const ticket = 'Example Airways\nDate of issue:  14MAR26\nTicket number: 412 2418830001\nTotal EUR 212.40';
    expect(read(ticket).document_date?.value).toBe('2026-03-14');
    const factura =
      'Ejemplo S.L.\nFactura Nº 2026/77\nFecha: 20/10/2026\nFecha de Vto. para el pago: 05/11/2026\nTotal 121,00 €';
    expect(read(factura).due_date?.value).toBe('2026-11-05');
    const recibo =
      'Eléctrica Ejemplo S.A.\nFactura Nº FE26-000111\nFecha de emisión: 03/11/2026\nFecha de cargo: 13/11/2026\nTotal 61,20 €';
    expect(read(recibo).due_date?.value).toBe('2026-11-13');
  });
});

describe('the last day for a cash discount', () => {
  it('is not the due date; the payment term is', () => {
    const bill = (line: string) =>
      `Beispiel Haustechnik GmbH\nRechnung Nr. 2026-501\nRechnungsdatum 03.11.2026\nGesamtbetrag 5.570,50 EUR\n${line}`;
    expect(
      read(
        bill('Bei Zahlung bis 10.11.2026 gewähren wir 2 % Skonto.\nZahlbar innerhalb von 14 Tagen ab Rechnungsdatum.'),
      ).due_date?.value,
    ).toBe('2026-11-17');
    expect(read(bill('Zahlbar bis 24.11.2026 ohne Abzug oder bis 10.11.2026 mit 2 % Skonto.')).due_date?.value).toBe(
      '2026-11-24',
    );
  });
});

describe('the fourth batch: debits, alternatives, negations, sites and receipts', () => {
  it('reads a debit in English "on or after", in French with its accents, and in German over two lines', () => {
    const bill = (line: string) =>
      `Example Water Ltd\nInvoice No. EW-6915\nInvoice date: 12 Oct 2026\nTotal £64.93\n${line}`;
    expect(
      read(bill("We'll collect £64.93 by Direct Debit on or after 27 Oct 2026 from your account.")).due_date?.value,
    ).toBe('2026-10-27');
    const facture =
      'Eau Exemple SA\nFacture N° 2026-88\nDate : 03/11/2026\nTotal 84,20 €\nPrélèvement automatique le 09/12/2026 sur le compte FR76 ****';
    expect(read(facture).due_date?.value).toBe('2026-12-09');
    const rechnung =
      'Stadtwerke Beispiel\nRechnung Nr. 4471\nRechnungsdatum 03.11.2026\nNachzahlung 98,64 €\n' +
      'Den Nachzahlungsbetrag von 98,64 € buchen wir am 24.11.2026 von Ihrem Konto\nIBAN DE12 XXXX XXXX XX21 ab.';
    expect(read(rechnung).due_date?.value).toBe('2026-11-24');
  });

  it('reads the net term beside a cash-discount alternative', () => {
    const bill =
      'Malerbetrieb Beispiel\nRechnung Nr. 2026-61\nRechnungsdatum 14.10.2026\nGesamtbetrag 2.844,10 €\n' +
      'Zahlbar innerhalb 10 Tagen mit 2 % Skonto oder 30 Tage netto ohne Abzug.';
    expect(read(bill).due_date?.value).toBe('2026-11-13');
  });

  it('is not a receipt because it says it is not one; a rent call is a bill dated by its place line', () => {
    const avis = [
      'Gestion Immobilière Exemple',
      "AVIS D'ÉCHÉANCE",
      "N° d'avis : AE-202612-00091",
      'Locataire : Mme Exemple  Lot n° 0112 - Appt B2',
      'Bordeaux, le 20/11/2026',
      "Date d'exigibilité : 06/12/2026",
      'Total à payer 845,00 €',
      "Cet avis d'échéance ne vaut pas quittance.",
    ].join('\n');
    const read2 = read(avis);
    expect(read2.event_type?.value).toBe('invoice');
    expect(read2.reference_number?.value).toBe('AE-202612-00091');
    expect(read2.document_date?.value).toBe('2026-11-20');
    expect(read2.due_date?.value).toBe('2026-12-06');
  });

  it('is no receipt where it says it is not one', () => {
    const releve =
      'Syndic Exemple\nRelevé de charges 2026\nMontant à payer 212,00 €\nÀ régler avant le 15/12/2026.\nCe relevé ne vaut pas quittance.';
    expect(read(releve).event_type?.value).not.toBe('receipt');
  });

  it('takes the name over a one-line address that starts with a house or a site', () => {
    const invoice =
      'Example Veterinary Practice\nThe Old Barn, Mill Lane, Exampleton EX7 6AA\nInvoice No. 6408\nTotal £120.00';
    expect(read(invoice).sender_name?.value).toBe('Example Veterinary Practice');
    const factura =
      'ESCUELA DE MÚSICA EJEMPLO\nC/ San Vicente de Paúl, 3 · 50001 Zaragoza · Tel. 976 00 00 00\nFactura Nº 2026-11\nTotal 85,00 €';
    expect(read(factura).sender_name?.value).toBe('ESCUELA DE MÚSICA EJEMPLO');
  });

  it("takes a till's receipt number before its transaction counter, and a 'Bon' number in a footer line", () => {
    const receipt = 'Example Foods\nRECEIPT NO 0411-02-6613\nTOTAL 12.40\nCARD 12.40\nOP 2087   TRANS 6613';
    expect(read(receipt).reference_number?.value).toBe('0411-02-6613');
    const bon = 'Bakkerij Voorbeeld\nTOTAAL 7,45\nPIN 7,45\nFiliaal 2041  Kassa 5  Bon 5127   09-11-2026 18:02';
    expect(read(bon).reference_number?.value).toBe('5127');
  });
});

describe('the fifth batch: spaced numbers, withholding, pesos, provinces and terms', () => {
  it('reads numbers spaced around a hyphen and all-digit numbers that only look like dates', () => {
    const factuur = 'Voorbeeld Webdesign\nFactuurnummer:   2026 - 00734\nFactuurdatum: 01-11-2026\nTe betalen € 242,00';
    expect(read(factuur).reference_number?.value).toBe('2026-00734');
    const rechnung = 'Beispiel Sanitär GmbH\nRechnung Nr. 26-09-0412\nRechnungsdatum 04.11.2026\nGesamtbetrag 312,00 €';
    expect(read(rechnung).reference_number?.value).toBe('26-09-0412');
  });

  it('takes what is left to pay after a withholding, and a total whose tax note follows the tax name', () => {
    const factura =
      'Ejemplo Consultores S.A.S.\nFactura Nº FE-1120\nFecha: 03/11/2026\nTotal factura 4.200.000,00\n' +
      'Retención en la fuente 11%  -462.000,00\nNeto a pagar  COP  3.738.000,00';
    expect(read(factura).amount?.value).toEqual({ value: 3738000, currency: 'COP' });
    const fattura = 'Esempio Sagl\nFattura n. 2026/41\nData 04/11/2026\nTotale (IVA 7.7% inclusa)   CHF   640.00';
    expect(read(fattura).amount?.value).toEqual({ value: 640, currency: 'CHF' });
  });

  it("reads Chile's peso, and an Italian province code is no ringgit", () => {
    const boleta = 'Ejemplo SpA\nRUT 76.000.000-0\nBoleta Nº 33871\nTotal a pagar   $18.540';
    expect(read(boleta).amount?.value).toEqual({ value: 18540, currency: 'CLP' });
    const fattura = 'Idraulica Esempio\nVia Roma 1, 00184 Roma (RM)\nFattura n. 88/2026\nNetto a pagare 611,90';
    expect(read(fattura).amount?.value).toEqual({ value: 611.9, currency: 'EUR' });
  });

  it('turns a Dutch "betaaltermijn" into a due date and reads a French deadline to transfer', () => {
    const factuur =
      'Voorbeeld Webdesign\nFactuurnummer: 2026-00981\nFactuurdatum: 01-11-2026\nTe betalen € 242,00\nBetaaltermijn: 14 dagen na factuurdatum';
    expect(read(factuur).due_date?.value).toBe('2026-11-15');
    const facture =
      'Atelier Exemple\nFacture N° 2026-55\nDate : 02/11/2026\nTotal TTC 480,00 €\nMerci de verser ce montant au plus tard le 16 novembre 2026.';
    expect(read(facture).due_date?.value).toBe('2026-11-16');
  });

  it("does not take a Mexican invoice's receptor for its sender", () => {
    const factura =
      'TALLER EJEMPLO HERMANOS\nEmisor: Taller Ejemplo Hermanos\nReceptor: DISTRIBUIDORA EJEMPLO SA DE CV     RFC: DEJ010101AB1\nTotal $3,915.00';
    expect(read(factura).sender_name?.value).not.toMatch(/DISTRIBUIDORA/);
  });
});

describe("a French reminder's balance", () => {
  it('is the "reste dû" after the reminder fee, not the amount invoiced', () => {
    const relance =
      'Plomberie Exemple SARL\nRelance : facture impayée\nSauf erreur de notre part, la facture 2026/7001 reste impayée.\n' +
      'Montant facturé 600,00 €\nFrais de relance 5,00 €\nReste dû 605,00 €';
    expect(read(relance).amount?.value).toEqual({ value: 605, currency: 'EUR' });
  });
});

describe('the sixth batch: balances, schedules and labels under their values', () => {
  it('takes the balance left to pay after an advance, in Spanish and Italian', () => {
    const factura =
      'Notaría Ejemplo\nFactura Nº N-26/0101\nFecha: 05/10/2026\nTotal factura 912,30 €\n' +
      'Provisión de fondos recibida (05/04/2026)  -700,00 €\nIMPORTE PENDIENTE  212,30 €';
    expect(read(factura).amount?.value).toEqual({ value: 212.3, currency: 'EUR' });
    const rendiconto =
      'Amministrazione Esempio\nRendiconto n. OA-2025/001\nData 10/10/2026\nTotale spese 1.522,40 €\nCONGUAGLIO A SUO DEBITO   €  187,60';
    const it2 = read(rendiconto);
    expect(it2.amount?.value).toEqual({ value: 187.6, currency: 'EUR' });
    expect(it2.reference_number?.value).toBe('OA-2025/001');
  });

  it('reads plural due labels and a Dutch "betalingsconditie"', () => {
    const factura =
      'Ejemplo Mayorista S.L.\nFactura Nº FM-26-0101\nFecha: 17/09/2026\nTotal 1.644,05 €\nVENCIMIENTOS:  17/10/2026   1.644,05';
    expect(read(factura).due_date?.value).toBe('2026-10-17');
    const factuur =
      'Voorbeeld Software B.V.\nFactuurnummer: VS-26-011\nFactuurdatum: 01-10-2026\nTotaal USD 1.200,00\n' +
      'Betalingsconditie: 45 dagen na factuurdatum, in USD.';
    expect(read(factuur).due_date?.value).toBe('2026-11-15');
  });

  it('pairs a number with its label in a two-column header, or printed under it', () => {
    const rechnung =
      'Beispiel Elektro GmbH\nRechnungsnummer      Rechnungsdatum\nTW-26-0101           29. Juni 2026\nAbzüglich Anzahlung (Rechnung TW-26-0099)\nGesamtbetrag 4.760,00 €';
    expect(read(rechnung).reference_number?.value).toBe('TW-26-0101');
    const invoice =
      'Example Traders Ltd\nINV-2026-10-00101      October 2, 2026      November 1, 2026\n' +
      'Invoice number         Date of issue        Date due\nAmount due £1,200.00';
    expect(read(invoice).reference_number?.value).toBe('INV-2026-10-00101');
  });

  it('takes the name over a tagline of trades set apart by dashes', () => {
    const factuur =
      'Traiteur Het Voorbeeld bv\nCatering - Walking dinners - Bedrijfsfeesten\nDorpsstraat 5, 1234 AB Voorbeeld\nFactuur 2026-031\nTotaal € 2.400,00';
    expect(read(factuur).sender_name?.value).toBe('Traiteur Het Voorbeeld bv');
  });
});

describe("the seventh batch: a household's year", () => {
  it('takes the debit date over an instalment plan or a period the bill also prints', () => {
    const strom =
      'Stadtwerke Beispiel\nJahresabrechnung Strom 2025\nRechnungsdatum 12.03.2026\nNachzahlung 84,20 €\n' +
      'Den Betrag buchen wir am 02.04.2026 von Ihrem Konto ab.\nNeuer Abschlag 112,00 €, fällig am 15.11.2026';
    expect(read(strom).due_date?.value).toBe('2026-04-02');
  });

  it('reads a debit whose date opens the next line, and "payable jusqu\'au"', () => {
    const insurance =
      'Example Insurance DAC\nPremium invoice HI-2026-0101\nDate: 01/03/2026\nTotal premium €512.70\n' +
      'The total premium of €512.70 will be collected in one payment by direct debit on\n01/04/2026 from your account.';
    expect(read(insurance).due_date?.value).toBe('2026-04-01');
    const club =
      "Club Exemple\nFacture N° 2026-031\nDate : 01/03/2026\nCotisation 2026 : 240,00 CHF\nPayable jusqu'au 31 mars 2026.";
    expect(read(club).due_date?.value).toBe('2026-03-31');
  });

  it('never names a complaints body in the footer as the sender', () => {
    const facture =
      "EAUX EXEMPLE\nFacture N° 2026-0501\nDate : 12/04/2026\nTotal TTC 84,10 €\nEn cas de litige : Médiation de l'eau, BP 62018, 75341 Paris";
    expect(read(facture).sender_name?.value).toBe('EAUX EXEMPLE');
  });
});

describe('the eighth batch: end-of-month terms and British receipts', () => {
  it('reads "zahlbar bis Monatsende" and "entro fine mese" as the end of the document\'s month', () => {
    const rechnung =
      'Beispiel Großhandel GmbH\nRechnung Nr. 2026-771\nRechnungsdatum 14.10.2026\nGesamtbetrag 512,00 €\nZahlungsbedingung: zahlbar bis Monatsende ohne Abzug.';
    expect(read(rechnung).due_date?.value).toBe('2026-10-31');
    const fattura =
      'Esempio Srl\nFattura n. 2026/118\nData 05/11/2026\nTotale 244,00 €\nPagamento: bonifico entro fine mese.';
    expect(read(fattura).due_date?.value).toBe('2026-11-30');
  });

  it('reads pounds on a British till receipt that prints no £ sign', () => {
    const receipt =
      'Example Foods\n12 Market Place, Exampleton KT9 2ZQ\nVAT No. 771 0000 00\nSemi skimmed milk 1.20\nWholemeal bread 1.45\nTOTAL 2.65\nCARD 2.65\nThank you for shopping with us, please keep your receipt';
    expect(read(receipt).amount?.value).toEqual({ value: 2.65, currency: 'GBP' });
  });
});

describe("the sender's confidence when two names compete", () => {
  it('is under 0.8 when a brand at the top is not the name chosen, and stays when the names agree', () => {
    const receipt = (top: string) =>
      `${top}\nBaumarkt Beispiel KG\nHauptstr. 12, 91154 Roth\nSUMME EUR 52,10\nGegeben EC-Karte 52,10`;
    const competing = read(receipt('SÄGE & SCHRAUBE')).sender_name;
    expect(competing?.value).toBe('Baumarkt Beispiel KG');
    expect(competing!.confidence).toBeLessThan(0.8);
    const agreeing = read(receipt('BEISPIEL')).sender_name;
    expect(agreeing!.confidence).toBeGreaterThanOrEqual(0.8);
  });
});
