/**
 * Reading rules found on the third blind round of rendered documents: who sent a till slip, a bill or a fee note,
 * and which number is the document's own. Every name, address and number below is invented.
 */
import { describe, expect, it } from 'vitest';
import { linesOf } from '../../server/intelligence/layout/lines.ts';
import { receiptMerchant } from '../../server/intelligence/layout/receipt.ts';
import type { TextBox } from '../../server/intelligence/layout-types.ts';
import { findParties, isReturnAddress, type PartyLayout } from '../../server/intelligence/parties.ts';
import { findReferences } from '../../server/intelligence/references.ts';
import { cellsOf } from '../../server/intelligence/columns.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';
import { CATEGORIES, moneyTokens, TODAY } from './sample-types.ts';

const lines = (...text: string[]) => text.join('\n');
const sender = (text: string, layout?: PartyLayout) => findParties(makeDoc(text), layout).sender?.name ?? null;
const slip = (merchant: string): PartyLayout => ({
  address: [],
  issuer: [],
  merchant: { text: merchant, prominent: true },
});
/** [kind, value] of every reference, with the columns a text layer sets apart by tabs. */
const references = (text: string) =>
  findReferences(makeDoc(text), text.split('\n').map(cellsOf)).map((r) => [r.kind, r.value]);

/** A till roll 80 mm wide: boxes in millimetres from the top left, type `size` mm high, centred on the roll. */
const ROLL_WIDTH = 80;
function centred(text: string, y: number, size: number): TextBox {
  const width = text.length * size * 0.6;
  return {
    text,
    x: (ROLL_WIDTH - width) / 2 / ROLL_WIDTH,
    y: y / ROLL_WIDTH,
    width: width / ROLL_WIDTH,
    height: size / ROLL_WIDTH,
  };
}
function left(text: string, y: number, size = 2.5): TextBox {
  return {
    text,
    x: 4 / ROLL_WIDTH,
    y: y / ROLL_WIDTH,
    width: (text.length * size * 0.6) / ROLL_WIDTH,
    height: size / ROLL_WIDTH,
  };
}
const merchantOf = (boxes: TextBox[]) => receiptMerchant(linesOf({ page: 1, aspect: 3.5, boxes }))?.text;
/** The items under a slip's header, in its ordinary type. */
const items = (from: number) =>
  ['BREAD 1.20', 'MILK 0.99', 'BUTTER 2.49', 'CHEESE 3.10', 'APPLES 2.00', 'TOTAL 9.78'].map((t, i) =>
    left(t, from + i * 4),
  );

describe("a till slip's merchant", () => {
  it('is a sign set over two centred lines in large type, even in two sizes', () => {
    const boxes = [centred('AU MOULIN', 4, 5), centred('DE CLARA', 10, 7), left('12 rue des Lilas', 20), ...items(26)];
    expect(merchantOf(boxes)).toBe('AU MOULIN DE CLARA');
  });

  it('leaves a tagline in ordinary type apart from the sign', () => {
    const boxes = [
      centred('BECKER', 4, 5),
      centred('Paints since 1962', 10, 2.5),
      left('4 Mill Road', 16),
      ...items(22),
    ];
    expect(merchantOf(boxes)).toBe('BECKER');
  });

  it('is the legal name the slip prints at its foot beside a tax number, rather than the sign', () => {
    const text = lines(
      'Gasthof zur Eiche',
      'Marktgasse 3 · 8000 Zürich',
      'Rechnung Nr. 4873',
      ...Array.from({ length: 12 }, (_, i) => `Position ${i + 1} 4.50`),
      'Total CHF 54.00',
      'Eiche Gastro AG · CHE-123.456.789 MWST',
    );
    expect(sender(text, slip('Gasthof zur Eiche'))).toBe('Eiche Gastro AG');
  });

  it('is the full name with its legal form when the sign is part of it', () => {
    const text = lines(
      'BELAIR',
      'Épicier depuis 1961',
      '12, rue Principale',
      'FACTURE: 4471',
      'PAIN 3,99',
      'TOTAL 3,99',
      ...Array.from({ length: 20 }, (_, i) => `Ligne ${i + 1}`),
      'Épicerie Belair inc.',
      'Merci de votre visite',
    );
    expect(sender(text, slip('BELAIR'))).toBe('Épicerie Belair inc.');
  });

  it('reads a legal form that a speck after the comma hid', () => {
    const text = lines('PINTURAS SOL', 'PINTURAS HERMANOS SOL,. S.L.', 'CIF B12345678', 'C/ Mayor, 5 - 50012 Zaragoza');
    expect(sender(text, slip('PINTURAS SOL'))).toMatch(/^PINTURAS HERMANOS SOL/u);
  });
});

