/**
 * Calendar arithmetic for due dates. Due dates are plain calendar dates (YYYY-MM-DD) without a zone; "today" and
 * "09:00" are the user's, so they come from the local time of this computer.
 */

const DAY_MS = 86_400_000;

/** The local calendar date of an instant. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The instant a local wall-clock time (HH:MM) is reached on a local calendar date. */
export function localInstant(date: string, time: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm, 0, 0).getTime();
}

/** A calendar date moved by whole days (zone-free: computed on UTC midnights). */
export function addDays(date: string, days: number): string {
  return new Date(utcMidnight(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);
}

export interface IsoWeek {
  /** `2026-W51` (ISO 8601: weeks start on Monday; week 1 holds the year's first Thursday). */
  week: string;
  /** Monday and Sunday of that week. */
  starts: string;
  ends: string;
}

export function isoWeek(date: string): IsoWeek {
  const day = (new Date(utcMidnight(date)).getUTCDay() + 6) % 7; // Monday = 0
  const starts = addDays(date, -day);
  const thursday = addDays(starts, 3);
  const year = Number(thursday.slice(0, 4));
  const week = Math.floor(daysBetween(`${year}-01-01`, thursday) / 7) + 1;
  return { week: `${year}-W${pad(week)}`, starts, ends: addDays(starts, 6) };
}

function utcMidnight(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
