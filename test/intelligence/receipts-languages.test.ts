import { describe, expect, it } from 'vitest';
import type { EventType } from '../../common/archive-types.ts';
import { classify } from '../../server/intelligence/classify.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const typeOf = (text: string): EventType =>
  classify(makeDoc(text), { hasTotal: true, hasDueDate: false, referenceKinds: new Set() }).type;

describe('receipts paid at the till, in six languages', () => {
  it('are receipts whatever their heading, when payment, till and thanks are all there', () => {
    expect(
      typeOf(
        'Corner Bakery Ltd\nTAX INVOICE\nBread 2.40\nTOTAL 2.40\nCASH 10.00\nCHANGE 7.60\nCashier: 03\nThank you for shopping with us',
      ),
    ).toBe('receipt');
    expect(
      typeOf(
        'Boulangerie du Coin\nFACTURE\nPain 2,40\nTotal 2,40 €\nEspèces 10,00\nRendu monnaie 7,60\nCaisse 2\nMerci de votre visite',
      ),
    ).toBe('receipt');
    expect(
      typeOf(
        'Bakkerij de Hoek\nFactuur\nBrood 2,40\nTotaal 2,40\nContant 10,00\nWisselgeld 7,60\nKassa 2\nBedankt voor uw aankoop',
      ),
    ).toBe('receipt');
    expect(
      typeOf(
        'Panadería La Esquina\nFactura simplificada\nPan 2,40\nTotal 2,40\nEfectivo 10,00\nCambio 7,60\nCaja 2\nGracias por su compra',
      ),
    ).toBe('receipt');
    expect(
      typeOf(
        'Panificio Angolo\nFattura\nPane 2,40\nTotale 2,40\nContanti 10,00\nResto 7,60\nCassa 2\nGrazie e arrivederci',
      ),
    ).toBe('receipt');
  });

  it('leaves letters that only mention change, cash or thanks alone', () => {
    expect(
      typeOf(
        'Re: Change of address\nDear Sir or Madam,\nI am writing to tell you about a change of address.\nThank you for your help.',
      ),
    ).not.toBe('receipt');
    expect(typeOf('Compte rendu de la réunion\nLe budget de la caisse sera revu.\nMerci de votre attention.')).not.toBe(
      'receipt',
    );
  });
});