describe('the sender of a bill or a fee note', () => {
  it('is the payee cheques are made out to', () => {
    const text = lines(
      'FROM',
      'INVOICE\tMara Quill',
      'Illustration & Lettering',
      'Invoice # 2026-014\t7 Birch Row',
      'Make all checks payable to Mara Quill, or pay by bank transfer.',
    );
    expect(sender(text)).toBe('Mara Quill');
  });

  it('is no street without a house number, no labelled field and no page count', () => {
    expect(isReturnAddress('Orchard Lane, Lower Exampleton, Exampleshire AB1 2CD · Office 01234 567890')).toBe(false);
    expect(isReturnAddress('Pupil: Sam Example - Year 5 - Day pupil')).toBe(false);
    expect(isReturnAddress('Copie imprimée au guichet · page 1/2')).toBe(false);
    expect(isReturnAddress('Klassen A - BE - C1E - D1')).toBe(false);
    // What these rules keep: a name over its street and town.
    expect(isReturnAddress('Beispiel Fahrschule - Hauptstraße 4 - 45678 Beispielstadt')).toBe(true);
  });

  it('is not the start of a ride, nor a shop of a chain named by its town', () => {
    const ride = lines(
      'ROADSTAR CARS',
      'TAXI RECEIPT',
      'From: Central Station',
      'To: Hill Lane',
      'TOTAL £12.40',
      'Roadstar Cars Ltd - 2 Mill Road - York',
    );
    expect(sender(ride)).not.toMatch(/Station/u);
    const shop = lines('ELEKTROPUNT', 'Winkel Lier · Markt 7 · 2500 Lier', 'TOTAAL 12,00');
    expect(sender(shop)).not.toMatch(/Winkel/u);
  });

  it('joins an institution over its place, as a coat of arms sets them', () => {
    expect(sender(lines('gemeente .', 'Exampledorp', '', 'Team Belastingen', 'Aanslagbiljet 2026'))).toBe(
      'gemeente Exampledorp',
    );
  });

  it('takes an owners’ association named after its street, and no OCR of a picture', () => {
    expect(
      sender(lines('CONDOMINIO VIA DELLE ROSE 4', 'Via delle Rose 4 — 50100 Firenze', 'Avviso di pagamento')),
    ).toBe('CONDOMINIO VIA DELLE ROSE 4');
    expect(sender(lines('Avviso di pagamento', '', 'a ARS SO Ep Ea PES LINE AREA a SAS SA'))).not.toMatch(/ARS/u);
  });

  it('is a notary under the title before the name, not a party of the deed', () => {
    const text = lines(
      'MAÎTRE JEANNE EXEMPLE',
      'Notaire de résidence à Exampleville',
      '',
      'Monsieur et Madame Dupont',
      ...Array.from({ length: 18 }, (_, i) => `Ligne ${i + 1} du décompte`),
      'Vendeur : Société Exemple Immobilier SARL',
    );
    expect(sender(text)).toBe('MAÎTRE JEANNE EXEMPLE');
  });

  it('is not the addressee under "Señores:"', () => {
    const text = lines(
      'TÉRMICAS EJEMPLO S.A.C.',
      'Av. Principal 100, Lima',
      '',
      'Señores:',
      'CLÍNICA MODELO E.I.R.L.',
      'RUC 20600000001',
      'Av. Los Pinos 12, Arequipa',
    );
    expect(sender(text)).toBe('TÉRMICAS EJEMPLO S.A.C.');
  });

  it('takes no state before a postcode for a legal form', () => {
    expect(sender(lines('Electricity bill', 'Exampleton SA 5999', 'ABN 12 345 678 901'))).not.toMatch(/Exampleton SA/u);
  });

  it('keeps the return address of a sender in the recipient’s town', () => {
    const text = lines(
      'Malerbetrieb Beispiel - Ringstraße 4 - 45678 Beispielstadt',
      'Frau',
      'Erika Muster',
      'Weg 9',
      '45678 Beispielstadt',
    );
    const layout: PartyLayout = {
      address: ['Frau', 'Erika Muster', 'Weg 9', '45678 Beispielstadt'],
      issuer: [],
      merchant: null,
    };
    expect(sender(text, layout)).toBe('Malerbetrieb Beispiel');
  });
});

