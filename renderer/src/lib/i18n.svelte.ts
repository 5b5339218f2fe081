import type { MessageKey } from '../../../common/i18n/messages.ts';
import { numberFormat, pickLocale, translate, type Locale, type Params } from '../../../common/i18n/translate.ts';

/**
 * The one i18n layer: every string of the UI goes through `i18n.t`. The locale is a rune, so components re-render
 * when it changes. Which language is chosen lives in the settings (ui.language; see preferences.svelte.ts).
 */
class I18n {
  locale = $state<Locale>('en');

  /** The chosen language, or (null) the first supported language of the OS, English otherwise. */
  follow(language: Locale | null): void {
    this.set(pickLocale(language, typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]));
  }

  set(locale: Locale): void {
    this.locale = locale;
    if (typeof document !== 'undefined') document.documentElement.lang = locale;
  }

  t = (key: MessageKey, params?: Params): string => translate(this.locale, key, params);

  // toLocaleDateString builds a new Intl formatter on every call: with two dates in each of the ~30 rows of the
  // first library screen that was a measurable part of the first render, so the formatters are made once per locale.
  private dateFormats = new Map<string, Intl.DateTimeFormat>();

  private dateFormat(kind: 'date' | 'dateTime'): Intl.DateTimeFormat {
    const key = `${this.locale}:${kind}`;
    let format = this.dateFormats.get(key);
    if (!format) {
      format = new Intl.DateTimeFormat(this.locale, kind === 'date'
        ? { year: 'numeric', month: 'short', day: 'numeric' } : { dateStyle: 'medium', timeStyle: 'short' });
      this.dateFormats.set(key, format);
    }
    return format;
  }

  date(value: string | null | undefined): string {
    if (!value) return '—';
    const d = value.length === 10 ? new Date(`${value}T00:00:00`) : new Date(value);
    if (Number.isNaN(d.getTime())) return value;
    return this.dateFormat('date').format(d);
  }

  dateTime(value: string | number | null | undefined): string {
    if (value === null || value === undefined) return '—';
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return String(value);
    return this.dateFormat('dateTime').format(d);
  }

  money(value: number, currency: string): string {
    try {
      return new Intl.NumberFormat(this.locale, { style: 'currency', currency }).format(value);
    } catch {
      return `${value.toLocaleString(this.locale)} ${currency}`;
    }
  }

  number(value: number): string { return numberFormat(this.locale).format(value); }
}

export const i18n = new I18n();
export const t = i18n.t;
