import { describe, expect, it } from 'vitest';
import { fold, pickCategory } from '../../server/intelligence/category.ts';
import { labelDates, pickDocumentDate, pickDueDate } from '../../server/intelligence/date-fields.ts';
import { findDates } from '../../server/intelligence/dates.ts';
import { detectLanguage } from '../../server/intelligence/language.ts';
import { findMoney } from '../../server/intelligence/money.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { makeTitle, meaningfulFilename } from '../../server/intelligence/title.ts';
import { understand } from '../../server/intelligence/understand.ts';

const TODAY = '2027-01-20';
const datesIn = (text: string, monthFirst = false): string[] =>
  findDates(makeDoc(text), { monthFirst, today: TODAY }).map((d) => d.iso);

describe('dates', () => {
  it('reads the common German and English ways of writing a date', () => {
    const cases: Array<[string, string]> = [
      ['15.12.2026', '2026-12-15'],
      ['5.1.2027', '2027-01-05'],
      ['15. 12. 2026', '2026-12-15'],
      ['15.12.26', '2026-12-15'],
      ['15. Dezember 2026', '2026-12-15'],
      ['3. März 2027', '2027-03-03'],
      ['1. Mai 2026', '2026-05-01'],
      ['15 Dec 2026', '2026-12-15'],
      ['15 Dec. 2026', '2026-12-15'],
      ['Dec 15, 2026', '2026-12-15'],
      ['December 15th, 2026', '2026-12-15'],
      ['15th of December 2026', '2026-12-15'],
      ['2026-12-15', '2026-12-15'],
      ['12/15/2026', '2026-12-15'],
      ['15/12/2026', '2026-12-15'],
      ['03 Januar 2027', '2027-01-03'],
      ['Sept 3, 2026', '2026-09-03'],
    ];
    for (const [text, iso] of cases) expect(datesIn(`Datum: ${text}`), text).toEqual([iso]);
  });

  it('reads an ambiguous slashed date by the document convention', () => {
    expect(datesIn('Date: 03/04/2027', true)).toEqual(['2027-03-04']);
    expect(datesIn('Date: 03/04/2027', false)).toEqual(['2027-04-03']);
  });

  it('rejects impossible dates and reads two-digit years near today', () => {
    expect(datesIn('31.02.2026 and 2026-13-01 and 32.01.2026')).toEqual([]);
    expect(datesIn('01.01.99')).toEqual(['1999-01-01']);
    expect(datesIn('Tel. 089 12.34.5678 / Version 1.2.3')).toEqual([]);
  });

  it('prefers the labelled issue date over a service period, a birth date and a due date', () => {
    const doc = makeDoc(`Geburtsdatum: 12.03.1990
Leistungszeitraum 01.11.2026 - 30.11.2026
Fällig am 30.12.2026
Rechnungsdatum 15.12.2026`);
    const labelled = labelDates(doc, findDates(doc, { monthFirst: false, today: TODAY }));
    expect(pickDocumentDate(doc.lines, labelled, TODAY)?.iso).toBe('2026-12-15');
    expect(pickDueDate(doc.lines, labelled, '2026-12-15')?.iso).toBe('2026-12-30');
  });

  it('ignores implausible document dates in the far future', () => {
    const doc = makeDoc('Vertrag gültig bis 31.12.2099\nDatum 01.01.2026');
    const labelled = labelDates(doc, findDates(doc, { monthFirst: false, today: TODAY }));
    expect(pickDocumentDate(doc.lines, labelled, TODAY)?.iso).toBe('2026-01-01');
  });

  it('computes relative payment terms from the document date', () => {
    const due = (terms: string): string | undefined => {
      const doc = makeDoc(`Datum: 15.12.2026\n${terms}`);
      const labelled = labelDates(doc, findDates(doc, { monthFirst: false, today: TODAY }));
      return pickDueDate(doc.lines, labelled, '2026-12-15')?.iso;
    };
    expect(due('Zahlbar innerhalb von 30 Tagen ohne Abzug.')).toBe('2027-01-14');
    expect(due('Zahlungsziel: 14 Tage netto')).toBe('2026-12-29');
    expect(due('netto 30 Tage')).toBe('2027-01-14');
    expect(due('Payment due within 14 days of the invoice date.')).toBe('2026-12-29');
    expect(due('Terms: Net 30')).toBe('2027-01-14');
    expect(due('Bei Zahlung innerhalb von 8 Tagen 2 % Skonto, innerhalb von 21 Tagen netto.')).toBe('2027-01-05');
    expect(due('Zahlbar innerhalb von 10 Werktagen.')).toBe('2026-12-29');
    expect(due('Sofort zahlbar ohne Abzug.')).toBe('2026-12-15');
    expect(due('Widerrufsfrist: 14 Tage ab Erhalt der Ware.')).toBeUndefined();
  });
});

