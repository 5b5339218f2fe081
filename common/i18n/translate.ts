import { de, en, type Message, type MessageKey, type Plural } from './messages.ts';

export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DICTIONARIES: Record<Locale, Record<MessageKey, Message>> = { en, de };

export type Params = Record<string, string | number>;

const pluralRules = new Map<Locale, Intl.PluralRules>();
const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** The locale's number format, made once (toLocaleString would build a new formatter on every call). */
export function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

/** The form of a plural message for `count`: `one` where the locale says so (1 in English and German), else `other`. */
export function plural(locale: Locale, count: number, forms: Plural): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules.select(count) === 'one' ? forms.one : forms.other;
}

/**
 * Looks a key up and fills its {placeholders}; numbers are formatted for the locale. A plural message picks its form
 * by the `count` parameter. Pure, so tests need no DOM.
 */
export function translate(locale: Locale, key: MessageKey, params?: Params): string {
  const message = DICTIONARIES[locale][key] ?? en[key];
  const template = typeof message === 'string' ? message : plural(locale, Number(params?.count ?? Number.NaN), message);
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? numberFormat(locale).format(value) : value;
  });
}

/** The placeholders of a message (of each form, which must agree), sorted. */
export function placeholders(message: Message): string[] {
  const names = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
  if (typeof message === 'string') return names(message);
  const one = names(message.one);
  const other = names(message.other);
  if (one.join() !== other.join())
    throw new Error(`plural forms disagree on placeholders: ${one.join()} / ${other.join()}`);
  return other;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first supported language of the browser/OS list, English otherwise. */
export function pickLocale(stored: string | null, languages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return 'en';
}
