/**
 * Invoices, credit notes and payment reminders as real senders write them in the six languages: the rules that read
 * their type, number, sender and due date. All names and numbers are invented.
 */
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../common/archive-types.ts';
import { classify } from '../../server/intelligence/classify.ts';
import { readsMonthFirst } from '../../server/intelligence/dates.ts';
import { labelValuePairs } from '../../server/intelligence/layout/label-value.ts';
import { linesOf } from '../../server/intelligence/layout/lines.ts';
import type { TextBox } from '../../server/intelligence/layout-types.ts';
import { findParties } from '../../server/intelligence/parties.ts';
import { findReferences, pickReference } from '../../server/intelligence/references.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';

const read = (text: string) =>
  understand({ text, filename: 'scan.pdf', categories: [], einvoice: null, today: '2026-11-20' });

const referenceOf = (text: string, type: EventType): string | undefined => {
  const doc = makeDoc(text);
  return pickReference(doc.lines, findReferences(doc), type)?.value;
};

const typeOf = (text: string): EventType =>
  classify(makeDoc(text), { hasTotal: true, hasDueDate: false, referenceKinds: new Set() }).type;

describe('credit notes', () => {
  it('takes the credit note number from its heading, not the invoice a sentence names', () => {
    const spanish = [
      'Talleres Quirós S.L.',
      'FACTURA RECTIFICATIVA RX-5521',
      'Rectifica la factura 2026/4410 de fecha 03/03/2026.',
      'Total 120,00 €',
    ].join('\n');
    expect(referenceOf(spanish, 'credit_note')).toBe('RX-5521');
    const french = ['AVOIR .KV3390', 'Cet avoir annule notre facture 2026/0712 du 01/02/2026.'].join('\n');
    expect(referenceOf(french, 'credit_note')).toBe('KV3390');
  });

  it('reads "Avoir" before its number as a French credit note heading, not the verb', () => {
    const text = [
      'Moulinerie Estrade SARL - 8 chemin des Aires - 26000 Valence',
      'Avoir AV-2026-0031',
      'Date de facture 04/03/2026',
      'Facture liée FA-2026-0140',
      'Total TTC -88,10 €',
    ].join('\n');
    const result = read(text);
    expect(result.event_type?.value).toBe('credit_note');
    expect(result.reference_number?.value).toBe('AV-2026-0031');
    // "avoir" as the verb before a count stays a verb.
    expect(typeOf('Facture\nVous devez avoir 2 exemplaires de ce document.\nTotal TTC 45,00 €')).toBe('invoice');
  });

  it('gives a credit note no due date: the date printed is when the money comes back', () => {
    const text = ['Avoir n° AV-77', "Date d'émission 04/03/2026", "Date d'échéance 04/03/2026", 'Total TTC 88,10 €'];
    const result = read(text.join('\n'));
    expect(result.event_type?.value).toBe('credit_note');
    expect(result.due_date).toBeUndefined();
  });
});

describe('payment reminders', () => {
  it('takes the line above a salutation in French, Dutch, Spanish or Italian as the subject', () => {
    const spanish = [
      'Construcciones Abejar S.L.',
      'Calle Mayor 4',
      '42001 Soria',
      'Teléfono 975 11 22 33',
      'CIF B42000000',
      'Sra. Marta Gil',
      'Calle Real 9',
      '42002 Soria',
      'Fecha 3 de marzo de 2026',
      'Código de cliente C-88',
      'Tel. 975 00 00 00',
      'Hoja 1',
      'Aviso de impago',
      'Estimada Sra. Gil:',
      'Todavía no hemos recibido el pago de la factura F-204 del 2 de enero de 2026.',
      'Factura F-204 300,00 €',
      'Recargo 5,00 €',
      'Total adeudado 305,00 €',
    ].join('\n');
    expect(typeOf(spanish)).toBe('notice');
  });

  it('reads the new deadline of a sentence about paying, the verb before or after the date', () => {
    const dutch = [
      'Betalingsherinnering',
      'Datum 02-03-2026',
      'Te betalen € 410,00',
      'Wij verzoeken u het restant vóór 16-03-2026 over te maken, anders volgen kosten.',
    ].join('\n');
    expect(read(dutch).due_date?.value).toBe('2026-03-16');
    const spanish = [
      'Recordatorio de pago',
      'Fecha 2 de marzo de 2026',
      'Rogamos efectúe el pago de lo adeudado antes del 16 de marzo de 2026.',
    ].join('\n');
    expect(read(spanish).due_date?.value).toBe('2026-03-16');
    const italian = ['Sollecito di pagamento', 'Data 02/03/2026', 'Vi preghiamo di saldare entro il 16/03/2026.'];
    expect(read(italian.join('\n')).due_date?.value).toBe('2026-03-16');
    // A date after "before" in a sentence about something else is no deadline.
    const visit = ['Factura', 'Fecha 2 de marzo de 2026', 'La visita técnica será antes del 16 de marzo de 2026.'];
    expect(read(visit.join('\n')).due_date).toBeUndefined();
  });
});

