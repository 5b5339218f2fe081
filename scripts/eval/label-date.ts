/**
 * Reads a dataset label's date in the form the document printed it (31/12/2018, 31-12-18, 31 DEC 2018, 2018-12-31,
 * 20181231, 31122018, DEC 31, 2018) as YYYY-MM-DD. Independent of the pipeline's date reading on purpose: the truth must not
 * share a bug with what it judges.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number): string => String(n).padStart(2, '0');

function iso(year: number, month: number, day: number): string | null {
  const y = year < 100 ? 2000 + year : year;
  const date = new Date(Date.UTC(y, month - 1, day));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${y}-${pad(month)}-${pad(day)}`;
}

const monthOf = (word: string): number => MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;

/**
 * Day first unless that cannot be (a second number above 12 is the day): the labelled receipts write day first,
 * as most of the world does. Returns null for a label it cannot read, which the caller reports.
 */
export function labelDate(label: string): string | null {
  const text = label.trim().replace(/^\(|\)$/g, '');
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (m) {
    // Eight digits: YYYYMMDD when it starts like a year of ours, else DDMMYYYY.
    return m[1] === '19' || m[1] === '20'
      ? iso(Number(m[1]! + m[2]!), Number(m[3]), Number(m[4]))
      : iso(Number(m[3]! + m[4]!), Number(m[2]), Number(m[1]));
  }
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(text);
  if (m) {
    const [a, b, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return b > 12 ? iso(year, a, b) : iso(year, b, a);
  }
  m = /^(\d{1,2})[-/.\s]*([A-Za-z]{3,9})[-/.\s]*(\d{2}|\d{4})$/.exec(text);
  if (m && monthOf(m[2]!)) return iso(Number(m[3]), monthOf(m[2]!), Number(m[1]));
  m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{2}|\d{4})$/.exec(text);
  if (m && monthOf(m[1]!)) return iso(Number(m[3]), monthOf(m[1]!), Number(m[2]));
  return null;
}
