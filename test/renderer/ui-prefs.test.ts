import { describe, expect, it } from 'vitest';
import {
  CACHE_KEY,
  firstPaint,
  forgetLegacy,
  LEGACY_KEYS,
  legacyPatch,
  readCache,
  UI_PREFS_DEFAULTS,
  writeCache,
  type StorageLike,
} from '../../renderer/src/lib/ui-prefs.ts';
import { defaultSettings } from '../../common/settings.ts';

function storage(entries: Record<string, string> = {}): StorageLike & { map: Map<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      map.set(key, value);
    },
    removeItem: (key) => {
      map.delete(key);
    },
  };
}

describe('UI preferences: settings first, the page storage only a cache', () => {
  it('caches what the settings say for the first paint, and ignores a damaged cache', () => {
    const s = storage();
    expect(firstPaint(s)).toBeNull();
    writeCache(s, { appearance: 'dark', language: 'de', onboarded: true, library_view: 'grid' });
    expect(readCache(s)).toEqual({ appearance: 'dark', language: 'de', onboarded: true, library_view: 'grid' });
    s.setItem(CACHE_KEY, '{"appearance":"neon","language":"fr","onboarded":"yes","library_view":"table"}');
    expect(readCache(s)).toEqual(UI_PREFS_DEFAULTS);
    s.setItem(CACHE_KEY, 'not json');
    expect(readCache(s)).toBeNull();
    expect(firstPaint(null)).toBeNull();
  });

  it("paints with the settings' values the shell put in the page before the cache, and ignores damaged ones", () => {
    const s = storage();
    const cachedPrefs = { appearance: 'light', language: 'en', onboarded: true, library_view: 'list' } as const;
    writeCache(s, cachedPrefs);
    const servedPrefs = { appearance: 'dark', language: 'de', onboarded: true, library_view: 'grid' } as const;
    const served = JSON.stringify(servedPrefs);
    expect(firstPaint(s, served)).toEqual(servedPrefs);
    expect(firstPaint(null, served)).toEqual(servedPrefs);
    expect(firstPaint(s, 'not json')).toEqual(cachedPrefs);
    expect(firstPaint(s, undefined)).toEqual(cachedPrefs);
  });

  it('paints the first frame from what an older renderer left when there is no cache yet', () => {
    const s = storage({ [LEGACY_KEYS.theme]: 'dark', [LEGACY_KEYS.locale]: 'de', [LEGACY_KEYS.onboarded]: '1' });
    expect(firstPaint(s)).toEqual({ appearance: 'dark', language: 'de', onboarded: true, library_view: 'list' });
    // The Library's view, kept in the page's storage before it was a setting.
    expect(firstPaint(storage({ [LEGACY_KEYS.libraryView]: 'grid' }))).toEqual({
      ...UI_PREFS_DEFAULTS,
      library_view: 'grid',
    });
  });

  it("adopts the older renderer's choices into the settings once, where the settings still have their defaults", () => {
    const old = storage({
      [LEGACY_KEYS.theme]: 'dark',
      [LEGACY_KEYS.locale]: 'de',
      [LEGACY_KEYS.onboarded]: '1',
      [LEGACY_KEYS.libraryView]: 'grid',
    });
    expect(legacyPatch(old, UI_PREFS_DEFAULTS, ['en-US'])).toEqual({
      appearance: 'dark',
      language: 'de',
      onboarded: true,
      library_view: 'grid',
    });
    // A value chosen in the settings wins; the OS language stored on every start was no choice.
    expect(
      legacyPatch(old, { appearance: 'light', language: null, onboarded: true, library_view: 'grid' }, ['de-DE']),
    ).toBeNull();
    expect(legacyPatch(storage({ [LEGACY_KEYS.theme]: 'system' }), UI_PREFS_DEFAULTS, [])).toBeNull();
    forgetLegacy(old);
    expect([...old.map.keys()]).toEqual([]);
    expect(legacyPatch(old, UI_PREFS_DEFAULTS, [])).toBeNull();
  });
});

describe("the renderer's defaults", () => {
  it("are the settings schema's (the renderer keeps a copy so zod stays out of its entry script)", () => {
    const { appearance, language, onboarded, library_view } = defaultSettings().ui;
    expect(UI_PREFS_DEFAULTS).toEqual({ appearance, language, onboarded, library_view });
  });
});
