import type { Settings } from '../../../common/settings.ts';
import { isTheme } from './theme.ts';
import { isLocale, pickLocale } from '../../../common/i18n/translate.ts';

/**
 * The part of settings.ui the renderer itself reads: theme, language, whether the welcome guide was done, and the
 * Library's view.
 */
export type UiPrefs = Pick<Settings['ui'], 'appearance' | 'language' | 'onboarded' | 'library_view'>;

export const UI_PREFS_DEFAULTS: UiPrefs = {
  appearance: 'system',
  language: null,
  onboarded: false,
  library_view: 'list',
};

/** The first-paint cache of the settings' values (they arrive one round trip later). */
export const CACHE_KEY = 'archive.ui';
/** Where the renderer kept these before the settings had them (settings version 1). */
export const LEGACY_KEYS = {
  theme: 'archive.theme',
  locale: 'archive.locale',
  onboarded: 'archive.onboarded',
  libraryView: 'archive.libraryView',
} as const;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The page's storage, or null where it is disabled (then every start waits for the settings). */
export function pageStorage(): StorageLike | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** A stored view, or the list: only the two views exist (the settings schema stays out of the entry script). */
function libraryViewOf(value: unknown): UiPrefs['library_view'] {
  return value === 'grid' ? 'grid' : 'list';
}

export function pickPrefs(ui: Settings['ui']): UiPrefs {
  return { appearance: ui.appearance, language: ui.language, onboarded: ui.onboarded, library_view: ui.library_view };
}

export function readCache(storage: StorageLike | null): UiPrefs | null {
  let raw: string | null;
  try {
    raw = storage?.getItem(CACHE_KEY) ?? null;
  } catch {
    return null;
  }
  return raw === null ? null : parsePrefs(raw);
}

/** Stored or served values (JSON), checked field by field: an unknown value is the default, not a failure. */
export function parsePrefs(raw: string): UiPrefs | null {
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof UiPrefs, unknown>> | null;
    if (typeof value !== 'object' || value === null) return null;
    return {
      appearance: isTheme(value.appearance) ? value.appearance : 'system',
      language: isLocale(value.language) ? value.language : null,
      onboarded: value.onboarded === true,
      library_view: libraryViewOf(value.library_view),
    };
  } catch {
    return null;
  }
}

export function writeCache(storage: StorageLike | null, prefs: UiPrefs): void {
  try {
    storage?.setItem(CACHE_KEY, JSON.stringify(prefs));
  } catch {
    /* storage may be full or disabled */
  }
}

/** What an older renderer left in this origin's storage (before the settings had these fields); null when nothing. */
export function readLegacy(
  storage: StorageLike | null,
): { theme: string | null; locale: string | null; onboarded: boolean; libraryView: string | null } | null {
  if (!storage) return null;
  const read = (key: string): string | null => {
    try {
      return storage.getItem(key);
    } catch {
      return null;
    }
  };
  const legacy = {
    theme: read(LEGACY_KEYS.theme),
    locale: read(LEGACY_KEYS.locale),
    onboarded: read(LEGACY_KEYS.onboarded) === '1',
    libraryView: read(LEGACY_KEYS.libraryView),
  };
  return legacy.theme === null && legacy.locale === null && !legacy.onboarded && legacy.libraryView === null
    ? null
    : legacy;
}

/**
 * The values to paint the first frame with: the settings' own when the shell put them in the page (`data-ui` on
 * <html>, with the library's first paint: main/core/shell/first-paint.ts), else the cache, else what an older
 * renderer left, else null.
 */
export function firstPaint(storage: StorageLike | null, served?: string): UiPrefs | null {
  const fromShell = served === undefined ? null : parsePrefs(served);
  if (fromShell) return fromShell;
  const cached = readCache(storage);
  if (cached) return cached;
  const legacy = readLegacy(storage);
  if (!legacy) return null;
  return {
    appearance: isTheme(legacy.theme) ? legacy.theme : 'system',
    language: isLocale(legacy.locale) ? legacy.locale : null,
    onboarded: legacy.onboarded,
    library_view: libraryViewOf(legacy.libraryView),
  };
}

/**
 * The older renderer's values as a settings patch, for the fields the settings still have at their defaults (a value
 * chosen in the settings wins). That renderer wrote the OS language as a choice on every start, so a stored language
 * equal to what the OS picks is no choice at all. Null when there is nothing to adopt.
 */
export function legacyPatch(
  storage: StorageLike | null,
  current: UiPrefs,
  osLanguages: readonly string[],
): Partial<UiPrefs> | null {
  const legacy = readLegacy(storage);
  if (!legacy) return null;
  const patch: Partial<UiPrefs> = {};
  if (current.appearance === 'system' && isTheme(legacy.theme) && legacy.theme !== 'system')
    patch.appearance = legacy.theme;
  if (current.language === null && isLocale(legacy.locale) && legacy.locale !== pickLocale(null, osLanguages))
    patch.language = legacy.locale;
  if (!current.onboarded && legacy.onboarded) patch.onboarded = true;
  if (current.library_view === 'list' && legacy.libraryView === 'grid') patch.library_view = 'grid';
  return Object.keys(patch).length > 0 ? patch : null;
}

export function forgetLegacy(storage: StorageLike | null): void {
  for (const key of Object.values(LEGACY_KEYS)) {
    try {
      storage?.removeItem(key);
    } catch {
      /* storage may be disabled */
    }
  }
}
