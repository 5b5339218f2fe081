/** Money tokens: "1.234,56 €", "EUR 1,234.56", "1 234,56", "€ 12,50", "$1,234.56", "CHF 99.–", "£5". */

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

const NUMBER = /(?<![\d.,'’\p{L}])([-−]\s?)?(\d{1,3}(?:([.,'’ ])\d{3})(?:\3\d{3})*|\d+)(?:([.,])(\d{1,2}|-{1,2}|–|—))?(?!\d)(?!\p{Ll})/gu;
const BEFORE = /(€|EUR|Euro|EURO|US\$|USD|\$|£|GBP|CHF|SFr\.?|Fr\.|¥|JPY)\s?$/u;
const AFTER = /^\s?(€|EUR|Euro|EURO|USD|\$|£|GBP|CHF|Fr\.|¥|JPY)(?![\p{L}])/u;
const SYMBOLS: Record<string, string> = {
  '€': 'EUR', EUR: 'EUR', Euro: 'EUR', EURO: 'EUR', 'US$': 'USD', USD: 'USD', $: 'USD', '£': 'GBP', GBP: 'GBP',
  CHF: 'CHF', SFr: 'CHF', 'SFr.': 'CHF', 'Fr.': 'CHF', '¥': 'JPY', JPY: 'JPY',
};
const UNIT_AFTER = /^\s?(?:%|x\b|stk|st\.|pcs|kg|g\b|km|m²|m2|m³|qm|kwh|h\b|std|min|l\b|liter|tage|days|monate|months|jahre|years)/iu;

/** Every money-like number in a line; `blocked` are spans (e.g. dates) that must not be read as numbers. */
export function findMoney(line: string, blocked: ReadonlyArray<readonly [number, number]> = []): MoneyToken[] {
  const tokens: MoneyToken[] = [];
  NUMBER.lastIndex = 0;
  for (const m of line.matchAll(NUMBER)) {
    let start = m.index, end = m.index + m[0].length;
    if (blocked.some(([s, e]) => start < e && end > s)) continue;
    const [, sign, integer = '', groupSep, decimalSep, decimals] = m;
    // "1.234" with a dot and no decimals is a thousands group in German and a decimal nowhere in money.
    if (groupSep && decimalSep === groupSep) continue;
    if (groupSep === ' ' && !decimalSep) continue;
    const before = BEFORE.exec(line.slice(Math.max(0, start - 6), start));
    const after = AFTER.exec(line.slice(end, end + 6));
    if (!before && !after && UNIT_AFTER.test(line.slice(end, end + 8))) continue;
    const symbol = before?.[1] ?? after?.[1] ?? null;
    if (before) start -= before[0].length;
    if (after) end += after[0].length;
    const cents = decimals && /^\d+$/.test(decimals) ? decimals.padEnd(2, '0') : '00';
    const digits = integer.replace(/[.,'’ ]/g, '');
    const value = Number(`${digits}.${cents}`);
    if (!Number.isFinite(value)) continue;
    tokens.push({
      value: sign ? -value : value, currency: symbol ? SYMBOLS[symbol] ?? null : null, start, end, text: line.slice(start, end),
      decimals: decimalSep !== undefined,
    });
  }
  return tokens;
}

/** The most frequent currency written anywhere in the text (a "Betrag in EUR" column header counts too). */
export function dominantCurrency(text: string): string | null {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/€|\bEUR\b|\bEuro\b|US\$|\bUSD\b|\$|£|\bGBP\b|\bCHF\b|\bSFr\b|¥|\bJPY\b/gu)) {
    const code = SYMBOLS[m[0]];
    if (code) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? null;
}
