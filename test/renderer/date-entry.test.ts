import { describe, expect, it } from 'vitest';
import { datePattern, formatDateEntry, parseDateEntry } from '../../renderer/src/lib/date-entry.ts';

describe('typing a date in the UI language', () => {
  it("writes an ISO date in the locale's numeric order", () => {
    expect(datePattern('de')).toEqual({ order: ['day', 'month', 'year'], separator: '.' });
    expect(datePattern('en')).toEqual({ order: ['month', 'day', 'year'], separator: '/' });
    expect(formatDateEntry('de', '2026-11-03')).toBe('03.11.2026');
    expect(formatDateEntry('en', '2026-11-03')).toBe('11/03/2026');
    expect(formatDateEntry('de', '')).toBe('');
  });

  it("reads the locale's order with any separator, a short year and an ISO date", () => {
    expect(parseDateEntry('de', '3.11.2026')).toBe('2026-11-03');
    expect(parseDateEntry('de', '03/11/26')).toBe('2026-11-03');
    expect(parseDateEntry('de', ' 3 11 2026 ')).toBe('2026-11-03');
    expect(parseDateEntry('en', '11/3/2026')).toBe('2026-11-03');
    expect(parseDateEntry('en', '2026-11-03')).toBe('2026-11-03');
    expect(parseDateEntry('de', '2026-11-03')).toBe('2026-11-03');
  });

  it('gives empty for an empty field and null for what is not a date of the calendar', () => {
    expect(parseDateEntry('de', '   ')).toBe('');
    expect(parseDateEntry('de', '31.02.2026')).toBeNull();
    expect(parseDateEntry('en', '13/01/2026')).toBeNull();
    expect(parseDateEntry('de', '3.11')).toBeNull();
    expect(parseDateEntry('de', 'morgen')).toBeNull();
    expect(parseDateEntry('de', '3.11.202')).toBeNull();
    expect(parseDateEntry('de', '2026-02-30')).toBeNull();
  });
});
