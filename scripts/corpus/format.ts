/** How the generated documents write dates and amounts: the usual German, British and US forms. */

/** The corpus languages; the German and English templates use this module, the others scripts/corpus/languages.ts. */
export type Lang = 'de' | 'en' | 'fr' | 'nl' | 'es' | 'it';

export const DE_MONTHS = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
];
export const EN_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export type DateStyle =
  | 'de-numeric' // 15.12.2026
  | 'de-short' // 15.12.26
  | 'de-long' // 15. Dezember 2026
  | 'iso' // 2026-12-15
  | 'en-us-short' // Dec 15, 2026
  | 'en-us-long' // December 15, 2026
  | 'en-uk-long' // 15 December 2026
  | 'en-uk-short' // 15 Dec 2026
  | 'en-uk-slash' // 15/12/2026
  | 'en-us-slash'; // 12/15/2026

const pad = (n: number): string => String(n).padStart(2, '0');

function parts(iso: string): [number, number, number] {
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) throw new Error(`bad date ${iso}`);
  return [y, m, d];
}

export function formatDate(iso: string, style: DateStyle): string {
  const [y, m, d] = parts(iso);
  const en = EN_MONTHS[m - 1]!;
  switch (style) {
    case 'de-numeric':
      return `${pad(d)}.${pad(m)}.${y}`;
    case 'de-short':
      return `${pad(d)}.${pad(m)}.${String(y).slice(2)}`;
    case 'de-long':
      return `${d}. ${DE_MONTHS[m - 1]!} ${y}`;
    case 'iso':
      return iso;
    case 'en-us-short':
      return `${en.slice(0, 3)} ${d}, ${y}`;
    case 'en-us-long':
      return `${en} ${d}, ${y}`;
    case 'en-uk-long':
      return `${d} ${en} ${y}`;
    case 'en-uk-short':
      return `${d} ${en.slice(0, 3)} ${y}`;
    case 'en-uk-slash':
      return `${pad(d)}/${pad(m)}/${y}`;
    case 'en-us-slash':
      return `${pad(m)}/${pad(d)}/${y}`;
  }
}

export function addDays(iso: string, days: number): string {
  const [y, m, d] = parts(iso);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function addMonths(iso: string, months: number): string {
  const [y, m, d] = parts(iso);
  return new Date(Date.UTC(y, m - 1 + months, d)).toISOString().slice(0, 10);
}

/** Last day of the month `iso` falls in. */
export function endOfMonth(iso: string): string {
  const [y, m] = parts(iso);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

export function monthName(iso: string, lang: Lang): string {
  const [, m] = parts(iso);
  return (lang === 'de' ? DE_MONTHS : EN_MONTHS)[m - 1]!;
}

export type MoneyStyle =
  | 'de-suffix' // 1.234,56 €
  | 'de-suffix-code' // 1.234,56 EUR
  | 'de-prefix-code' // EUR 1.234,56
  | 'de-space' // 1 234,56 €
  | 'de-prefix-symbol' // € 1.234,56
  | 'en-symbol' // £1,234.56
  | 'en-prefix-code' // GBP 1,234.56
  | 'en-suffix-code'; // 1,234.56 USD

const SYMBOLS: Record<string, string> = { EUR: '€', GBP: '£', USD: '$' };

function group(value: number, thousands: string, decimal: string): string {
  const negative = value < 0;
  const [int, frac] = Math.abs(value).toFixed(2).split('.') as [string, string];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${negative ? '-' : ''}${grouped}${decimal}${frac}`;
}

/** A bare number as a table cell shows it (no currency). */
export function formatNumber(value: number, lang: Lang, spaceGrouping = false): string {
  return lang === 'de' ? group(value, spaceGrouping ? ' ' : '.', ',') : group(value, ',', '.');
}

export function formatMoney(value: number, currency: string, style: MoneyStyle): string {
  const symbol = SYMBOLS[currency] ?? currency;
  switch (style) {
    case 'de-suffix':
      return `${group(value, '.', ',')} ${symbol}`;
    case 'de-suffix-code':
      return `${group(value, '.', ',')} ${currency}`;
    case 'de-prefix-code':
      return `${currency} ${group(value, '.', ',')}`;
    case 'de-space':
      return `${group(value, ' ', ',')} ${symbol}`;
    case 'de-prefix-symbol':
      return `${symbol} ${group(value, '.', ',')}`;
    case 'en-symbol':
      return value < 0 ? `-${symbol}${group(-value, ',', '.')}` : `${symbol}${group(value, ',', '.')}`;
    case 'en-prefix-code':
      return `${currency} ${group(value, ',', '.')}`;
    case 'en-suffix-code':
      return `${group(value, ',', '.')} ${currency}`;
  }
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** An IBAN with a correct check number (ISO 13616, mod 97) for a fictional national account number (BBAN). */
export function iban(country: string, bban: string): string {
  const letters = (text: string): string => text.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const numeric = `${letters(bban)}${letters(country)}00`;
  let remainder = 0;
  for (const ch of numeric) remainder = (remainder * 10 + Number(ch)) % 97;
  const check = String(98 - remainder).padStart(2, '0');
  return `${country}${check}${bban}`.replace(/(.{4})/g, '$1 ').trim();
}

/** A German IBAN for a fictional bank code and account. */
export function germanIban(bankCode: string, account: string): string {
  return iban('DE', bankCode + account.padStart(10, '0'));
}
