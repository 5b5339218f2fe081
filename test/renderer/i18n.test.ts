import { describe, expect, it } from 'vitest';
import { de, en } from '../../renderer/src/lib/messages.ts';
import { pickLocale, placeholders, translate } from '../../renderer/src/lib/translate.ts';

describe('i18n dictionaries', () => {
  it('German has every English key and no extra ones', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });
  it('every German string is translated (non-empty) and keeps the same placeholders', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(de[key].trim(), key).not.toBe('');
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
    }
  });
  it('fills placeholders and formats numbers for the locale', () => {
    expect(translate('en', 'library.count', { count: 10_000 })).toBe('10,000 documents');
    expect(translate('de', 'library.count', { count: 10_000 })).toBe('10.000 Dokumente');
    expect(translate('de', 'library.results', { count: 2, query: 'Strom' })).toBe('2 Treffer für „Strom“');
  });
  it('picks a stored locale, then the OS languages, then English', () => {
    expect(pickLocale('de', ['en-US'])).toBe('de');
    expect(pickLocale(null, ['fr-FR', 'de-AT'])).toBe('de');
    expect(pickLocale('xx', ['fr'])).toBe('en');
  });
});
