/**
 * Opt-in cache of the text steps' output (PDF text layer with OCR of scanned pages, image OCR) for evaluation runs,
 * so work on the steps after them (understanding, layout) does not wait for OCR again. An entry is keyed by the
 * file's bytes, the step, the analysis input it reads (format, languages, limits) and the fingerprint of the code the
 * step runs (type-only imports aside) and of the OCR engine and language data installed: change any of them and the
 * entry is not used. A hit gives the same
 * analysis the step would have produced: text, positions, page count, notes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Analysis, AnalysisInput, AnalysisStep } from '../../server/pipeline/analysis.ts';
import { sourceFingerprint } from './source-fingerprint.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const DEFAULT_OCR_CACHE_DIR = join(ROOT, 'test-results/ocr-cache');

/** The steps worth caching and the module each lives in (a step not listed here always runs). */
const CACHED_STEP_MODULES: Record<string, string> = {
  'pdf-text': 'server/pipeline/steps/pdf-text.ts',
  'image-text': 'server/pipeline/steps/image-text.ts',
};

/** Packages loaded by path rather than imported: the language data and the engine's WebAssembly core. */
function enginePackages(): string[] {
  const dataDir = join(ROOT, 'node_modules/@tesseract.js-data');
  const data = existsSync(dataDir) ? readdirSync(dataDir).map((name) => `@tesseract.js-data/${name}`) : [];
  return ['tesseract.js-core', ...data];
}

export interface CacheStats {
  hits: number;
  misses: number;
}

export function withOcrCache(
  steps: readonly AnalysisStep[],
  cacheDir: string,
): { steps: AnalysisStep[]; stats: CacheStats } {
  const stats: CacheStats = { hits: 0, misses: 0 };
  const fileHashes = new Map<string, string>();
  const fileHash = (path: string): string => {
    let hash = fileHashes.get(path);
    if (!hash) {
      hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      fileHashes.set(path, hash);
    }
    return hash;
  };
  mkdirSync(cacheDir, { recursive: true });
  const wrapped = steps.map((step): AnalysisStep => {
    const module = CACHED_STEP_MODULES[step.name];
    if (!module) return step;
    const fingerprint = sourceFingerprint([module], enginePackages());
    return {
      name: step.name,
      async run(input: AnalysisInput, analysis: Analysis) {
        // What the text steps never read stays out of the key: the space's categories and today's date change
        // with work elsewhere, and would make every entry miss without changing a single character read.
        const { documentId: _id, filePath: _path, categories: _c, today: _t, originalFilename: _n, ...options } = input;
        const key = createHash('sha256')
          .update(
            JSON.stringify({ step: step.name, fingerprint, file: fileHash(input.filePath), options, before: analysis }),
          )
          .digest('hex');
        const entry = join(cacheDir, `${key}.json`);
        if (existsSync(entry)) {
          Object.assign(analysis, JSON.parse(readFileSync(entry, 'utf8')) as Analysis);
          stats.hits++;
          return;
        }
        await step.run(input, analysis);
        stats.misses++;
        // Written whole, then renamed: an interrupted run leaves no half entry behind.
        writeFileSync(`${entry}.tmp`, JSON.stringify(analysis));
        renameSync(`${entry}.tmp`, entry);
      },
    };
  });
  return { steps: wrapped, stats };
}
