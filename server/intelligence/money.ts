/**
 * Money tokens: "1.234,56 €", "EUR 1,234.56", "1 234,56", "1'234.56", "€ 12,50", "$1,234.56", "CHF 99.–", "RM 12.40",
 * "12,50 zł". Currencies by ISO 4217 code or symbol; a symbol several countries share ("$", "kr", "Rs", "¥") is
 * read as the currency of the country the document names, else as the most common one.
 */

import { currencyOfCountry, documentCountries } from './country.ts';
import { L, scan, type Doc } from './text.ts';

export interface MoneyToken {
  value: number;
  /** ISO 4217 code when a symbol or code stands right beside the number. */
  currency: string | null;
  /** Offsets within the line, currency included. */
  start: number;
  end: number;
  text: string;
  /** True when the number has a decimal part ("12,50", "99.–"). */
  decimals: boolean;
}

/**
 * ISO 4217 codes that are also words written in capitals ("TOTAL PEN 2.50", "ALL 3.00") or company forms ("BHD" for
 * Berhad): never read as currencies.
 */
const WORD_CODES = new Set(['ALL', 'BAM', 'BHD', 'BOB', 'CUC', 'CUP', 'GEL', 'MAD', 'MOP', 'PEN', 'SOS', 'TOP']);
const ISO_CODES = Intl.supportedValuesOf('currency').filter((code) => !WORD_CODES.has(code));

/** Symbols of one currency each. */
const SYMBOLS: Readonly<Record<string, string>> = {
  '€': 'EUR',
  Euro: 'EUR',
  EURO: 'EUR',
  US$: 'USD',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  SG$: 'SGD',
  R$: 'BRL',
  Mex$: 'MXN',
  // Peru's sol ("S/ 1,234.50"; the old "S/." too).
  'S/': 'PEN',
  'S/.': 'PEN',
  '£': 'GBP',
  SFr: 'CHF',
  'SFr.': 'CHF',
  'Fr.': 'CHF',
  '₹': 'INR',
  '₺': 'TRY',
  zł: 'PLN',
  Kč: 'CZK',
  RM: 'MYR',
  KSh: 'KES',
  Ksh: 'KES',
  KShs: 'KES',
  Kshs: 'KES',
  Ft: 'HUF',
  Rp: 'IDR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₱': 'PHP',
  '฿': 'THB',
  '₫': 'VND',
  '₪': 'ILS',
  '₴': 'UAH',
  lei: 'RON',
  ...Object.fromEntries(ISO_CODES.map((code) => [code, code])),
};
/** Symbols several countries use: the candidates, the most common first (the reading when no country is named). */
const SHARED: Readonly<Record<string, readonly string[]>> = {
  // The ringgit was written "M$" until 1993 and a bare "$" still means it there.
  $: ['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN', 'ARS', 'CLP', 'COP', 'UYU', 'MYR'],
  kr: ['SEK', 'NOK', 'DKK', 'ISK'],
  'kr.': ['DKK', 'SEK', 'NOK', 'ISK'],
  Kr: ['SEK', 'NOK', 'DKK', 'ISK'],
  'Kr.': ['DKK', 'SEK', 'NOK', 'ISK'],
  Rs: ['INR', 'PKR', 'LKR', 'NPR'],
  'Rs.': ['INR', 'PKR', 'LKR', 'NPR'],
  '¥': ['JPY', 'CNY'],
};
/**
 * Letters that are a currency only where the document's country uses them: the rand's "R" ("TOTAL R 99.90"), the
 * Philippine peso's "P" ("TOTAL P 433.00").
 */
const COUNTRY_SYMBOLS: Readonly<Record<string, string>> = { R: 'ZAR', P: 'PHP' };

const escape = (symbol: string): string => symbol.replace(/[$.]/g, '\\$&');
const symbolAlternation = (symbols: Iterable<string>): string =>
  [...symbols]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
const ALL_SYMBOLS = symbolAlternation([
  ...Object.keys(SYMBOLS),
  ...Object.keys(SHARED),
  ...Object.keys(COUNTRY_SYMBOLS),
]);
/** Codes and letter symbols OCR glues to their number ("GBP416.00", "RM12.40", "Rs.450"); other letters still block. */
const GLUED = symbolAlternation([...ISO_CODES, 'RM', 'Rs.', 'Rs', 'Rp']);
/**
 * Groups of three ("1,234.56", "1.234,56", "1 234,56", "1'234.56"), or India's lakh and crore ("2,48,315.00"). OCR
 * sometimes sees a space after a group's dot ("$ 725. 300,00"): one number only right after a currency (a numbered
 * line, "2. 450,00 €", is a number and an amount).
 */
