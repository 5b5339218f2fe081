import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CURRENCY,
  emptyForm,
  formFromMetadata,
  parseAmount,
  parsePaths,
  validateForm,
} from '../../renderer/src/lib/upload-form.ts';

describe('upload metadata form', () => {
  it('an empty form means no metadata', () => {
    expect(validateForm(emptyForm())).toEqual({ ok: true, metadata: undefined });
  });
  it('builds metadata the contract accepts', () => {
    const r = validateForm({
      ...emptyForm(),
      event_type: 'invoice',
      amount: '1.234,56',
      currency: 'eur',
      due_date: '2026-12-15',
      document_date: '2026-11-01',
      tags: 'Strom, strom, Haus',
      sender_name: ' Stadtwerke ',
      title: 'Rechnung',
    });
    expect(r).toEqual({
      ok: true,
      metadata: {
        event_type: 'invoice',
        amount: { value: 1234.56, currency: 'EUR' },
        due_date: '2026-12-15',
        document_date: '2026-11-01',
        tags: ['strom', 'Haus'],
        sender_name: 'Stadtwerke',
        title: 'Rechnung',
      },
    });
  });
  it('names each wrong field', () => {
    const r = validateForm({
      ...emptyForm(),
      amount: '12x',
      currency: 'EURO',
      due_date: '2026-02-30',
      paid_at: '15.12.2026',
      tags: 'a,b,c,d,e,f',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.amount?.key).toBe('meta.err.amount');
    expect(r.errors.currency?.key).toBe('meta.err.currency');
    expect(r.errors.due_date?.key).toBe('meta.err.date');
    expect(r.errors.paid_at?.key).toBe('meta.err.date');
    expect(r.errors.tags?.key).toBe('meta.err.tooManyTags');
  });
  it('an empty currency is the one its placeholder shows; a currency alone needs an amount', () => {
    expect(validateForm({ ...emptyForm(), amount: '10' })).toEqual({
      ok: true,
      metadata: { amount: { value: 10, currency: DEFAULT_CURRENCY } },
    });
    const b = validateForm({ ...emptyForm(), currency: 'EUR' });
    expect(!b.ok && b.errors.amount?.key).toBe('meta.err.currencyWithoutAmount');
  });
  it('takes only an amount above zero, except on a credit note', () => {
    for (const amount of ['0', '-12,50']) {
      const r = validateForm({ ...emptyForm(), event_type: 'invoice', amount, currency: 'EUR' });
      expect(!r.ok && r.errors.amount?.key).toBe('meta.err.amountPositive');
      const untyped = validateForm({ ...emptyForm(), amount, currency: 'EUR' });
      expect(!untyped.ok && untyped.errors.amount?.key).toBe('meta.err.amountPositive');
    }
    expect(validateForm({ ...emptyForm(), event_type: 'credit_note', amount: '-12,50', currency: 'EUR' })).toEqual({
      ok: true,
      metadata: { event_type: 'credit_note', amount: { value: -12.5, currency: 'EUR' } },
    });
  });
  it('limits text fields to 500 characters', () => {
    const r = validateForm({ ...emptyForm(), reference_number: 'x'.repeat(501) });
    expect(!r.ok && r.errors.reference_number).toEqual({ key: 'meta.err.tooLong', params: { max: 500 } });
  });
  it('round-trips folder defaults', () => {
    const metadata = { event_type: 'invoice' as const, amount: { value: 5, currency: 'EUR' }, tags: ['a', 'b'] };
    const r = validateForm(formFromMetadata(metadata));
    expect(r).toEqual({ ok: true, metadata });
  });
  it('parses amounts written either way', () => {
    expect(parseAmount('89,50')).toBe(89.5);
    expect(parseAmount('1,234.50')).toBe(1234.5);
    expect(parseAmount('1.2.3')).toBeNaN();
    expect(parseAmount('abc')).toBeNaN();
  });
});

describe('paths input', () => {
  it('takes one absolute path per line', () => {
    expect(parsePaths('/home/a.pdf\n\n  C:\\Scans\\b.pdf  \n\\\\server\\share\\c.pdf')).toEqual({
      ok: true,
      paths: ['/home/a.pdf', 'C:\\Scans\\b.pdf', '\\\\server\\share\\c.pdf'],
    });
  });
  it('rejects relative paths with the line number, and empty input', () => {
    expect(parsePaths('/ok.pdf\nscan.pdf')).toEqual({ ok: false, key: 'uploads.pathsAbsolute', params: { line: 2 } });
    expect(parsePaths('  \n')).toEqual({ ok: false, key: 'uploads.pathsRequired' });
  });
});
