import { desktop } from './desktop.ts';
import { i18n } from './i18n.svelte.ts';
import { applyTheme, type Theme } from './theme.ts';
import type { Locale } from '../../../common/i18n/translate.ts';
import type { LibraryView } from '../../../common/settings.ts';
import {
  firstPaint,
  forgetLegacy,
  legacyPatch,
  pageStorage,
  pickPrefs,
  UI_PREFS_DEFAULTS,
  writeCache,
  type UiPrefs,
} from './ui-prefs.ts';

/**
 * Theme, language, "welcome guide done" and the Library's view: kept in the settings (ui.appearance, ui.language,
 * ui.onboarded, ui.library_view) through
 * the DesktopApi, so they survive whatever origin the page has (the browser shell's port changes per launch). The
 * page's storage only caches them for the first paint, before settings.get answers.
 */
class Preferences {
  appearance = $state<Theme>('system');
  language = $state<Locale | null>(null);
  onboarded = $state(false);
  libraryView = $state<LibraryView>('list');

  /** Applies the cached values (or the defaults) at once; true when there was a cache to trust. */
  paintFromCache(): boolean {
    const cached = firstPaint(pageStorage(), document.documentElement.dataset.ui);
    this.apply(cached ?? UI_PREFS_DEFAULTS);
    return cached !== null;
  }

  /** The settings' values; what an older renderer left in this origin's storage is adopted into them once. */
  async load(): Promise<void> {
    const api = desktop();
    let prefs = pickPrefs((await api['settings.get']()).ui);
    const storage = pageStorage();
    const patch = legacyPatch(storage, prefs, osLanguages());
    if (patch) prefs = pickPrefs((await api['settings.update']({ ui: patch })).ui);
    forgetLegacy(storage);
    this.apply(prefs);
    writeCache(storage, prefs);
  }

  /** Shows the change at once and saves it; a rejected save puts the previous values back and rethrows. */
  async update(patch: Partial<UiPrefs>): Promise<void> {
    const previous = this.current();
    this.apply({ ...previous, ...patch });
    try {
      const saved = pickPrefs((await desktop()['settings.update']({ ui: patch })).ui);
      this.apply(saved);
      writeCache(pageStorage(), saved);
    } catch (error) {
      this.apply(previous);
      throw error;
    }
  }

  current(): UiPrefs {
    return {
      appearance: this.appearance,
      language: this.language,
      onboarded: this.onboarded,
      library_view: this.libraryView,
    };
  }

  private apply(prefs: UiPrefs): void {
    this.appearance = prefs.appearance;
    this.language = prefs.language;
    this.onboarded = prefs.onboarded;
    this.libraryView = prefs.library_view;
    applyTheme(prefs.appearance);
    i18n.follow(prefs.language);
  }
}

function osLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
}

export const preferences = new Preferences();