const NUMBER = new RegExp(
  `(?:(?<=(?<![${L}])(?:${GLUED}))|(?<![\\d.,'’${L}]))([-−] ?)?(\\d{1,2}(?:,\\d{2})+,\\d{3}(?=\\.\\d)|\\d{1,3}(?:((?<=(?:${ALL_SYMBOLS}) ?\\d{1,3})\\. |[.,'’ ])\\d{3})(?:\\3\\d{3})*|\\d+)(?:([.,])(\\d{1,2}|-{1,2}|–|—))?(?!\\d)(?![a-zß-öø-ÿ])`,
  'g',
);
/** A currency code or symbol and a space before a dash: what follows the dash is that currency's amount. */
const LEADER_BEFORE = new RegExp(`(?:${ALL_SYMBOLS}) $`);
/** A symbol wedged between digits ("001188€7") is a speck in an identifier, not a currency. */
const BEFORE = new RegExp(`(?<![${L}\\d])(${ALL_SYMBOLS}) ?$`);
const AFTER = new RegExp(`^ ?(${ALL_SYMBOLS})(?![${L}])`);
/** A number right after a symbol: the symbol is that number's prefix ("2019 $7.20" gives the dollar to 7.20). */
const NUMBER_NEXT = /^ ?[-−]? ?\d/;
/** A quantity, not money; OCR may put a speck before the percent sign ("19,00.%"). */
const UNIT_AFTER =
  /^(?:[.,] ?%|\s?(?:%|x\b|stk|st\.|pcs|kg|g\b|km|m²|m2|m³|qm|kwh|h\b|hours?\b|hrs?\b|stunden?\b|std|min|ct\b|cents?\b|l\b|liter|tage|days|monate|months|jahre|years))/iu;

/**
 * A reader of symbols and codes for one document: its ISO 4217 code, null for none. The document's country is looked up
 * once, when a shared or a national symbol first needs it.
 */
export function currencyReader(text: string): (symbol: string) => string | null {
  let local: string[] | null = null;
  let printedLocal: string | null | undefined;
  const localCurrencies = (): string[] =>
    (local ??= documentCountries(text)
      .map(currencyOfCountry)
      .filter((code) => code !== null));
  return (symbol) => {
    const national = COUNTRY_SYMBOLS[symbol];
    if (national) return localCurrencies().includes(national) ? national : null;
    const shared = SHARED[symbol];
    if (!shared) return SYMBOLS[symbol] ?? null;
    const named = localCurrencies().find((code) => shared.includes(code));
    if (named) return named;
    // A symbol the named country does not use, in a text that writes that country's own currency elsewhere, is a
    // misread of it (a faded "RM" read as "¥").
    printedLocal ??= localCurrencies().find((code) => writtenCurrencies(text).has(code)) ?? null;
    return printedLocal ?? shared[0]!;
  };
}

/** The currencies a text writes by a code or a symbol of one currency only. */
function writtenCurrencies(text: string): Set<string> {
  const codes = new Set<string>();
  for (const m of text.matchAll(DOCUMENT_CURRENCY)) {
    const code = SYMBOLS[m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[0]];
    if (code) codes.add(code);
  }
  return codes;
}