describe('money', () => {
  const money = (text: string): Array<[number, string | null]> =>
    [...findMoney(makeDoc(text), new Map()).values()]
      .flat()
      .filter((t) => t.currency || t.decimals)
      .map((t) => [t.value, t.currency]);

  it('reads German, English and Swiss number formats with their currency', () => {
    const cases: Array<[string, number, string | null]> = [
      ['1.234,56 €', 1234.56, 'EUR'],
      ['EUR 1,234.56', 1234.56, 'EUR'],
      ['1 234,56 EUR', 1234.56, 'EUR'],
      ['€ 12,50', 12.5, 'EUR'],
      ['$1,234.56', 1234.56, 'USD'],
      ['CHF 99.–', 99, 'CHF'],
      ['£5', 5, 'GBP'],
      ['12,50', 12.5, null],
      ['1.234.567,89 EUR', 1234567.89, 'EUR'],
      ["CHF 1'250.40", 1250.4, 'CHF'],
      ['99,- €', 99, 'EUR'],
      ['US$ 20.00', 20, 'USD'],
      ['AUD 5,940.00', 5940, 'AUD'],
      ['0,99 Euro', 0.99, 'EUR'],
      ['-25,00 €', -25, 'EUR'],
    ];
    for (const [text, value, currency] of cases) expect(money(`Betrag ${text}`), text).toEqual([[value, currency]]);
  });

  it('reads an ISO currency code glued to its number by OCR, but no other letters', () => {
    expect(money('Balance due GBP416.00')).toEqual([[416, 'GBP']]);
    expect(money('Summe EUR84,20')).toEqual([[84.2, 'EUR']]);
    expect(money('Total CHF1.250,00 und USD-12.50')).toEqual([
      [1250, 'CHF'],
      [-12.5, 'USD'],
    ]);
    expect(money('Artikel ABC123.45, Typ XEUR12,50, Modell GBPX9.99')).toEqual([]);
    expect(money('Zählerstand eur12,50')).toEqual([]);
  });

  it('reads a rate with a speck before its percent sign as a percentage, not money', () => {
    expect(money('MwSt 19,00.% 9,90')).toEqual([[9.9, null]]);
    expect(money('USt 7,00,% 3,15 €')).toEqual([[3.15, 'EUR']]);
    expect(money('Preis 12,50. Danke, Summe 20,00')).toEqual([
      [12.5, null],
      [20, null],
    ]);
  });

  it('does not read quantities, percentages and plain integers as money', () => {
    expect(money('19 % MwSt. auf 350 kWh, 3 Stk., Kundennummer 100234')).toEqual([]);
  });
});

describe('language', () => {
  it('tells German from English and says when it cannot tell', () => {
    expect(
      detectLanguage('Sehr geehrte Damen und Herren, anbei erhalten Sie die Rechnung für den Monat Dezember.')
        ?.language,
    ).toBe('de');
    expect(
      detectLanguage('Dear Sir or Madam, please find attached the invoice for the month of December.')?.language,
    ).toBe('en');
    expect(
      detectLanguage(
        'Madame, veuillez trouver ci-joint la facture pour le mois de décembre et merci pour votre confiance.',
      )?.language,
    ).toBe('fr');
    expect(detectLanguage('ok')).toBeNull();
    expect(detectLanguage('XJ-4411 QQ-1234 ZZ-99 KK')?.language).toBe('und');
  });
});

describe('file names', () => {
  it('keeps meaningful names and drops scanner and camera defaults', () => {
    for (const name of [
      'scan_0042.pdf',
      'IMG_20261215_103211.jpg',
      'Scan 2026-12-15 10.32.11.pdf',
      'document (3).pdf',
      'a8f3c2e1-5b7d-4c2a-9e1f-0123456789ab.pdf',
      'DSC01234.JPG',
      'PXL_20261215_101010123.jpg',
      'Untitled.pdf',
      '20261215.pdf',
    ]) {
      expect(meaningfulFilename(name), name).toBeNull();
    }
    expect(meaningfulFilename('rechnung_stadtwerke_2026-12.pdf')).toBe('Rechnung stadtwerke 2026-12');
    expect(meaningfulFilename('Mietvertrag Wohnung.pdf')).toBe('Mietvertrag Wohnung');
  });
});

