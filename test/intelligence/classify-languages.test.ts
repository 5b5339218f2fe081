import { describe, expect, it } from 'vitest';
import type { EventType } from '../../common/archive-types.ts';
import { classify } from '../../server/intelligence/classify.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const typeOf = (text: string, hasTotal = true): EventType =>
  classify(makeDoc(text), { hasTotal, hasDueDate: false, referenceKinds: new Set() }).type;

/** A short invented document: a letterhead, a heading, a few lines of body. */
const doc = (heading: string, body: string): string => `Atelier Plume SARL\n12 rue des Lilas\n\n${heading}\n\n${body}`;

describe('document types in French, Dutch, Spanish and Italian', () => {
  it('recognises an invoice by its heading', () => {
    expect(typeOf(doc('FACTURE N° F-2026-118', 'Désignation Quantité Prix\nTotal TTC 240,00 €'))).toBe('invoice');
    expect(typeOf(doc('Factuur', 'Omschrijving Aantal Bedrag\nTotaal 240,00 €'))).toBe('invoice');
    expect(typeOf(doc('Factura 2026/044', 'Concepto Importe\nTotal 240,00 €'))).toBe('invoice');
    expect(typeOf(doc('Fattura n. 77/2026', 'Descrizione Importo\nTotale 240,00 €'))).toBe('invoice');
  });

  it('tells a credit note from an invoice, including the French "avoir"', () => {
    expect(typeOf(doc('AVOIR N° AV-031', 'Annulation partielle de la facture F-2026-118\nTotal TTC -40,00 €'))).toBe(
      'credit_note',
    );
    expect(typeOf(doc('Creditnota', 'Correctie op factuur 2026-118\nTotaal -40,00 €'))).toBe('credit_note');
    expect(typeOf(doc('Factura rectificativa R-12', 'Rectifica la factura 2026/044\nTotal -40,00 €'))).toBe(
      'credit_note',
    );
    expect(typeOf(doc('Nota di credito n. 5', 'Storno parziale della fattura 77/2026\nTotale -40,00 €'))).toBe(
      'credit_note',
    );
  });

  it('does not take the French verb "avoir" for a credit note', () => {
    const letter = doc(
      'Objet : votre demande',
      'Nous serions ravis de vous avoir parmi nous et espérons avoir le plaisir de vous revoir.\nNous pensons avoir répondu à vos questions.',
    );
    expect(typeOf(letter, false)).not.toBe('credit_note');
  });

  it('recognises reminders, receipts, contracts, payslips, tax notices, policies and statements', () => {
    const cases: Array<[string, string, EventType]> = [
      ['Relance : facture impayée', 'Sauf erreur de notre part, la facture F-2026-118 reste impayée.', 'notice'],
      ['Betalingsherinnering', 'Wij hebben uw betaling voor factuur 2026-118 nog niet ontvangen.', 'notice'],
      ['Sollecito di pagamento', 'La fattura 77/2026 risulta ancora da saldare.', 'notice'],
      ['Recordatorio de pago', 'La factura 2026/044 sigue pendiente de pago.', 'notice'],
      ['TICKET DE CAISSE', 'Pain 1,20\nCafé 2,40\nTotal 3,60 €\nEspèces 5,00', 'receipt'],
      ['Kassabon', 'Brood 1,20\nKoffie 2,40\nTotaal 3,60 €', 'receipt'],
      ['Scontrino fiscale', 'Pane 1,20\nCaffè 2,40\nTotale 3,60 €', 'receipt'],
      ['Contrat de location', 'Entre les soussignés, il a été convenu ce qui suit. Durée : trois ans.', 'contract'],
      ['Huurovereenkomst', 'De ondergetekenden komen het volgende overeen.', 'contract'],
      ['Bulletin de paie', 'Salaire de base 2 400,00\nNet à payer 1 870,00', 'payslip'],
      ['Loonstrook', 'Brutoloon 2.400,00\nNettoloon 1.870,00', 'payslip'],
      ['Nómina', 'Salario base 2.400,00\nLíquido a percibir 1.870,00', 'payslip'],
      ['Busta paga', 'Retribuzione 2.400,00\nNetto in busta 1.870,00', 'payslip'],
      ["Avis d'imposition", 'Impôt sur le revenu 2026\nMontant à payer 410,00 €', 'notice'],
      ['Voorlopige aanslag', 'Inkomstenbelasting 2026\nTe betalen 410,00 €', 'notice'],
      ["Police d'assurance", 'Assuré : M. Martin\nPrime annuelle 320,00 €', 'policy'],
      ['Polizza assicurativa', 'Contraente: Sig. Rossi\nPremio annuo 320,00 €', 'policy'],
      ['Relevé de compte', 'Ancien solde 1 200,00\nNouveau solde 980,00', 'statement'],
      ['Extracto de cuenta', 'Saldo anterior 1.200,00\nSaldo final 980,00', 'statement'],
      ['Devis n° D-55', 'Travaux de peinture\nTotal TTC 1 800,00 €', 'offer'],
      ['Offerte', 'Schilderwerk\nTotaal 1.800,00 €', 'offer'],
    ];
    for (const [heading, body, type] of cases) expect(typeOf(doc(heading, body)), heading).toBe(type);
  });
});
