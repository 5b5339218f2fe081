import { describe, expect, it } from 'vitest';
import { displayField, fieldLabel, fieldValueText, humanFieldName } from '../../renderer/src/lib/field-display.ts';
import {
  formatDate,
  formatDateTime,
  formatMoney,
  formatPercent,
  languageName,
} from '../../common/i18n/locale-format.ts';

// Intl puts a narrow no-break space before "€" and in German times; compared with plain spaces.
const plain = (s: string): string => s.replace(/[\u00a0\u202f]/g, ' ');

describe('locale formatting', () => {
  it('writes an amount with its currency one way per locale', () => {
    expect(plain(formatMoney('en', 89.5, 'EUR'))).toBe('€89.50');
    expect(plain(formatMoney('de', 89.5, 'EUR'))).toBe('89,50 €');
    expect(plain(formatMoney('de', 1234.5, 'CHF'))).toBe('1.234,50 CHF');
    // A code Intl refuses still shows its amount in the locale's digits.
    expect(plain(formatMoney('de', 12.5, 'E1'))).toBe('12,5 E1');
  });
  it('reads a calendar date as that local day and shows German times on a 24-hour clock', () => {
    expect(formatDate('en', '2026-11-05')).toBe('Nov 5, 2026');
    expect(formatDate('de', '2026-11-05')).toBe('5. Nov. 2026');
    expect(formatDate('de', null)).toBe('—');
    expect(formatDate('de', 'soon')).toBe('soon');
    const evening = new Date(2026, 10, 5, 18, 6).toISOString();
    expect(plain(formatDateTime('de', evening))).toBe('05.11.2026, 18:06');
    expect(plain(formatDateTime('en', evening))).toBe('Nov 5, 2026, 6:06 PM');
  });
  it('names languages and shares in the UI language', () => {
    expect(languageName('de', 'en')).toBe('Englisch');
    expect(languageName('en', 'de')).toBe('German');
    expect(languageName('en', 'qqq')).toBe('qqq');
    expect(plain(formatPercent('de', 0.87))).toBe('87 %');
  });
});

describe('extracted fields in the UI language', () => {
  it('labels known fields and makes unknown names readable, never the raw key', () => {
    expect(fieldLabel('de', 'buyer_name')).toBe('Empfänger');
    expect(fieldLabel('de', 'ocr_confidence')).toBe('Sicherheit der Texterkennung');
    expect(fieldLabel('en', 'event_type')).toBe('Event type');
    expect(humanFieldName('buyer_vat_id')).toBe('Buyer vat id');
    expect(fieldLabel('de', 'buyer_vat_id')).toBe('Buyer vat id');
    // A contract's terms, read by the service's rules, in the UI language too.
    expect(fieldLabel('de', 'contract_start')).toBe('Vertragsbeginn');
    expect(fieldLabel('de', 'contract_end')).toBe('Vertragsende');
    expect(fieldLabel('de', 'notice_period')).toBe('Kündigungsfrist');
    expect(fieldLabel('en', 'notice_period')).toBe('Notice period');
  });
  it('words a period in the locale, never as the service sent it', () => {
    expect(fieldValueText('de', 'notice_period', { count: 3, unit: 'month' })).toBe('3 Monate');
    expect(fieldValueText('en', 'notice_period', { count: 3, unit: 'month' })).toBe('3 months');
    expect(fieldValueText('de', 'notice_period', { count: 1, unit: 'year' })).toBe('1 Jahr');
    expect(fieldValueText('en', 'notice_period', { count: 2, unit: 'week' })).toBe('2 weeks');
    expect(fieldValueText('de', 'notice_period', { count: 30, unit: 'day' })).toBe('30 Tage');
  });
  it('groups an IBAN in fours as the payment card does, so a narrow column wraps it between groups', () => {
    expect(fieldValueText('de', 'iban', 'DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(fieldValueText('en', 'iban', 'DE89 3704 0044 0532 013000')).toBe('DE89 3704 0044 0532 0130 00');
  });
  it('words enum values, dates, amounts and languages in the locale', () => {
    expect(fieldValueText('de', 'event_type', 'invoice')).toBe('Rechnung');
    expect(fieldValueText('de', 'event_type', 'policy')).toBe('Police');
    expect(fieldValueText('de', 'state_hint', 'needs_input')).toBe('Angaben fehlen');
    expect(fieldValueText('de', 'document_date', '2026-10-03')).toBe('3. Okt. 2026');
    expect(plain(fieldValueText('de', 'amount', { value: 120, currency: 'EUR' }))).toBe('120,00 €');
    expect(fieldValueText('de', 'language', 'und')).toBe('Nicht erkannt');
    expect(fieldValueText('de', 'language', 'de')).toBe('Deutsch');
    expect(fieldValueText('en', 'tags', ['a', 'b'])).toBe('a, b');
    expect(fieldValueText('de', 'reference_number', 'R-2026-11')).toBe('R-2026-11');
    // A type the app does not know stays as sent rather than disappearing.
    expect(fieldValueText('de', 'event_type', 'warranty')).toBe('warranty');
  });
  it('names the source', () => {
    expect(
      displayField('de', { name: 'amount', raw: { value: 5, currency: 'EUR' }, source: 'metadata', confidence: 1 }),
    ).toEqual({ name: 'amount', label: 'Betrag', value: '5,00\u00a0€', source: 'Angaben beim Upload' });
    expect(displayField('en', { name: 'title', raw: 'x', source: 'e-invoice', confidence: 1 }).source).toBe(
      'E-invoice',
    );
    expect(displayField('en', { name: 'x', raw: 1, source: '—', confidence: null }).source).toBe('—');
  });
});
