import { describe, expect, it } from 'vitest';
import { pickLocale } from '../../common/i18n/translate.ts';
import { nodeSystemLanguages } from '../../main/core/system-languages.ts';

describe('nodeSystemLanguages (ui.language null outside Electron)', () => {
  const icu = Intl.DateTimeFormat().resolvedOptions().locale;
  it('reads gettext LANGUAGE, then LC_ALL / LC_MESSAGES / LANG, as BCP 47 tags, then the ICU default', () => {
    expect(nodeSystemLanguages({ LANG: 'de_DE.UTF-8' })[0]).toBe('de-DE');
    expect(nodeSystemLanguages({ LANGUAGE: 'fr:de', LANG: 'en_US.UTF-8' }).slice(0, 3)).toEqual(['fr', 'de', 'en-US']);
    expect(nodeSystemLanguages({ LC_ALL: 'de_AT@euro', LANG: 'en_US.UTF-8' })[0]).toBe('de-AT');
    // gettext ignores LANGUAGE under the C locale.
    expect(nodeSystemLanguages({ LANGUAGE: 'de', LANG: 'C' })).toEqual([icu]);
  });
  it('leads pickLocale to German for a German desktop and English for anything unsupported', () => {
    expect(pickLocale(null, nodeSystemLanguages({ LANG: 'de_CH.UTF-8' }))).toBe('de');
    expect(pickLocale(null, nodeSystemLanguages({ LANGUAGE: 'fr', LANG: 'fr_FR.UTF-8' }))).toBe(
      icu.startsWith('de') ? 'de' : 'en',
    );
    expect(pickLocale('en', nodeSystemLanguages({ LANG: 'de_DE.UTF-8' }))).toBe('en');
  });
});
