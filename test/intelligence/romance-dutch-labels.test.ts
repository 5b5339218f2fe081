/**
 * Labels and wording of French, Dutch, Spanish and Italian documents that the rules once missed. Every name and
 * number here is invented.
 */
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../common/archive-types.ts';
import { findReferences, pickReference } from '../../server/intelligence/references.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';

const referenceOf = (text: string, type: EventType): string | undefined => {
  const doc = makeDoc(text);
  return pickReference(doc.lines, findReferences(doc), type)?.value;
};

describe('typographic apostrophes', () => {
  it("read a label written with ’ as the lexicon writes it with '", () => {
    expect(
      referenceOf('N° d’avoir AV-5521\nCet avoir corrige notre facture 2026/0042 du 03/02/2026.', 'credit_note'),
    ).toBe('AV-5521');
  });
});

describe('contract numbers and file references', () => {
  it('reads a contract number in French, Dutch, Spanish and Italian', () => {
    expect(referenceOf('Contrat n° KX-40917\nClient n° 5521', 'contract')).toBe('KX-40917');
    expect(referenceOf('Contractnummer: 2027-0815\nKlantnummer 99120', 'contract')).toBe('2027-0815');
    expect(referenceOf('Contrato n.º CSR-3321\nCódigo de cliente 7781', 'contract')).toBe('CSR-3321');
    expect(referenceOf('Rif. contratto LC-2027/18\nCodice cliente 4410', 'contract')).toBe('LC-2027/18');
  });

  it("reads a letter's file reference", () => {
    expect(referenceOf('Notre référence : DOS-7781\nObjet : travaux', 'letter')).toBe('DOS-7781');
    expect(referenceOf('Ons kenmerk PR/2027/044\nDatum 3 maart 2027', 'letter')).toBe('PR/2027/044');
    expect(referenceOf('Nuestra ref.: EXP-5510\nAsunto: horario', 'letter')).toBe('EXP-5510');
    expect(referenceOf('Ns. rif. AM/3390\nOggetto: lavori', 'letter')).toBe('AM/3390');
  });
});

describe('till receipts', () => {
  it('reads the number after a Spanish "Nº ticket"', () => {
    expect(referenceOf('Ferretería Ejemplo\nNº ticket 004417\n12/03/2027 10:41\nTOTAL 12,30 €', 'receipt')).toBe(
      '004417',
    );
  });
});

describe('the end of a fixed term', () => {
  const dueOf = (text: string): string | undefined =>
    understand({ text, filename: 'scan.pdf', categories: [], einvoice: null, today: '2027-01-20' }).due_date?.value;

  it('is the due date of a contract, in French, Spanish, Italian and Dutch wording', () => {
    expect(dueOf("Contrat d'abonnement\nFait le 04/01/2027\nFin de l'engagement : 31 janvier 2029")).toBe('2029-01-31');
    expect(dueOf('Contrato de mantenimiento\nFecha 04/01/2027\nFin de la permanencia: 31 de enero de 2028')).toBe(
      '2028-01-31',
    );
    expect(dueOf('Contratto di noleggio\nData 04/01/2027\nPrima scadenza 31 gennaio 2031')).toBe('2031-01-31');
    expect(dueOf('Huurovereenkomst\nDatum 04-01-2027\nEinde looptijd 31 januari 2028')).toBe('2028-01-31');
  });
});
