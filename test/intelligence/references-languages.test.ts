import { describe, expect, it } from 'vitest';
import type { EventType } from '../../common/archive-types.ts';
import { findReferences, pickReference } from '../../server/intelligence/references.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const referenceOf = (text: string, type: EventType = 'invoice'): string | undefined => {
  const doc = makeDoc(text);
  return pickReference(doc.lines, findReferences(doc), type)?.value;
};

describe('invoice numbers in six languages', () => {
  it('reads the invoice number, not the order number or the VAT id beside it', () => {
    expect(referenceOf('Commande n° C-99812\nFACTURE N° F-2026-118\nN° TVA intracommunautaire FR12345678901')).toBe(
      'F-2026-118',
    );
    expect(referenceOf('Numéro de facture : 2026-118\nN° client : C-778')).toBe('2026-118');
    expect(referenceOf('Ordernummer: 88123\nFactuurnummer: 2026-0457\nBTW-nummer NL123456789B01\nKvK 12345678')).toBe(
      '2026-0457',
    );
    expect(referenceOf('Pedido nº 5566\nFactura nº A-2026-77\nNIF B12345678')).toBe('A-2026-77');
    expect(referenceOf('Ordine n. 4455\nFattura n. 77/2026\nP.IVA 01234567890')).toBe('77/2026');
  });

  it('takes no order number, VAT id or register number as an invoice number', () => {
    expect(referenceOf('INVOICE\nOrder Number: 771234\nVAT No: GB123456789')).toBeUndefined();
    expect(referenceOf('Facture\nSIRET 123 456 789 00012\nN° TVA FR12345678901\nBon de commande 4471')).toBeUndefined();
    expect(referenceOf('Factuur\nKvK-nummer 12345678\nBTW-id NL123456789B01')).toBeUndefined();
    expect(referenceOf('Fattura\nPartita IVA 01234567890\nCodice fiscale RSSMRA80A01H501U')).toBeUndefined();
    expect(referenceOf('TAX INVOICE\nGST Reg No: 001234567890\nInvoice No: CS-10023')).toBe('CS-10023');
  });

  it('reads a credit note number in French, Spanish and Italian', () => {
    expect(referenceOf('Avoir n° AV-031\nFacture n° F-2026-118', 'credit_note')).toBe('AV-031');
    expect(referenceOf('Factura rectificativa nº R-12\nFactura nº A-2026-77', 'credit_note')).toBe('R-12');
    expect(referenceOf('Nota di credito n. NC-5\nFattura n. 77/2026', 'credit_note')).toBe('NC-5');
  });

  it('still takes the order number of a receipt that has nothing else', () => {
    expect(referenceOf('Order confirmation and receipt\nOrder number WX-4410', 'receipt')).toBe('WX-4410');
  });
});
