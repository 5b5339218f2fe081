/** Date formats of the v1 interface. Pure functions, shared by the service and the desktop. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  return validYmd(Number(m[1]), Number(m[2]), Number(m[3]));
}

/**
 * Parses an ISO 8601 date or timestamp (a date alone means midnight UTC, a time without offset is UTC)
 * and returns it normalised as `toISOString()`, or null when it is not one.
 */
export function parseIsoTimestamp(value: string): string | null {
  const m = TIMESTAMP.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validYmd(year, month, day)) return null;
  const hour = Number(m[4] ?? 0),
    minute = Number(m[5] ?? 0),
    second = Number(m[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2)),
      om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const utc = utcMillis(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return new Date(utc).toISOString();
}

/** Date.UTC without its two-digit-year rule (it reads years 0-99 as 1900-1999). */
function utcMillis(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(Date.UTC(2000, monthIndex, day, hour, minute, second, ms));
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

/** The calendar date (YYYY-MM-DD) of a metadata date that may be a date or an ISO timestamp. */
export function toCalendarDate(value: string): string | null {
  if (isCalendarDate(value)) return value;
  const iso = parseIsoTimestamp(value);
  return iso ? iso.slice(0, 10) : null;
}

function validYmd(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(utcMillis(year, month, 0)).getUTCDate();
  return day <= days;
}
