/** Money tokens: "1.234,56 €", "EUR 1,234.56", "1 234,56", "€ 12,50", "$1,234.56", "CHF 99.–", "£5". */

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

const CODES = 'EUR|USD|GBP|CHF|JPY|AUD|CAD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|CNY|INR|ZAR|SGD|HKD|TRY|BRL|MXN';
/** OCR drops the space between an ISO code and its number ("GBP416.00", "EUR84,20"); any other letters still block. */
const NUMBER = new RegExp(`(?:(?<=(?<![${L}])(?:${CODES}))|(?<![\\d.,'’${L}]))([-−] ?)?(\\d{1,3}(?:([.,'’ ])\\d{3})(?:\\3\\d{3})*|\\d+)(?:([.,])(\\d{1,2}|-{1,2}|–|—))?(?!\\d)(?![a-zß-öø-ÿ])`, 'g');
const BEFORE = new RegExp(`(€|${CODES}|Euro|EURO|US\\$|A\\$|C\\$|NZ\\$|HK\\$|S\\$|R\\$|\\$|£|SFr\\.?|Fr\\.|¥|₹|₺) ?$`);
const AFTER = new RegExp(`^ ?(€|${CODES}|Euro|EURO|\\$|£|Fr\\.|¥|₹|₺|zł|Kč)(?![${L}])`);
const SYMBOLS: Record<string, string> = {
  '€': 'EUR', Euro: 'EUR', EURO: 'EUR', 'US$': 'USD', $: 'USD', 'A$': 'AUD', 'C$': 'CAD', 'NZ$': 'NZD', 'HK$': 'HKD', 'S$': 'SGD',
  'R$': 'BRL', '£': 'GBP', SFr: 'CHF', 'SFr.': 'CHF', 'Fr.': 'CHF', '¥': 'JPY', '₹': 'INR', '₺': 'TRY', 'zł': 'PLN', 'Kč': 'CZK',
  ...Object.fromEntries(CODES.split('|').map((code) => [code, code])),
};
/** A quantity, not money; OCR may put a speck before the percent sign ("19,00.%"). */
const UNIT_AFTER = /^(?:[.,] ?%|\s?(?:%|x\b|stk|st\.|pcs|kg|g\b|km|m²|m2|m³|qm|kwh|h\b|hours?\b|hrs?\b|stunden?\b|std|min|ct\b|cents?\b|l\b|liter|tage|days|monate|months|jahre|years))/iu;

/** Every money-like number, by line; `blocked` are spans (e.g. dates) that must not be read as numbers. */
export function findMoney(doc: Doc, blocked: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>): Map<number, MoneyToken[]> {
  const byLine = new Map<number, MoneyToken[]>();
  for (const { line: index, column, match: m } of scan(doc, NUMBER)) {
    const line = doc.lines[index] ?? '';
    let start = column, end = column + m[0].length;
    if ((blocked.get(index) ?? []).some(([s, e]) => start < e && end > s)) continue;
    const [, sign, integer = '', groupSep, decimalSep, decimals] = m;
    // "1.234" with a dot and no decimals is a thousands group in German and a decimal nowhere in money.
    if (groupSep && decimalSep === groupSep) continue;
    if (groupSep === ' ' && !decimalSep) continue;
    const before = BEFORE.exec(line.slice(Math.max(0, start - 6), start));
    const after = AFTER.exec(line.slice(end, end + 6));
    if (!before && !after && UNIT_AFTER.test(line.slice(end, end + 8))) continue;
    if (!before && !after && !decimalSep) continue;
    const symbol = before?.[1] ?? after?.[1] ?? null;
    if (before) start -= before[0].length;
    if (after) end += after[0].length;
    const cents = decimals && /^\d+$/.test(decimals) ? decimals.padEnd(2, '0') : '00';
    const value = Number(`${integer.replace(/[.,'’ ]/g, '')}.${cents}`);
    if (!Number.isFinite(value)) continue;
    const tokens = byLine.get(index) ?? [];
    tokens.push({
      value: sign ? -value : value, currency: symbol ? SYMBOLS[symbol] ?? null : null, start, end, text: line.slice(start, end),
      decimals: decimalSep !== undefined,
    });
    byLine.set(index, tokens);
  }
  return byLine;
}

/** The most frequent currency written anywhere in the text (a "Betrag in EUR" column header counts too). */
export function dominantCurrency(text: string): string | null {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(DOCUMENT_CURRENCY)) {
    const code = SYMBOLS[m[0]];
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? null;
}

const DOCUMENT_CURRENCY = new RegExp(`€|\\b(?:${CODES}|Euro)\\b|US\\$|A\\$|C\\$|NZ\\$|\\$|£|\\bSFr\\b|¥|₹`, 'g');
