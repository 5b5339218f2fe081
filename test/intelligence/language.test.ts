import { describe, expect, it } from 'vitest';
import { detectLanguage, LANGUAGES } from '../../server/intelligence/language.ts';

/** Invented lines of the kind documents carry: a sentence of a letter, and an invoice's or receipt's labels. */
const SAMPLES: Record<string, { letter: string; labels: string }> = {
  de: {
    letter:
      'Sehr geehrter Herr Beispiel, vielen Dank für Ihren Auftrag. Bitte überweisen Sie den Betrag innerhalb von 14 Tagen.',
    labels: 'Rechnung Nr. 17 Datum 03.03.2024 Summe netto 40,00 zzgl. MwSt 7,60 Gesamtbetrag 47,60',
  },
  en: {
    letter: 'Thank you for your order. Please pay the amount shown below within 30 days of the invoice date.',
    labels: 'QTY ITEM PRICE 2 TEA 3.20 SUBTOTAL 6.40 TAX 0.38 TOTAL 6.78 CASH 10.00 CHANGE 3.22',
  },
  fr: {
    letter: "Nous vous remercions de votre commande. Veuillez régler le montant ci-dessous avant la date d'échéance.",
    labels: 'Facture n° 17 du 3 mars Total HT 40,00 TVA 20 % Total TTC 48,00 Échéance à 30 jours',
  },
  nl: {
    letter: 'Hartelijk dank voor uw bestelling. Wij verzoeken u het bedrag binnen 14 dagen over te maken.',
    labels: 'Factuur 17 Factuurdatum 3 maart Totaal excl. btw 40,00 btw 21% Vervaldatum 2 april',
  },
  es: {
    letter: 'Gracias por su pedido. Le rogamos que pague el importe indicado antes de la fecha de vencimiento.',
    labels: 'Factura núm. 17 Fecha 3 de marzo Base imponible 40,00 IVA 21% Total 48,40 Vencimiento',
  },
  it: {
    letter: "Grazie per il vostro ordine. Vi preghiamo di pagare l'importo indicato entro la data di scadenza.",
    labels: 'Fattura n. 17 del 3 marzo Imponibile 40,00 IVA 22% Totale 48,80 Scadenza 2 aprile',
  },
};

describe('language of a text among six', () => {
  it('covers the six languages OCR has models for', () => {
    expect([...LANGUAGES].sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it.each(Object.keys(SAMPLES))('tells %s from a letter sentence and from labels alone', (language) => {
    const { letter, labels } = SAMPLES[language]!;
    expect(detectLanguage(letter)?.language).toBe(language);
    expect(detectLanguage(labels)?.language).toBe(language);
    expect(detectLanguage(`${letter}\n${labels}`)!.confidence).toBeGreaterThanOrEqual(0.6);
  });

  it('still tells them apart when OCR with another model dropped the accents', () => {
    const plain = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'B');
    for (const [language, { letter }] of Object.entries(SAMPLES))
      expect(detectLanguage(plain(letter))?.language, language).toBe(language);
  });

  it('chooses among the languages it is given only', () => {
    const dutch = SAMPLES.nl!.letter;
    expect(detectLanguage(dutch, { among: ['de', 'en'] })?.language).not.toBe('nl');
    expect(detectLanguage(dutch, { among: ['nl', 'de'] })?.language).toBe('nl');
    expect(detectLanguage('Anything at all here', { among: ['it'] })).toEqual({ language: 'it', confidence: 1 });
  });

  it('says when it cannot tell', () => {
    expect(detectLanguage('ok')).toBeNull();
    expect(detectLanguage('XJ-4411 QQ-1234 ZZ-99 KK')?.language).toBe('und');
  });
});
