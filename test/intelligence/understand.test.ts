import { describe, expect, it } from 'vitest';
import { understand, type Understanding } from '../../server/intelligence/understand.ts';
import { CATEGORIES, TODAY, type Sample } from './sample-types.ts';
import { GERMAN_SAMPLES } from './samples-de.ts';
import { ENGLISH_SAMPLES } from './samples-en.ts';
import { FURTHER_SAMPLES } from './samples-more.ts';

function run(sample: Sample): Understanding {
  return understand({
    text: sample.text,
    filename: sample.filename,
    categories: CATEGORIES,
    einvoice: null,
    today: TODAY,
  });
}

for (const [group, samples] of [
  ['German', GERMAN_SAMPLES],
  ['English', ENGLISH_SAMPLES],
  ['further', FURTHER_SAMPLES],
] as const) {
  describe(`understand: ${group} documents`, () => {
    for (const sample of samples) {
      it(sample.name, () => {
        const result = run(sample);
        const got = Object.fromEntries(
          Object.keys(sample.expect).map((key) => [key, result[key as keyof Understanding]?.value]),
        );
        expect(got).toEqual(sample.expect);
        for (const field of sample.absent ?? []) expect(result[field], field).toBeUndefined();
        for (const [key, field] of Object.entries(result)) {
          expect(field.confidence, key).toBeGreaterThan(0);
          expect(field.confidence, key).toBeLessThanOrEqual(1);
          if (field.evidence !== undefined) expect(field.evidence.length, key).toBeLessThanOrEqual(120);
          expect(field.source === 'text' || field.source === 'filename', key).toBe(true);
        }
      });
    }
  });
}

describe('understand: speed', () => {
  it('handles a three-page text in a few milliseconds', () => {
    const text = [GERMAN_SAMPLES[0]!.text, GERMAN_SAMPLES[1]!.text, GERMAN_SAMPLES[5]!.text, ENGLISH_SAMPLES[0]!.text]
      .join('\n\n')
      .repeat(3);
    const input = { text, filename: 'x.pdf', categories: CATEGORIES, einvoice: null, today: TODAY };
    for (let i = 0; i < 20; i++) understand(input);
    const start = process.cpuUsage();
    const runs = 20;
    for (let i = 0; i < runs; i++) understand(input);
    const used = process.cpuUsage(start);
    const perRunMs = (used.user + used.system) / 1000 / runs;
    expect(text.length).toBeGreaterThan(8000);
    // 5 ms is the budget on an idle machine; the bound leaves room for a loaded CI runner.
    expect(perRunMs).toBeLessThan(25);
  });
});

describe('understand: hostile input', () => {
  it('stays fast on long lines without structure', () => {
    const inputs = [
      'a'.repeat(50_000),
      'Rechnung Betrag Summe Gesamt '.repeat(5000),
      '1.234,56 € '.repeat(5000),
      '1234567890'.repeat(5000),
      'Aaaa-Bbbb-Cccc-Dddd '.repeat(5000),
      'Aaaa Bbbb Cccc GmbH '.repeat(4000),
      'Herrn\n'.repeat(20_000),
      'x@'.repeat(20_000),
    ];
    for (const text of inputs) {
      const start = performance.now();
      understand({ text, filename: 'x.pdf', categories: CATEGORIES, einvoice: null, today: TODAY });
      expect(performance.now() - start, text.slice(0, 20)).toBeLessThan(2000);
    }
  });
});
