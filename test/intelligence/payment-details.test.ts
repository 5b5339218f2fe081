import { describe, expect, it } from 'vitest';
import { groupIban, isValidBic, isValidCreditorReference, isValidIban } from '../../common/payment-codes.ts';
import { findPaymentDetails } from '../../server/intelligence/payment-details.ts';
import { makeDoc } from '../../server/intelligence/text.ts';
import { understand } from '../../server/intelligence/understand.ts';

// Account numbers are the registries' published examples; names and numbers are invented.

const details = (text: string) => findPaymentDetails(makeDoc(text));

describe('IBAN check', () => {
  it('accepts the registry examples of several countries', () => {
    for (const iban of [
      'DE89370400440532013000',
      'GB29NWBK60161331926819',
      'FR1420041010050500013M02606',
      'BE68539007547034',
      'NL91ABNA0417164300',
      'AT611904300234573201',
      'CH9300762011623852957',
      'NO9386011117947',
    ]) {
      expect(isValidIban(iban), iban).toBe(true);
    }
  });

  it('refuses a changed digit, swapped digits, a wrong length and an unknown country', () => {
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE89370400440532010300')).toBe(false);
    expect(isValidIban('DE8937040044053201300')).toBe(false);
    expect(isValidIban('DE893704004405320130000')).toBe(false);
    // Right check digits for a country code the registry does not have.
    expect(isValidIban('QQ59370400440532013000')).toBe(false);
  });

  it('groups an IBAN in fours', () => {
    expect(groupIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
  });
});

describe('BIC and creditor reference shapes', () => {
  it('knows a BIC by its shape and country', () => {
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('DEUTDEFF')).toBe(true);
    expect(isValidBic('COBADEFFXX')).toBe(false);
    expect(isValidBic('RECHNUNG')).toBe(false);
  });

  it('checks an ISO 11649 creditor reference', () => {
    expect(isValidCreditorReference('RF18539007547034')).toBe(true);
    expect(isValidCreditorReference('RF18539007547035')).toBe(false);
    expect(isValidCreditorReference('RF185390075470341234567890')).toBe(false);
  });
});

describe('findPaymentDetails', () => {
  it('reads IBAN, BIC and the purpose of payment of a German invoice', () => {
    const found = details(
      [
        'Rechnung Nr. 2027-0415',
        'Gesamtbetrag 1.190,00 EUR',
        'Bitte überweisen Sie den Betrag bis zum 30.04.2027.',
        'Verwendungszweck: Rechnung 2027-0415',
        'Bankverbindung: Sparkasse Nord · IBAN: DE89 3704 0044 0532 0130 00 · BIC: COBADEFFXXX',
      ].join('\n'),
    );
    expect(found.iban?.value).toBe('DE89370400440532013000');
    expect(found.bic?.value).toBe('COBADEFFXXX');
    expect(found.paymentReference?.value).toBe('Rechnung 2027-0415');
  });

  it('finds no IBAN where a check digit was misread', () => {
    expect(details('IBAN: DE89 3704 0044 0532 0130 01').iban).toBeNull();
  });

  it("skips the reader's own account of a direct debit", () => {
    const found = details(
      [
        'Der Betrag wird per Lastschrift von Ihrem Konto DE89 3704 0044 0532 0130 00 abgebucht.',
        'Gläubiger: Stadtwerke Beispiel, IBAN GB29 NWBK 6016 1331 9268 19',
      ].join('\n'),
    );
    expect(found.iban?.value).toBe('GB29NWBK60161331926819');
  });

  it('prefers a valid creditor reference and ignores one with a wrong check', () => {
    expect(details('Reference: RF18 5390 0754 7034\nPayment reference: Invoice 88').paymentReference?.value).toBe(
      'RF18539007547034',
    );
    expect(details('Reference: RF18 5390 0754 7035\nPayment reference: Invoice 88').paymentReference?.value).toBe(
      'Invoice 88',
    );
  });

  it('reads a Belgian structured communication when its check holds', () => {
    expect(details('Communication: +++090/9337/55493+++').paymentReference?.value).toBe('+++090/9337/55493+++');
    expect(details('Mededeling +++090/9337/55494+++').paymentReference).toBeNull();
  });

  it('takes a reference written under its label, and none from running text', () => {
    expect(details('Verwendungszweck:\nKD 48213 / RE 2027-17').paymentReference?.value).toBe('KD 48213 / RE 2027-17');
    expect(details('Please quote the payment reference when paying.').paymentReference).toBeNull();
  });
});

describe('understand: payment fields', () => {
  const base = { filename: 'scan.pdf', categories: [], einvoice: null, today: '2027-05-01' };

  it('gives iban, bic and payment_reference as extracted fields', () => {
    const result = understand({
      ...base,
      text: [
        'Nordlicht Design GmbH',
        'Rechnung',
        'Rechnungsnummer: 2027-0415',
        'Rechnungsdatum: 12.04.2027',
        'Gesamtbetrag: 1.190,00 EUR',
        'Zahlbar bis 30.04.2027',
        'Verwendungszweck: RE 2027-0415',
        'IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX',
      ].join('\n'),
    });
    expect(result.iban).toMatchObject({ value: 'DE89370400440532013000', source: 'text' });
    expect(result.bic).toMatchObject({ value: 'COBADEFFXXX', source: 'text' });
    expect(result.payment_reference).toMatchObject({ value: 'RE 2027-0415', source: 'text' });
  });
});