describe("the document's own number", () => {
  it('ends with its column', () => {
    const found = references('Invoice # 2026-031\t17 Birch Row').map(([, value]) => value);
    expect(found).toContain('2026-031');
    expect(found).not.toContain('2026-031 17');
  });

  it('stands under the heading on a line of its own', () => {
    expect(
      references(lines('Example Print Ltd\tINVOICE', 'hello@example.test', '# INV-0042', 'UNPAID')),
    ).toContainEqual(['invoice', 'INV-0042']);
  });

  it("is not a professional's number in its chamber", () => {
    expect(references('Arquitecta · Colegiada nº 1.234')).toEqual([]);
  });

  it('has its receipt labels in the other languages', () => {
    expect(references('N° de quittance\t260101-0001')).toContainEqual(['receipt', '260101-0001']);
    expect(references('Kwitantienummer 5-0012983')).toContainEqual(['receipt', '5-0012983']);
    expect(references('Recibo nº 2026-0815')).toContainEqual(['receipt', '2026-0815']);
    expect(references('Ricevuta n. 0261-0417')).toContainEqual(['receipt', '0261-0417']);
  });

  it("is not an item's voucher in brackets", () => {
    expect(references('04.05.2026 Restaurant – Getränke (Beleg 5511) 12,80')).toEqual([['related', '5511']]);
  });

  it("is a payment notice's number and a Mexican invoice's series and number", () => {
    expect(references('Avviso di pagamento n. 77/2026')).toContainEqual(['invoice', '77/2026']);
    expect(references('Serie / Folio\tB - 2210')).toContainEqual(['invoice', 'B-2210']);
  });

  it("is a fee note's number after its full title", () => {
    expect(references("NOTE D'HONORAIRES ET DE FRAIS N° 2026/0099")).toContainEqual(['invoice', '2026/0099']);
  });
});

