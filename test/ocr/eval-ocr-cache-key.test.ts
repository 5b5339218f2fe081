/**
 * The eval's OCR cache keeps its entries while work elsewhere goes on: a change to a file the OCR code only takes
 * types from, or to the space's categories or today's date, must not make a filled cache miss; a change to code
 * the OCR runs must.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyAnalysis, type AnalysisInput, type AnalysisStep } from '../../server/pipeline/analysis.ts';
import { withOcrCache } from '../../scripts/eval/ocr-cache.ts';
import { sourceFingerprint } from '../../scripts/eval/source-fingerprint.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'ocr-cache-key-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('source fingerprint', () => {
  function moduleTree(): { dir: string; entry: string; fingerprint: () => string } {
    const dir = tempDir();
    const entry = join(dir, 'step.ts');
    writeFileSync(
      entry,
      [
        "import type { Shape } from './shapes.ts';",
        "import { type Limits } from './limits.ts';",
        "export type { Schema } from './schema.ts';",
        "import { read } from './reader.ts';",
        "// An example in a comment: import { nothing } from './mentioned.ts';",
        'const text = "import { nothing } from \'./quoted.ts\'";',
        'export const run = (s: Shape, l: Limits) => read(s, l, text);',
      ].join('\n'),
    );
    for (const name of ['shapes', 'limits', 'schema', 'reader', 'mentioned', 'quoted']) {
      writeFileSync(join(dir, `${name}.ts`), `export const ${name} = 1;\n`);
    }
    return { dir, entry, fingerprint: () => sourceFingerprint([entry]) };
  }

  it('does not change when a file only imported for its types changes', () => {
    const { dir, fingerprint } = moduleTree();
    const before = fingerprint();
    for (const name of ['shapes', 'limits', 'schema', 'mentioned', 'quoted']) {
      writeFileSync(join(dir, `${name}.ts`), `export const ${name} = 2; // edited elsewhere\n`);
    }
    expect(fingerprint()).toBe(before);
  });

  it('changes when code the module runs changes', () => {
    const { dir, fingerprint } = moduleTree();
    const before = fingerprint();
    writeFileSync(join(dir, 'reader.ts'), 'export const reader = 2;\n');
    expect(fingerprint()).not.toBe(before);
  });
});

describe('OCR cache key', () => {
  it('a filled entry is used whatever the categories, the date or the file name', async () => {
    const dir = tempDir();
    const file = join(dir, 'page.png');
    writeFileSync(file, 'page bytes');
    let runs = 0;
    const step: AnalysisStep = {
      name: 'image-text',
      async run(_input, analysis) {
        runs++;
        analysis.content = 'TOTAL 12.40';
      },
    };
    const input = (over: Partial<AnalysisInput>): AnalysisInput => ({
      documentId: '00000000-0000-4000-8000-000000000001',
      filePath: file,
      format: 'png',
      originalFilename: 'page.png',
      categories: ['Groceries'],
      today: '2026-01-01',
      ...over,
    });
    const cacheDir = join(dir, 'cache');
    for (const s of withOcrCache([step], cacheDir).steps) await s.run(input({}), emptyAnalysis());
    const again = emptyAnalysis();
    const later = input({ categories: ['Groceries', 'Travel'], today: '2026-02-02', originalFilename: 'copy.png' });
    for (const s of withOcrCache([step], cacheDir).steps) await s.run(later, again);
    expect(runs).toBe(1);
    expect(again.content).toBe('TOTAL 12.40');

    for (const s of withOcrCache([step], cacheDir).steps) await s.run(input({ format: 'jpeg' }), emptyAnalysis());
    expect(runs).toBe(2);
  });
});
