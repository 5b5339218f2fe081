import { describe, expect, it } from 'vitest';
import { isCalendarDate, parseIsoTimestamp, toCalendarDate } from '../../common/dates.ts';

describe('isCalendarDate', () => {
  it('accepts real dates only', () => {
    expect(isCalendarDate('2026-12-15')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '15.12.2026',
      '2026-1-5',
      '2026-12-15T00:00:00Z',
      '',
    ]) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
  });
});

describe('parseIsoTimestamp', () => {
  it('normalises zones and precision to UTC ISO strings', () => {
    expect(parseIsoTimestamp('2026-11-21T10:00:00Z')).toBe('2026-11-21T10:00:00.000Z');
    expect(parseIsoTimestamp('2026-11-21T10:00:00+02:00')).toBe('2026-11-21T08:00:00.000Z');
    expect(parseIsoTimestamp('2026-11-21T10:00:00.123456-0130')).toBe('2026-11-21T11:30:00.123Z');
    expect(parseIsoTimestamp('2026-11-21')).toBe('2026-11-21T00:00:00.000Z');
    expect(parseIsoTimestamp('2026-11-21T10:00')).toBe('2026-11-21T10:00:00.000Z');
  });
  it('rejects what is not ISO 8601', () => {
    for (const bad of [
      'yesterday',
      '2026-11-21T25:00:00Z',
      '2026-02-30T00:00:00Z',
      '21.11.2026',
      '2026-11-21T10:00:00+25:00',
      '1700000000',
    ]) {
      expect(parseIsoTimestamp(bad), bad).toBeNull();
    }
  });
  it('reads years 0000-0099 as written (Date.UTC would make them 1900-1999)', () => {
    expect(parseIsoTimestamp('0050-06-01T12:00:00Z')).toBe('0050-06-01T12:00:00.000Z');
    expect(parseIsoTimestamp('0099-12-31')).toBe('0099-12-31T00:00:00.000Z');
    expect(toCalendarDate('0050-06-01T12:00:00Z')).toBe('0050-06-01');
    // Leap years by the proleptic calendar: 0 and 4 are, 100 is not (1900 and 1904 would say otherwise only for 0).
    expect(isCalendarDate('0000-02-29')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true);
    expect(isCalendarDate('0100-02-29')).toBe(false);
  });
  it('toCalendarDate takes the date of a timestamp', () => {
    expect(toCalendarDate('2026-03-01T23:30:00-02:00')).toBe('2026-03-02');
    expect(toCalendarDate('2026-03-01')).toBe('2026-03-01');
    expect(toCalendarDate('March 1')).toBeNull();
  });
});
