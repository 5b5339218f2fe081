import { describe, expect, it } from 'vitest';
import { chunks, reprocessSummary } from '../../renderer/src/lib/bulk-summary.ts';
import { daysUntil, relativeDue, snoozeUntil, sumByCurrency, weekNumber } from '../../renderer/src/lib/due-display.ts';
import { formatClockTime } from '../../common/i18n/locale-format.ts';
import { extractedFields, fileSize, previewKind, safeSnippet, timesOfDay } from '../../renderer/src/lib/format.ts';
import { parseRoute, routeHash } from '../../renderer/src/lib/routes.ts';

describe('due display', () => {
  it('counts days and words them', () => {
    expect(daysUntil('2026-12-15', '2026-12-10')).toBe(5);
    expect(relativeDue('2026-12-10', '2026-12-10')).toEqual({ key: 'due.today' });
    expect(relativeDue('2026-12-08', '2026-12-10')).toEqual({ key: 'due.daysOver', count: 2 });
    expect(relativeDue('2026-03-30', '2026-03-28')).toEqual({ key: 'due.daysLeft', count: 2 });
  });
  it('labels ISO weeks and sums per currency', () => {
    expect(weekNumber('2026-W05')).toBe('5');
    expect(
      sumByCurrency([
        { amount: { value: 0.1, currency: 'EUR' } },
        { amount: { value: 0.2, currency: 'EUR' } },
        { amount: null },
        { amount: { value: 5, currency: 'CHF' } },
      ]),
    ).toEqual([
      { currency: 'CHF', value: 5, count: 1 },
      { currency: 'EUR', value: 0.3, count: 2 },
    ]);
  });
  it('snoozes to 09:00 local time, days ahead', () => {
    const until = new Date(snoozeUntil(new Date(2026, 0, 31, 17, 0), 1));
    expect([until.getFullYear(), until.getMonth(), until.getDate(), until.getHours()]).toEqual([2026, 1, 1, 9]);
  });
});

describe('library helpers', () => {
  it('keeps only <mark> from a snippet', () => {
    expect(safeSnippet('a &amp; <mark>b</mark> <img src=x onerror=alert(1)>')).toBe(
      'a &amp; <mark>b</mark> &lt;img src=x onerror=alert(1)&gt;',
    );
  });
  it('summarises a bulk reprocess, always naming alreadyProcessing, skippedPending and denied', () => {
    const rows = reprocessSummary({
      queued: ['a'],
      alreadyProcessing: [],
      skippedPending: ['b'],
      denied: [],
      notFound: [],
    });
    expect(rows.map((r) => [r.key, r.count])).toEqual([
      ['result.queued', 1],
      ['result.alreadyProcessing', 0],
      ['result.skippedPending', 1],
      ['result.denied', 0],
    ]);
    expect(chunks(Array.from({ length: 120 }, (_, i) => i)).map((c) => c.length)).toEqual([50, 50, 20]);
  });
  it('reads extracted fields with their source', () => {
    expect(
      extractedFields({
        amount: { value: { value: 120.5, currency: 'EUR' }, source: 'metadata', confidence: 1 },
        odd: 3,
      }),
    ).toEqual([
      { name: 'amount', raw: { value: 120.5, currency: 'EUR' }, source: 'metadata', confidence: 1 },
      { name: 'odd', raw: 3, source: '—', confidence: null },
    ]);
    expect(previewKind('application/pdf', 'pdf')).toBe('pdf');
    expect(previewKind('image/tiff', 'tiff')).toBe('tiff');
    expect(previewKind('image/png', 'png')).toBe('image');
    expect(previewKind('x', 'docx')).toBe('office');
  });
  it('routes by hash both ways', () => {
    for (const hash of [
      '#/library',
      '#/library/deleted',
      '#/document/abc',
      '#/uploads',
      '#/uploads/42',
      '#/due',
      '#/settings',
      '#/welcome',
    ]) {
      expect(routeHash(parseRoute(hash))).toBe(hash);
    }
    expect(parseRoute('')).toEqual({ name: 'library', deleted: false });
    // A failed-upload notification's target: the queue with that row.
    expect(parseRoute('#/uploads/42')).toEqual({ name: 'uploads', item: 42 });
    expect(parseRoute('#/uploads/not-a-number')).toEqual({ name: 'uploads' });
  });
});

describe('fileSize', () => {
  it('shows at most three digits before the separator, in the locale', () => {
    expect(fileSize(0, 'de')).toBe('0 B');
    expect(fileSize(999, 'de')).toBe('999 B');
    // Four-digit byte counts read as a thousands separator in German ("1.019 B"): a kilobyte instead.
    expect(fileSize(1019, 'de')).toBe('1 KB');
    expect(fileSize(1536, 'de')).toBe('1,5 KB');
    expect(fileSize(1536, 'en')).toBe('1.5 KB');
    expect(fileSize(1023 * 1024, 'en')).toBe('1 MB');
    expect(fileSize(5 * 1024 ** 3, 'en')).toBe('5 GB');
  });
});

describe('times of day', () => {
  it("offers every half hour, keeps a time off the grid, and writes them on the language's clock", () => {
    const times = timesOfDay(30, '07:45');
    expect(times).toHaveLength(49);
    expect(times.slice(0, 3)).toEqual(['00:00', '00:30', '01:00']);
    expect(times.slice(15, 18)).toEqual(['07:30', '07:45', '08:00']);
    expect(timesOfDay(30, '09:00')).toHaveLength(48);
    expect(formatClockTime('de', '18:30')).toBe('18:30');
    expect(formatClockTime('en', '18:30')).toBe('6:30 PM');
    expect(formatClockTime('de', '09:00')).toBe('09:00');
  });
});
