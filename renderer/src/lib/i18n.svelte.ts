import type { MessageKey } from '../../../common/i18n/messages.ts';
import { numberFormat, pickLocale, translate, type Locale, type Params } from '../../../common/i18n/translate.ts';
import { formatDate, formatDateTime, formatMoney } from '../../../common/i18n/locale-format.ts';

/**
 * The one i18n layer: every string of the UI goes through `i18n.t`. The locale is a rune, so components re-render
 * when it changes. Which language is chosen lives in the settings (ui.language; see preferences.svelte.ts).
 */
class I18n {
  locale = $state<Locale>('en');

  /** The chosen language, or (null) the first supported language of the OS, English otherwise. */
  follow(language: Locale | null): void {
    this.set(
      pickLocale(language, typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
    );
  }

  set(locale: Locale): void {
    this.locale = locale;
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  }

  t = (key: MessageKey, params?: Params): string => translate(this.locale, key, params);

  date(value: string | null | undefined): string {
    return formatDate(this.locale, value);
  }

  dateTime(value: string | number | null | undefined): string {
    return formatDateTime(this.locale, value);
  }

  money(value: number, currency: string): string {
    return formatMoney(this.locale, value, currency);
  }

  number(value: number): string {
    return numberFormat(this.locale).format(value);
  }
}

export const i18n = new I18n();
export const t = i18n.t;
