/**
 * The evaluation's own parts: label reading of outside sets, sender matching, sampling, the OCR cache (a hit
 * gives what the step gave, a changed file misses) and the held-out plan staying apart from the committed one.
 * Every name and number here is invented.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyAnalysis, type AnalysisInput, type AnalysisStep } from '../../server/pipeline/analysis.ts';
import { HELD_OUT_PLAN, HELD_OUT_SENDERS } from '../../scripts/corpus/held-out.ts';
import { LEXICONS } from '../../scripts/corpus/languages.ts';
import { sender } from '../../scripts/corpus/parties.ts';
import { PLAN } from '../../scripts/corpus/plan.ts';
import { calibration } from '../../scripts/eval/calibration.ts';
import { compare } from '../../scripts/eval/fields.ts';
import { labelDate } from '../../scripts/eval/label-date.ts';
import { SENDER_THRESHOLD, senderSimilarity } from '../../scripts/eval/metrics.ts';
import { withOcrCache } from '../../scripts/eval/ocr-cache.ts';
import { evenSample } from '../../scripts/eval/sample.ts';
import { loadReceipts } from '../../scripts/eval/sets/receipts.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-sets-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('receipt labels', () => {
  it.each([
    ['03/04/2019', '2019-04-03'],
    ['3/4/2019', '2019-04-03'],
    ['03-04-19', '2019-04-03'],
    ['03.04.19', '2019-04-03'],
    ['2019-04-03', '2019-04-03'],
    ['2019/04/03', '2019-04-03'],
    ['20190403', '2019-04-03'],
    ['03042019', '2019-04-03'],
    ['03 APR 2019', '2019-04-03'],
    ['03-Apr-2019', '2019-04-03'],
    ['03/APR/2019', '2019-04-03'],
    ['03 APR 19', '2019-04-03'],
    ['APR 3, 2019', '2019-04-03'],
    ['(03/04/2019)', '2019-04-03'],
    ['04/23/2019', '2019-04-23'],
  ])('reads %s as %s', (label, iso) => {
    expect(labelDate(label)).toBe(iso);
  });

  it.each(['31/02/2019', 'yesterday', '2019', '13/13/2019'])('refuses %s', (label) => {
    expect(labelDate(label)).toBeNull();
  });

  it('turns a receipt key into the expected fields, currency MYR', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'key'));
    writeFileSync(
      join(dir, 'key', '007.json'),
      JSON.stringify({
        company: 'KEDAI RUNCIT CONTOH SDN BHD',
        date: '05 JUN 2018',
        address: 'x',
        total: 'RM 1,012.40',
      }),
    );
    const [doc] = loadReceipts(dir);
    expect(doc!.filePath).toBe(join(dir, 'img', '007.jpg'));
    expect(doc!.expected).toMatchObject({
      sender_name: 'KEDAI RUNCIT CONTOH SDN BHD',
      document_date: '2018-06-05',
      amount: { value: 1012.4, currency: 'MYR' },
      event_type: 'receipt',
    });
    expect(doc!.fields).toEqual(['event_type', 'sender_name', 'document_date', 'amount', 'currency']);
  });

  it('names the file whose label cannot be read', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'key'));
    writeFileSync(
      join(dir, 'key', '008.json'),
      JSON.stringify({ company: 'A', date: 'soon', address: '', total: '1.00' }),
    );
    expect(() => loadReceipts(dir)).toThrow('008.json: unreadable date label "soon"');
  });
});

describe('sender matching', () => {
  it.each([
    ['Kedai Contoh Sdn Bhd', 'KEDAI CONTOH SDN. BHD.'],
    ['Kedai Contoh Sdn Bhd', 'Kedai Contoh'],
    ['Bakkerij Voorbeeld B.V.', 'Bakkerij Voorbeeld'],
    ['Stamperia Esempio S.r.l.', 'STAMPERIA ESEMPIO SRL'],
    ['Taller Ejemplo S.L.', 'Taller Ejemplo'],
    ['Muster Haus GmbH', 'Muster Haus'],
  ])('%s matches %s (legal forms, case, punctuation ignored)', (expected, got) => {
    expect(senderSimilarity(expected, got)).toBeGreaterThanOrEqual(SENDER_THRESHOLD);
  });

  it('a different name does not match', () => {
    expect(senderSimilarity('Kedai Contoh Sdn Bhd', 'Kedai Lain Sdn Bhd')).toBeLessThan(SENDER_THRESHOLD);
  });
});

describe('sampling', () => {
  it('spreads evenly, keeps order, same every time', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(evenSample(items, 4)).toEqual([0, 2, 5, 7]);
    expect(evenSample(items, 20)).toEqual(items);
  });
});

describe('calibration', () => {
  const expected = {
    event_type: 'receipt' as const,
    sender_name: 'Kedai Contoh Sdn Bhd',
    reference_number: null,
    amount: { value: 12.4, currency: 'MYR' },
    document_date: '2026-01-05',
    due_date: null,
    category: null,
  };
  const judged = ['event_type', 'sender_name', 'amount', 'currency', 'document_date'] as const;

  it('counts scored fields with a value by their confidence; currency is as sure as its amount', () => {
    const checks = compare(
      expected,
      {
        event_type: { value: 'invoice', source: 'text', confidence: 0.99 },
        sender_name: { value: 'Kedai Contoh', source: 'text', confidence: 0.5 },
        amount: { value: { value: 12.46, currency: 'MYR' }, source: 'text', confidence: 0.8 },
        document_date: { value: '2026-01-05', source: 'text', confidence: 0.95 },
      },
      judged,
    );
    const { bands, sure } = calibration([checks]);
    // The wrong type is not a scored field; the wrong amount and its right currency are at 0.8, the date above.
    expect(sure).toEqual({ right: 2, all: 3, accuracy: 2 / 3 });
    expect(bands.map((b) => `${b.from}:${b.right}/${b.all}`)).toEqual([
      '0.95:1/1',
      '0.9:0/0',
      '0.8:1/2',
      '0.6:0/0',
      '0.4:1/1',
      '0:0/0',
    ]);
  });

  it('leaves out fields without a value', () => {
    const { sure, bands } = calibration([compare(expected, {}, judged)]);
    expect(sure.all).toBe(0);
    expect(bands.every((b) => b.all === 0)).toBe(true);
  });
});

describe('OCR cache', () => {
  const countingStep = (): AnalysisStep & { runs: number } => {
    const step = {
      name: 'image-text',
      runs: 0,
      async run(input: AnalysisInput, analysis: ReturnType<typeof emptyAnalysis>) {
        step.runs++;
        analysis.content = `read ${step.runs}`;
        analysis.pageCount = 1;
        analysis.notes.push('a note');
      },
    };
    return step;
  };
  const input = (filePath: string): AnalysisInput => ({
    documentId: '00000000-0000-4000-8000-000000000000',
    filePath,
    format: 'png',
    originalFilename: 'a.png',
    categories: [],
    today: '2026-01-01',
  });

  it('a hit gives what the step gave; changed bytes or another step are not served from it', async () => {
    const dir = tempDir();
    const file = join(dir, 'a.png');
    writeFileSync(file, 'first bytes');
    const step = countingStep();
    const other: AnalysisStep = {
      name: 'understand',
      async run(_i, a) {
        a.title = 'not cached';
      },
    };

    const first = emptyAnalysis();
    const cache = withOcrCache([step, other], join(dir, 'cache'));
    for (const s of cache.steps) await s.run(input(file), first);
    const again = emptyAnalysis();
    for (const s of withOcrCache([step, other], join(dir, 'cache')).steps) await s.run(input(file), again);
    expect(step.runs).toBe(1);
    expect(again).toEqual(first);
    expect(again.title).toBe('not cached');

    writeFileSync(file, 'other bytes');
    const changed = emptyAnalysis();
    for (const s of withOcrCache([step], join(dir, 'cache')).steps) await s.run(input(file), changed);
    expect(step.runs).toBe(2);
    expect(changed.content).toBe('read 2');
  });
});

describe('held-out plan', () => {
  it('covers the six languages with senders the committed plan never uses', () => {
    const committed = new Set(PLAN.map((e) => e.sender));
    const senders = HELD_OUT_PLAN.map((e) => HELD_OUT_SENDERS.find((s) => s.key === e.sender)!);
    expect(senders.every(Boolean)).toBe(true);
    expect(senders.filter((s) => committed.has(s.key))).toEqual([]);
    const committedNames = new Set(PLAN.map((e) => sender(e.sender).name));
    expect(HELD_OUT_SENDERS.filter((s) => committedNames.has(s.name))).toEqual([]);
    expect(new Set(senders.map((s) => s.lang))).toEqual(new Set(Object.keys(LEXICONS)));
    expect(new Set(HELD_OUT_PLAN.map((e) => e.type))).toEqual(new Set(['invoice', 'receipt']));
  });

  it('its two wordings differ for every label', () => {
    for (const lexicon of Object.values(LEXICONS)) {
      for (const value of Object.values(lexicon)) {
        if (Array.isArray(value)) expect(value[0], String(value)).not.toBe(value[1]);
      }
    }
  });
});
