import { describe, expect, it } from 'vitest';
import { de, en, type Message } from '../../common/i18n/messages.ts';
import { pickLocale, placeholders, plural, translate } from '../../common/i18n/translate.ts';

const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : [message.one, message.other]);

describe('i18n dictionaries', () => {
  it('German has every English key and no extra ones', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });
  it('every German string is translated (non-empty), keeps the same placeholders and the same plural shape', () => {
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      for (const form of forms(de[key])) expect(form.trim(), key).not.toBe('');
      expect(typeof de[key], key).toBe(typeof en[key]);
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
    }
  });
  it('every plural message has a {count} to choose its form by', () => {
    for (const [key, message] of Object.entries({ ...en, ...de })) {
      if (typeof message !== 'string') expect(placeholders(message), key).toContain('count');
    }
  });
  it('fills placeholders and formats numbers for the locale', () => {
    expect(translate('en', 'library.count', { count: 10_000 })).toBe('10,000 documents');
    expect(translate('de', 'library.count', { count: 10_000 })).toBe('10.000 Dokumente');
    expect(translate('de', 'library.results', { count: 2, query: 'Strom' })).toBe('2 Treffer für „Strom“');
  });
  it('picks the plural form by count, in English and German', () => {
    expect(plural('en', 1, { one: 'one', other: 'other' })).toBe('one');
    for (const count of [0, 2, 1.5, 10_000]) expect(plural('en', count, { one: 'one', other: 'other' })).toBe('other');
    expect(plural('de', 1, { one: 'eins', other: 'viele' })).toBe('eins');
    expect(plural('de', 0, { one: 'eins', other: 'viele' })).toBe('viele');

    expect(translate('en', 'library.count', { count: 1 })).toBe('1 document');
    expect(translate('en', 'library.count', { count: 0 })).toBe('0 documents');
    expect(translate('de', 'library.count', { count: 1 })).toBe('1 Dokument');
    expect(translate('en', 'uploads.submitted', { count: 1 })).toBe('1 file added to the queue.');
    expect(translate('en', 'uploads.submitted', { count: 3 })).toBe('3 files added to the queue.');
    expect(translate('de', 'uploads.submitted', { count: 1 })).toBe('1 Datei zur Warteschlange hinzugefügt.');
    expect(translate('de', 'uploads.submitted', { count: 3 })).toBe('3 Dateien zur Warteschlange hinzugefügt.');
    expect(
      translate('en', 'banner.offlineReason', { reason: 'Cannot reach the service (ECONNREFUSED)', count: 1 }),
    ).toBe('Offline — Cannot reach the service (ECONNREFUSED). 1 upload queued.');
    expect(translate('en', 'banner.offlineReason', { reason: 'timeout', count: 3 })).toBe(
      'Offline — timeout. 3 uploads queued.',
    );
    expect(translate('de', 'banner.offlineReason', { reason: 'Zeitüberschreitung', count: 1 })).toBe(
      'Offline — Zeitüberschreitung. 1 Upload in der Warteschlange.',
    );
    expect(translate('en', 'due.daysLeft', { count: 1 })).toBe('in 1 day');
    expect(translate('de', 'due.daysOver', { count: 2 })).toBe('seit 2 Tagen überfällig');
    // Without a count a plural message reads as "other" rather than failing.
    expect(translate('en', 'library.count')).toBe('{count} documents');
  });
  it('picks a stored locale, then the OS languages, then English', () => {
    expect(pickLocale('de', ['en-US'])).toBe('de');
    expect(pickLocale(null, ['fr-FR', 'de-AT'])).toBe('de');
    expect(pickLocale('xx', ['fr'])).toBe('en');
  });
});
