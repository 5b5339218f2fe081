import { describe, expect, it } from 'vitest';
import { labelDates, pickDueDate } from '../../server/intelligence/date-fields.ts';
import { findDates } from '../../server/intelligence/dates.ts';
import { dueDateFromTerms, parsePaymentTerms } from '../../server/intelligence/payment-terms.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const DOCUMENT_DATE = '2026-03-10';
const dueBy = (terms: string): string | null => {
  const parsed = parsePaymentTerms(makeDoc(terms).lines);
  return parsed ? dueDateFromTerms(parsed, DOCUMENT_DATE) : null;
};

describe('payment terms in six languages', () => {
  it('reads a period in days, weeks or months', () => {
    expect(dueBy('Payment terms: net 14 days')).toBe('2026-03-24');
    expect(dueBy('Terms: Net 30')).toBe('2026-04-09');
    expect(dueBy('Zahlbar innerhalb von 14 Tagen ohne Abzug.')).toBe('2026-03-24');
    expect(dueBy('Paiement à 30 jours.')).toBe('2026-04-09');
    expect(dueBy('Conditions de règlement : trente jours')).toBe('2026-04-09');
    expect(dueBy('Gelieve het bedrag binnen 14 dagen over te maken.')).toBe('2026-03-24');
    expect(dueBy('Betalingstermijn: 2 weken')).toBe('2026-03-24');
    expect(dueBy('Forma de pago: transferencia a 30 días')).toBe('2026-04-09');
    expect(dueBy('Pagamento: bonifico a 60 giorni')).toBe('2026-05-09');
    expect(dueBy('Pagamento entro un mese')).toBe('2026-04-10');
  });

  it('counts business days without weekends and goes to the month end when the terms say so', () => {
    expect(dueBy('Betaling binnen 5 werkdagen')).toBe('2026-03-17');
    expect(dueBy('Règlement : 30 jours fin de mois')).toBe('2026-04-30');
    expect(dueBy('Pagamento: 30 gg d.f.f.m.')).toBe('2026-04-30');
  });

  it('reads payment at once', () => {
    expect(dueBy('Payable à réception de la facture')).toBe(DOCUMENT_DATE);
    expect(dueBy('Te voldoen bij ontvangst')).toBe(DOCUMENT_DATE);
  });

  it('takes no discount period, and nothing from a text without terms', () => {
    expect(dueBy('Escompte de 2 % pour paiement sous 8 jours, net à 30 jours')).toBe('2026-04-09');
    expect(dueBy('Sconto 2% se pagato entro 10 giorni')).toBeNull();
    expect(dueBy("Garantie : 24 mois pièces et main-d'œuvre")).toBeNull();
  });

  it('gives the due date of a document that prints only its terms', () => {
    const doc = makeDoc('Factuurdatum: 10-03-2026\nBetalingstermijn: binnen 30 dagen na factuurdatum');
    const labelled = labelDates(doc, findDates(doc, { monthFirst: false, today: '2026-06-01' }));
    expect(pickDueDate(doc.lines, labelled, DOCUMENT_DATE)?.iso).toBe('2026-04-09');
  });
});

describe('due and issue date labels in French, Dutch, Spanish and Italian', () => {
  it('reads the due date by its label, not the issue date beside it', () => {
    const cases: Array<[string, string]> = [
      ["Date de facture : 10/03/2026\nDate d'échéance : 09/04/2026", '2026-04-09'],
      ['Factuurdatum: 10-03-2026\nVervaldatum: 09-04-2026', '2026-04-09'],
      ['Fecha de emisión: 10/03/2026\nFecha de vencimiento: 09/04/2026', '2026-04-09'],
      ['Data fattura: 10/03/2026\nData scadenza: 09/04/2026', '2026-04-09'],
    ];
    for (const [text, iso] of cases) {
      const doc = makeDoc(text);
      const labelled = labelDates(doc, findDates(doc, { monthFirst: false, today: '2026-06-01' }));
      expect(pickDueDate(doc.lines, labelled, DOCUMENT_DATE)?.iso, text).toBe(iso);
    }
  });
});
