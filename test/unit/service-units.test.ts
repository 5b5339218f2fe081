import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, InMemoryRateCounters } from '../../server/http/rate-limiter.ts';
import { toFtsQuery } from '../../server/search/fts-query.ts';
import { contentDisposition } from '../../server/documents/download-routes.ts';
import { initialEventState } from '../../server/events/event-state.ts';
import { safeFilename } from '../../server/documents/upload-route.ts';
import { titleFromFilename } from '../../server/pipeline/steps/filename-title.ts';

describe('FixedWindowLimiter', () => {
  it('counts down, refuses at the limit and opens again with the next window', async () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter('requests', 3, 60_000, new InMemoryRateCounters(() => now));
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 2, limit: 3, resetSeconds: 60 });
    await limiter.take('k');
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    now += 15_500;
    expect(await limiter.take('k')).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 45 });
    expect((await limiter.take('other')).allowed).toBe(true);
    now += 45_000;
    expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('keeps the counts of limits that share counters apart', async () => {
    const counters = new InMemoryRateCounters(() => 0);
    const requests = new FixedWindowLimiter('requests', 2, 60_000, counters);
    const uploads = new FixedWindowLimiter('uploads', 1, 60_000, counters);
    expect(await uploads.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect(await requests.take('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect((await uploads.take('k')).allowed).toBe(false);
  });
});

describe('toFtsQuery', () => {
  it('quotes every word as a prefix term and drops FTS syntax', () => {
    expect(toFtsQuery('Rechnung über')).toBe('"Rechnung"* "über"*');
    expect(toFtsQuery('"a" OR NEAR(b*) -c')).toBe('"a"* "OR"* "NEAR"* "b"* "c"*');
    expect(toFtsQuery('*** ---')).toBeNull();
  });
});

describe('contentDisposition', () => {
  it('is a plain quoted filename for ASCII names', () => {
    expect(contentDisposition('scan_0042.pdf')).toBe('attachment; filename="scan_0042.pdf"');
  });
  it('adds an RFC 5987 filename* and an ASCII fallback for other names', () => {
    expect(contentDisposition('Rechnung März "final".pdf')).toBe(
      `attachment; filename="Rechnung Marz _final_.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%22final%22.pdf`,
    );
  });
});

describe('safeFilename', () => {
  it('keeps only the base name, without control characters or leading dots', () => {
    expect(safeFilename('../../etc/passwd.pdf', 'pdf')).toBe('passwd.pdf');
    expect(safeFilename('C:\\scans\\..\\x.pdf', 'pdf')).toBe('x.pdf');
    expect(safeFilename('..\u0000.pdf', 'pdf')).toBe('pdf');
    expect(safeFilename('', 'png')).toBe('upload.png');
  });
});

describe('titleFromFilename', () => {
  it('turns a file name into words', () => {
    expect(titleFromFilename('Stromrechnung_2026-11.pdf')).toBe('Stromrechnung 2026 - 11');
    expect(titleFromFilename('scan_0042.pdf')).toBe('scan 0042');
  });
});

describe('initialEventState', () => {
  const base = { hasAmount: true, dueDate: '2026-12-15', paidAt: null, stateHint: null, today: '2026-11-21' } as const;
  it('follows the rules per type', () => {
    expect(initialEventState({ ...base, eventType: 'invoice' }).state).toBe('open');
    expect(initialEventState({ ...base, eventType: 'invoice', hasAmount: false }).state).toBe('needs_input');
    expect(initialEventState({ ...base, eventType: 'invoice', paidAt: '2026-11-20' }).state).toBe('paid');
    expect(initialEventState({ ...base, eventType: 'contract' }).state).toBe('active');
    expect(initialEventState({ ...base, eventType: 'policy', dueDate: '2026-01-01' }).state).toBe('expired');
    expect(initialEventState({ ...base, eventType: 'offer' }).state).toBe('open');
    expect(initialEventState({ ...base, eventType: 'receipt' }).state).toBe('received');
    expect(initialEventState({ ...base, eventType: 'notice', dueDate: null }).state).toBe('received');
    expect(initialEventState({ ...base, eventType: 'contract', stateHint: 'expired' }).state).toBe('expired');
  });
});
