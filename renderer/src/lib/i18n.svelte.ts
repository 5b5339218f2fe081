import type { MessageKey } from './messages.ts';
import { pickLocale, translate, type Locale, type Params } from './translate.ts';

const STORAGE_KEY = 'archive.locale';

/**
 * The one i18n layer: every string of the UI goes through `i18n.t`. The locale is a rune, so components re-render
 * when it changes. The settings schema has no UI language, so it lives in localStorage (per window/profile).
 */
class I18n {
  locale = $state<Locale>('en');

  init(): void {
    let stored: string | null = null;
    try { stored = localStorage.getItem(STORAGE_KEY); } catch { /* storage may be disabled */ }
    this.set(pickLocale(stored, navigator.languages ?? [navigator.language]));
  }

  set(locale: Locale): void {
    this.locale = locale;
    document.documentElement.lang = locale;
    try { localStorage.setItem(STORAGE_KEY, locale); } catch { /* storage may be disabled */ }
  }

  t = (key: MessageKey, params?: Params): string => translate(this.locale, key, params);

  date(value: string | null | undefined): string {
    if (!value) return '—';
    const d = value.length === 10 ? new Date(`${value}T00:00:00`) : new Date(value);
    if (Number.isNaN(d.getTime())) return value;
    return d.toLocaleDateString(this.locale, { year: 'numeric', month: 'short', day: 'numeric' });
  }

  dateTime(value: string | number | null | undefined): string {
    if (value === null || value === undefined) return '—';
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return String(value);
    return d.toLocaleString(this.locale, { dateStyle: 'medium', timeStyle: 'short' });
  }

  money(value: number, currency: string): string {
    try {
      return new Intl.NumberFormat(this.locale, { style: 'currency', currency }).format(value);
    } catch {
      return `${value.toLocaleString(this.locale)} ${currency}`;
    }
  }

  number(value: number): string { return value.toLocaleString(this.locale); }
}

export const i18n = new I18n();
export const t = i18n.t;