describe('category', () => {
  const categories = ['Versicherung', 'Insurance', 'Rechnungen', 'Steuern', 'Auto', 'Sonstiges'];

  it('matches by name, synonyms and the kind of document', () => {
    expect(
      pickCategory(categories, fold('Versicherungsschein Nr. 123 Ihre Hausratversicherung'), 'policy', null)?.name,
    ).toBe('Versicherung');
    expect(
      pickCategory(
        categories,
        fold('Policy schedule: home insurance for your property'),
        'policy',
        'Harbour Insurance plc',
      )?.name,
    ).toBe('Insurance');
    expect(
      pickCategory(categories, fold('Bescheid über Einkommensteuer für 2025'), 'notice', 'Finanzamt Köln')?.name,
    ).toBe('Steuern');
    expect(
      pickCategory(categories, fold('Rechnung für die Inspektion Ihres Kfz'), 'invoice', 'Autohaus Lindner KG')?.name,
    ).toBe('Rechnungen');
  });

  it('suggests none when nothing fits', () => {
    expect(
      pickCategory(categories, fold('Liebe Oma, vielen Dank für das schöne Geschenk!'), 'letter', null),
    ).toBeNull();
    expect(pickCategory([], fold('Rechnung'), 'invoice', null)).toBeNull();
  });
});

describe('understand without text', () => {
  const base = { categories: [], einvoice: null, today: TODAY };

  it('uses a meaningful file name and its date', () => {
    const result = understand({ ...base, text: '', filename: '2026-12-15 Rechnung Telekom.pdf' });
    expect(result.title).toMatchObject({ value: '2026-12-15 Rechnung Telekom', source: 'filename' });
    expect(result.document_date).toMatchObject({ value: '2026-12-15', source: 'filename' });
    expect(result.event_type).toBeUndefined();
  });

  it('never makes a title of a scanner name', () => {
    expect(understand({ ...base, text: '', filename: 'scan_0042.pdf' }).title).toBeUndefined();
    expect(understand({ ...base, text: '', filename: 'Scan 2026-12-11 09.14.55.pdf' }).title?.value).toBe(
      'Dokument vom 11.12.2026',
    );
  });
});

describe('titles', () => {
  const parts = {
    type: 'invoice' as const,
    typeConfidence: 0.8,
    heading: null,
    language: null,
    reference: 'R-77',
    sender: 'Muster Versorgung GmbH',
    date: null,
    subject: null,
    filename: 'scan_0001.pdf',
    lines: [],
  };

  it('joins in the language of the document, and in English around its own English words', () => {
    expect(makeTitle({ ...parts, language: 'de' })?.title).toBe('Rechnung R-77 – Muster Versorgung GmbH');
    expect(makeTitle({ ...parts, language: 'en' })?.title).toBe('Invoice R-77 from Muster Versorgung GmbH');
    // No language known and no heading of the document's own: the words are the app's, in English.
    expect(makeTitle(parts)?.title).toBe('Invoice R-77 from Muster Versorgung GmbH');
  });

  it("joins the document's own heading without English words when its language is not known or not English", () => {
    // A short German scan whose language could not be told: no "Rechnung R-77 from …".
    expect(makeTitle({ ...parts, heading: 'Rechnung' })?.title).toBe('Rechnung R-77 – Muster Versorgung GmbH');
    expect(makeTitle({ ...parts, heading: 'Facture', language: 'fr', sender: 'Exemple SARL' })?.title).toBe(
      'Facture R-77 – Exemple SARL',
    );
    expect(makeTitle({ ...parts, heading: 'Rechnung', reference: null, date: '2026-11-05' })?.title).toBe(
      'Rechnung – Muster Versorgung GmbH – 2026-11-05',
    );
    expect(makeTitle({ ...parts, heading: 'Invoice', language: 'en' })?.title).toBe(
      'Invoice R-77 from Muster Versorgung GmbH',
    );
  });
});