describe('the fourth round', () => {
  it('reads the Kenyan shilling and, in the Philippines, a "P" before the total', () => {
    expect(moneyTokens('Kisumu Road, Nairobi\nTOTAL KSh 1,480.00')).toContainEqual([1480, 'KES']);
    expect(moneyTokens('Makati City\nTOTAL P 275.50')).toContainEqual([275.5, 'PHP']);
    // An amount without a symbol is in the currency of the country the text names.
    const read = understand({
      text: 'Kisumu Road, Nairobi\nRECEIPT\nTOTAL 1,480.00',
      filename: 'r.jpg',
      categories: CATEGORIES,
      einvoice: null,
      today: TODAY,
    });
    expect(read.amount?.value).toEqual({ value: 1480, currency: 'KES' });
    // "P" is no currency where no Philippine sign is printed.
    expect(moneyTokens('Hamburg\nTOTAL P 275.50')).not.toContainEqual([275.5, 'PHP']);
  });

  it('reads the rand on a South African municipal account', () => {
    expect(moneyTokens('Kamba Local Municipality\nPrivate Bag X12, Kamba, 6500\nTotal due R 1 250.00')).toContainEqual([
      1250,
      'ZAR',
    ]);
  });

  it('takes a name split over a logo’s two lines when the page prints it whole elsewhere', () => {
    const text = lines(
      'BRAMLEY\tCREDIT MEMO',
      'PAPER SUPPLY LTD .\tCredit memo no.\tCM-1',
      ...Array.from({ length: 20 }, (_, i) => `Line ${i + 1}`),
      'Bramley Paper Supply Ltd. · 12 King St, Toronto',
    );
    expect(sender(text, { address: [], issuer: [], merchant: null, cells: text.split('\n').map(cellsOf) })).toBe(
      'BRAMLEY PAPER SUPPLY LTD.',
    );
    // Not printed whole anywhere: the two lines may be two names.
    const alone = lines('BRAMLEY\tCREDIT MEMO', 'PAPER SUPPLY LTD\tCredit memo no.\tCM-1', 'Total 12.00');
    expect(sender(alone, { address: [], issuer: [], merchant: null, cells: alone.split('\n').map(cellsOf) })).toBe(
      'PAPER SUPPLY LTD',
    );
  });

  it('joins the top line’s first column with a one-word name and its form spaced by the text layer', () => {
    const text = lines('OAKRIDGE\tPROGRESS INVOICE', 'BUILDERS , INC .\tInvoice No.\tOB-1', 'Total 10.00');
    expect(sender(text, { address: [], issuer: [], merchant: null, cells: text.split('\n').map(cellsOf) })).toBe(
      'OAKRIDGE BUILDERS',
    );
  });

  it('names councils and municipalities, without their department', () => {
    expect(sender(lines('Business rates bill', 'Exampleton Borough Council', 'Account number 5001'))).toBe(
      'Exampleton Borough Council',
    );
    expect(sender(lines('Rates account', 'Kamba Point Local Municipality', 'Account number 5001'))).toBe(
      'Kamba Point Local Municipality',
    );
    expect(sender(lines('Exampleton Borough Council Parking Services', 'Penalty charge notice'))).toBe(
      'Exampleton Borough Council',
    );
    // A council's short name beside its full name gives way to it.
    const shortName = lines(
      'If undelivered return to: Exampleton Borough Council, PO Box 118, Exampleton EX1 7ZZ',
      '',
      'The Occupier : Bill number 1900327715',
      '',
      'Example Florists Ltd ; Account reference 61150382',
      '9 Mill Street | Property reference 00880310025007',
      '',
      'Business Rates Section : Exampleton Borough Council :',
      '',
      'Exampleton House, Abbey Road',
      'Exampleton, Exampleshire EX1 7RQ ; Revenues Service - Business Rates',
      'www.exampleton.gov.uk/businessrates',
    );
    expect(sender(shortName)).toBe('Exampleton Borough Council');
  });

  it('reads the sender from "If undelivered return to:" and a council over its short name', () => {
    expect(sender(lines('If undelivered return to: Exampleton Borough Council, PO Box 1, Exampleton', 'Bill'))).toBe(
      'Exampleton Borough Council',
    );
    const text = lines(
      'Exampleton Borough Council',
      'Parking Services',
      'Penalty charge notice',
      ...Array.from({ length: 14 }, (_, i) => `Line ${i + 1}`),
      'Exampleton · Town Hall · High Street',
    );
    expect(sender(text)).toBe('Exampleton Borough Council');
  });

  it("keeps the partners' names listed before the last two", () => {
    expect(sender(lines('HARWELL, QUILLON & VESPER LLP', '180 North Street · Chicago, IL 60601', 'Invoice'))).toBe(
      'HARWELL, QUILLON & VESPER LLP',
    );
  });

  it("is not hidden by the window's town line without a postcode", () => {
    const text = lines(
      'KAMBA POINT LOCAL MUNICIPALITY',
      'Civic Centre',
      'MR A EXAMPLE',
      '12 Sea Road',
      'KAMBA POINT',
      '6500',
    );
    const layout: PartyLayout = {
      address: ['MR A EXAMPLE', '12 Sea Road', 'KAMBA POINT', '6500'],
      issuer: [],
      merchant: null,
    };
    expect(sender(text, layout)).toBe('KAMBA POINT LOCAL MUNICIPALITY');
  });

  it("reads an Argentine voucher's point of sale with its number, and Uruguay's peso", () => {
    expect(references('Punto de Venta: 00007\tComp. Nro: 00000321')).toContainEqual(['receipt', '00007-00000321']);
    expect(moneyTokens('RUT 215566770012 · Montevideo\nTOTAL $ 1.250,00')).toContainEqual([1250, 'UYU']);
    // Chile's RUT alone still means Chilean pesos.
    expect(moneyTokens('RUT 76.123.456-7 · Santiago\nTOTAL $ 1.250')).toContainEqual([1250, 'CLP']);
  });

  it('reads receipt numbers under a heading, joined by OCR or without their sign', () => {
    expect(references(lines('BOLETA DE VENTA', 'RUC 20100000001', 'B007-00031415'))).toContainEqual([
      'receipt',
      'B007-00031415',
    ]);
    expect(references(lines('BOLETA ELECTRÓNICA', ': N* 48217'))).toContainEqual(['receipt', '48217']);
    expect(references('Reçun° 0042-118877')).toContainEqual(['receipt', '0042-118877']);
    expect(references(lines('FACTURA SIMPLIFICADA', 'Núm. : T05-2026/000902'))).toContainEqual([
      'invoice',
      'T05-2026/000902',
    ]);
    expect(references('Taxinvoice number 318800274')).toContainEqual(['invoice', '318800274']);
  });

  it("takes no registered seat for a name, and reads an office behind OCR's speck", () => {
    const footer = lines(
      'Mobilfunk',
      'Rechnung',
      ...Array.from({ length: 16 }, (_, i) => `Zeile ${i + 1}`),
      'Sitz Beispielstadt, AG Beispielstadt HRB 1234',
    );
    expect(sender(footer)).not.toMatch(/^Sitz/u);
    expect(isReturnAddress('. Finanzamt Beispielstadt - Postfach 12 34 - 12345 Beispielstadt')).toBe(true);
    expect(sender(lines('. Finanzamt Beispielstadt ; Steuernummer 123/456/78901', 'Bescheid für 2025'))).toBe(
      'Finanzamt Beispielstadt',
    );
  });
});