/** Every money-like number, by line; `blocked` are spans (e.g. dates) that must not be read as numbers. */
export function findMoney(
  doc: Doc,
  blocked: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>,
): Map<number, MoneyToken[]> {
  const byLine = new Map<number, MoneyToken[]>();
  const codeOf = currencyReader(doc.text);
  for (const { line: index, column, match: m } of scan(doc, NUMBER)) {
    const line = doc.lines[index] ?? '';
    let start = column,
      end = column + m[0].length;
    if ((blocked.get(index) ?? []).some(([s, e]) => start < e && end > s)) continue;
    const [, rawSign, integer = '', groupSep, decimalSep, decimals] = m;
    // "TOTAL EUR - 58,16": a dash set apart between a currency and its amount is a leader, not a minus.
    const lead = line.slice(Math.max(0, start - 6), start);
    const sign = rawSign && / $/.test(rawSign) && LEADER_BEFORE.test(lead) ? undefined : rawSign;
    // "1.234" with a dot and no decimals is a thousands group in German and a decimal nowhere in money.
    if (groupSep && decimalSep === groupSep) continue;
    const before = BEFORE.exec(lead);
    // A code glued to a hyphen and whole digits prefixes an identifier ("ANG-025830"); "USD-12.50" is money.
    if (before && sign === '-' && !before[0].endsWith(' ') && !decimalSep) continue;
    const after = suffixSymbol(line, end);
    // "4 990 Ft" is a number with a space between groups; "Pos 2 990" two numbers.
    if (groupSep === ' ' && !decimalSep && !before && !after) continue;
    if (groupSep === '. ' && decimalSep !== ',') continue;
    if (!before && !after && UNIT_AFTER.test(line.slice(end, end + 8))) continue;
    if (!before && !after && !decimalSep) continue;
    const symbol = before?.[1] ?? after?.[1] ?? null;
    if (before) start -= before[0].length;
    // "-$2.35", "−€ 5,00": the minus stands before the symbol.
    const minusFirst = before && !rawSign && /(?:^|[\s(])[-−]$/u.test(line.slice(Math.max(0, start - 2), start));
    if (minusFirst) start -= 1;
    if (after) end += after[0].length;
    const cents = decimals && /^\d+$/.test(decimals) ? decimals.padEnd(2, '0') : '00';
    const value = Number(`${integer.replace(/[.,'’ ]/g, '')}.${cents}`);
    if (!Number.isFinite(value)) continue;
    const tokens = byLine.get(index) ?? [];
    tokens.push({
      value: sign || minusFirst ? -value : value,
      currency: symbol ? codeOf(symbol) : null,
      start,
      end,
      text: line.slice(start, end),
      decimals: decimalSep !== undefined,
    });
    byLine.set(index, tokens);
  }
  return byLine;
}

/**
 * The symbol after a number, unless it is the prefix of the next number: "2019 $7.20" and "Total 18.50 € 22.20"
 * mean the second number, while "12,50 € 3,00 €" writes every symbol after its number.
 */
function suffixSymbol(line: string, end: number): RegExpExecArray | null {
  const after = AFTER.exec(line.slice(end, end + 6));
  if (!after) return null;
  const rest = line.slice(end + after[0].length);
  if (!NUMBER_NEXT.test(rest)) return after;
  const next = /^ ?[-−]? ?[\d.,'’ ]*\d/.exec(rest);
  const afterNext = next ? AFTER.exec(rest.slice(next[0].length, next[0].length + 6)) : null;
  return afterNext ? after : null;
}

/**
 * The most frequent currency written in the text (a "Betrag in EUR" column header or "Amount (RM)" counts too), else
 * the currency of the first country the text names. A symbol written once that the named country does not use is a
 * misread speck ("£" for a "(" on a faded slip), not the page's currency; `amountHasCents` rules out currencies
 * without minor units (yen, won) for an amount with cents.
 */
export function dominantCurrency(text: string, amountHasCents = false): string | null {
  const codeOf = currencyReader(text);
  const counts = new Map<string, number>();
  // A code or name spelt out in letters ("EUR", "RM") is no speck, even written once.
  const spelt = new Set<string>();
  for (const m of text.matchAll(DOCUMENT_CURRENCY)) {
    const written = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[0];
    if (/\d/.test(text[m.index - 1] ?? '') && /\d/.test(text[m.index + m[0].length] ?? '')) continue;
    // A sign before letters ("€S0012", a code OCR misread) or before a zero ("€0.00") marks no amount.
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 8);
    if (!/\p{L}/u.test(written) && (/^\p{L}/u.test(after) || /^ ?0+(?:[.,]0+)?(?![\d.,])/u.test(after))) continue;
    const code = codeOf(written);
    if (!code || (amountHasCents && minorUnits(code) === 0)) continue;
    counts.set(code, (counts.get(code) ?? 0) + 1);
    if (/\p{L}{2}/u.test(written)) spelt.add(code);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const local = documentCountries(text)
    .map(currencyOfCountry)
    .find((code) => code !== null && !(amountHasCents && minorUnits(code) === 0));
  const [top, count = 0] = ranked[0] ?? [];
  if (local && top !== undefined && top !== local && count <= 1 && !spelt.has(top)) return local;
  // Written as often as another, the currency of the country the document names wins the tie.
  if (local && top !== undefined && counts.get(local) === count) return local;
  return top ?? local ?? null;
}

/** ISO 4217 minor units: 2 for most currencies, 0 for the yen or the won. */
export function minorUnits(code: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** Codes common enough to count wherever they stand; any other code, like a letter symbol, counts beside a number. */
const COMMON_CODES = 'EUR|USD|GBP|CHF|JPY|AUD|CAD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|CNY|INR|ZAR|SGD|HKD|TRY|BRL|MXN|MYR';
const LETTER_SYMBOLS = symbolAlternation([
  ...ISO_CODES,
  'kr',
  'kr.',
  'Kr',
  'Kr.',
  'Rs',
  'Rs.',
  'RM',
  'Ft',
  'Rp',
  'lei',
  'zł',
  'Kč',
  'Fr.',
  'SFr',
  'SFr.',
]);
const COLUMN_SYMBOLS = symbolAlternation(['RM', 'Rp', 'Ft', 'zł', 'Kč', 'kr', 'Kr', 'Rs', 'lei']);
const DOCUMENT_CURRENCY = new RegExp(
  `€|£|₹|₺|₩|₽|₱|฿|₫|₪|₴|¥|(?:US|AU?|CA?|NZ|HK|SG?|R|Mex)?\\$|(?<![${L}])(?:${COMMON_CODES}|Euro)(?![${L}])` +
    `|(?<![${L}])(${LETTER_SYMBOLS})(?= ?\\d| [-−] ?\\d|[-−]\\d+[.,]\\d)|(?<=\\d ?)(${LETTER_SYMBOLS})(?![${L}])|(?<=\\()(?<!\\d{5} [${L} '.-]{1,30} \\()(${LETTER_SYMBOLS})(?=\\))` +
    // "(RM)" heads an amount column, except after a postcode and town, where it is Italy's province ("00184 Roma (RM)").
    // A letter symbol alone at the end of a line heads the amount column of a till receipt ("Item   Qty   RM").
    `|(?<=[ \\t])(${COLUMN_SYMBOLS})(?=[ \\t]*(?:\\n|$))`,
  'g',
);