describe('the sender in the letterhead', () => {
  it('keeps the words that join a company name ("et", "y", "e", "en")', () => {
    const names = [
      'Menuiserie Roux et Fils SARL',
      'Pinturas Ortega y Hermanos S.L.',
      'Fratelli Neri e Figli S.r.l.',
      'Bouw en Onderhoud Smit B.V.',
    ];
    for (const name of names) {
      const text = [
        'Facture',
        'Total 10,00',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        `${name}`,
        'IBAN',
      ];
      expect(findParties(makeDoc(text.join('\n'))).sender?.name).toBe(name);
    }
  });
});

describe('the sender beside codes and slogans', () => {
  it('reads no legal form into a register code ("Hoja SE-42017")', () => {
    const text = [
      'Academia Vela Roja S.L.',
      'Vela · Remo · Kayak',
      'Calle Larga 3  ·  11001 Cádiz  ·  Teléfono 956 00 00 00  ·  CIF B11000000  ·  Registro Mercantil de Cádiz, Hoja SE-42017',
      'Sr. Pablo Ruiz',
      'Calle Ancha 8',
      '11002 Cádiz',
      'Contrato de matrícula',
    ].join('\n');
    expect(findParties(makeDoc(text)).sender?.name).toBe('Academia Vela Roja S.L.');
  });

  it('takes the name above a slogan, not the slogan over the address', () => {
    const text = [
      'Wooncorporatie Lindeveld',
      'wonen aan het water',
      'Kadeweg 12',
      '1234 AB Havendorp',
      'Geachte heer Jansen,',
    ].join('\n');
    expect(findParties(makeDoc(text)).sender?.name).toBe('Wooncorporatie Lindeveld');
  });
});

describe('the order of numeric dates', () => {
  it("follows the document's own dates that prove it, whatever its language or country", () => {
    const toAmericanBuyer = 'Invoice FA-88\nFrance\nTotal 200.00 €\nInvoice Date 04/03/2026\nPaid 04/21/2026';
    expect(readsMonthFirst(toAmericanBuyer, 'en')).toBe(true);
    expect(readsMonthFirst('Factuur\nDatum 04/03/2026\nBetaald 21/04/2026', 'nl')).toBe(false);
    // Dates that disagree prove nothing: the language and country decide as before.
    expect(readsMonthFirst('Date 04/21/2026\nDate 21/04/2026\nTotal £12.40', 'en')).toBe(false);
    expect(readsMonthFirst('Rechnung\nDatum 04/03/2026\nLieferung 04/21/2026', 'de')).toBe(true);
  });
});

describe('labels beside their values', () => {
  /** A box in points on an A4 page, as page fractions; about 0.5 pt per character of 11 pt type. */
  const box = (text: string, x: number, y: number): TextBox => ({
    text,
    x: x / 595,
    y: y / 842,
    width: (text.length * 5.5) / 595,
    height: 11 / 842,
  });

  it('pairs a label with the value to its right, which a text layer may give as a separate run', () => {
    const lines = linesOf({
      page: 1,
      aspect: 842 / 595,
      boxes: [
        box('N° de facture', 360, 150),
        box('260417', 470, 150),
        box('Code client', 360, 164),
        box('K-20931', 470, 164),
        box('Net à payer', 360, 400),
        box('245,00 €', 470, 400),
      ],
    });
    // The amount stays on its own line, where the amount readers take it as printed.
    expect(labelValuePairs(lines)).toEqual(['N° de facture 260417', 'Code client K-20931']);
  });
});

describe('dates of other documents', () => {
  it('takes no date of the invoice a credit note or reminder names for its own', () => {
    const english = [
      'Credit note no.\tDate of issue',
      'CR-31-204\t14 May 2026',
      'Credit Note',
      'This credit relates to our invoice 260481 issued 2 April 2026.',
    ];
    expect(read(english.join('\n')).document_date?.value).not.toBe('2026-04-02');
    const french = ['Avoir', 'Avoir établi sur notre facture 260481 du 02/04/2026.', 'Date 14/05/2026'];
    expect(read(french.join('\n')).document_date?.value).toBe('2026-05-14');
  });
});
