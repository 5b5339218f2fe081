import { describe, expect, it } from 'vitest';
import { readContractTerms, type ContractTerms } from '../../server/intelligence/contract-reader.ts';
import { findDates } from '../../server/intelligence/dates.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const read = (text: string): { start?: string; end?: string; notice?: string } => {
  const doc = makeDoc(text);
  const terms: ContractTerms = readContractTerms(doc, findDates(doc, { monthFirst: false, today: '2027-01-20' }));
  return {
    ...(terms.start ? { start: terms.start.iso } : {}),
    ...(terms.end ? { end: terms.end.iso } : {}),
    ...(terms.noticePeriod ? { notice: `${terms.noticePeriod.value.count} ${terms.noticePeriod.value.unit}` } : {}),
  };
};

describe('contract terms in six languages', () => {
  it('reads start, end and notice period from labels', () => {
    expect(
      read(
        'Mietvertrag\nVertragsbeginn: 01.04.2027\nVertragsende: 31.03.2029\nKündigungsfrist: 3 Monate zum Monatsende',
      ),
    ).toEqual({ start: '2027-04-01', end: '2029-03-31', notice: '3 month' });
    expect(
      read(
        "Service Agreement\nStart date: 1 April 2027\nEnd date: 31 March 2028\nEither party may terminate with one month's written notice.",
      ),
    ).toEqual({ start: '2027-04-01', end: '2028-03-31', notice: '1 month' });
    expect(
      read('Contrat de maintenance\nDate de début : 1er avril 2027\nDate de fin : 31 mars 2028\nPréavis : deux mois'),
    ).toEqual({ start: '2027-04-01', end: '2028-03-31', notice: '2 month' });
    expect(
      read('Huurovereenkomst\nIngangsdatum: 1 april 2027\nEinddatum: 31 maart 2029\nOpzegtermijn: 1 maand'),
    ).toEqual({ start: '2027-04-01', end: '2029-03-31', notice: '1 month' });
    expect(
      read(
        'Contrato de servicios\nFecha de inicio: 1 de abril de 2027\nFecha de finalización: 31 de marzo de 2028\nPreaviso de 30 días',
      ),
    ).toEqual({ start: '2027-04-01', end: '2028-03-31', notice: '30 day' });
    expect(
      read(
        'Contratto di locazione\nData di decorrenza: 1 aprile 2027\nData di scadenza: 31 marzo 2031\nPreavviso di sei mesi',
      ),
    ).toEqual({ start: '2027-04-01', end: '2031-03-31', notice: '6 month' });
  });

  it('reads a term written as a period', () => {
    expect(read('Durée du contrat : du 1er avril 2027 au 31 mars 2028')).toEqual({
      start: '2027-04-01',
      end: '2028-03-31',
    });
    expect(read('Looptijd: van 01-04-2027 tot en met 31-03-2028')).toEqual({ start: '2027-04-01', end: '2028-03-31' });
    expect(read('Laufzeit vom 01.04.2027 bis 31.03.2028')).toEqual({ start: '2027-04-01', end: '2028-03-31' });
  });

  it('takes a label on the line above a date, and reads nothing where the text has no term', () => {
    expect(read('Vertragsbeginn\n01.04.2027')).toEqual({ start: '2027-04-01' });
    expect(read('Rechnung vom 01.04.2027\nZahlbar innerhalb von 14 Tagen')).toEqual({});
  });
});
