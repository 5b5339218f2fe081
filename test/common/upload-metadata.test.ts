import { describe, expect, it } from 'vitest';
import { parseUploadMetadata, validateUploadMetadata } from '../../common/upload-metadata.ts';

const error = (json: unknown): string => {
  const result = validateUploadMetadata(json);
  if (result.ok) throw new Error('expected a validation error');
  return result.error;
};

describe('upload metadata', () => {
  it('accepts every field of the spec and normalises currency and duplicate tags', () => {
    const result = validateUploadMetadata({
      event_type: 'invoice',
      state_hint: 'open',
      amount: { value: 1234.56, currency: 'eur' },
      sender_name: 'Stadtwerke',
      document_date: '2026-11-01T08:00:00Z',
      due_date: '2026-12-15',
      paid_at: '2026-11-20',
      reference_number: 'R-4711',
      tags: ['Strom', 'strom', 'Haus'],
      category: 'Utilities',
      title: 'Stromrechnung November',
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.amount).toEqual({ value: 1234.56, currency: 'EUR' });
      expect(result.value.tags).toEqual(['strom', 'Haus']);
    }
  });

  it('names the field that is wrong', () => {
    expect(error({ event_type: 'bill' })).toMatch(/^Invalid metadata: event_type must be one of invoice/);
    expect(error({ state_hint: 'overdue' })).toMatch(/state_hint must be one of/);
    expect(error({ amount: { value: '12', currency: 'EUR' } })).toMatch(/amount.value must be a number/);
    expect(error({ amount: { value: 12 } })).toMatch(/amount.currency/);
    expect(error({ amount: { value: 12, currency: 'EURO' } })).toMatch(/three-letter/);
    expect(error({ due_date: '2026-02-30' })).toMatch(/due_date must be a date YYYY-MM-DD/);
    expect(error({ paid_at: '2026-11-20T10:00:00Z' })).toMatch(/paid_at must be a date YYYY-MM-DD/);
    expect(error({ document_date: 'last week' })).toMatch(/document_date must be YYYY-MM-DD or an ISO 8601 timestamp/);
    expect(error({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatch(/tags may have at most 5 entries/);
    expect(error({ tags: 'a' })).toMatch(/tags must be an array/);
    expect(error({ title: '' })).toMatch(/title must not be empty/);
    expect(error({ titel: 'x' })).toBe('Invalid metadata: unknown field titel');
    expect(error([])).toMatch(/metadata must be a JSON object/);
  });

  it('rejects JSON that does not parse', () => {
    expect(parseUploadMetadata('{"title":')).toEqual({ ok: false, error: 'Invalid metadata: not valid JSON' });
  });
});
