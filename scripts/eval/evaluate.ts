/** Runs the analysis steps on one labelled document and scores its fields and extracted text. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../../common/errors.ts';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import { emptyAnalysis, type Analysis, type AnalysisInput, type AnalysisStep } from '../../server/pipeline/analysis.ts';
import { CATEGORIES } from '../corpus/parties.ts';
import { compare, type Check } from './fields.ts';
import { characterErrorRate, lineAlignedErrorRate, wordRecall } from './metrics.ts';
import type { SetDef, SetId } from './set-defs.ts';
import type { EvalDoc } from './sets/types.ts';

/** The date the analysis takes as today: fixed, so the figures do not move with the calendar. */
export const TODAY = '2026-11-21';

export interface DocResult {
  doc: EvalDoc;
  checks: Check[];
  content: string;
  cer: number | null;
  lineCer: number | null;
  wordRecall: number | null;
  ms: number;
  error: string | null;
  notes: string[];
}
export interface SetResult {
  def: SetDef;
  available: number;
  results: DocResult[];
}

/** A stable uuid per document, so steps that key anything on the document id see the same id every run. */
function documentId(key: string): string {
  const h = createHash('sha256').update(`corpus:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The steps that read a document's text once it has been extracted. */
const TEXT_STEPS = new Set(['understand', 'filename-title']);

async function runSteps(steps: readonly AnalysisStep[], input: AnalysisInput, text?: string): Promise<Analysis> {
  const analysis = emptyAnalysis();
  if (text !== undefined) analysis.content = text;
  for (const step of steps) await step.run(input, analysis);
  return analysis;
}

export async function evaluate(setId: SetId, doc: EvalDoc, steps: readonly AnalysisStep[]): Promise<DocResult> {
  const started = performance.now();
  const textScores = (content: string) =>
    doc.truth
      ? {
          cer: characterErrorRate(doc.truth.text, content),
          lineCer: lineAlignedErrorRate(doc.truth.text, content),
          wordRecall: wordRecall(doc.truth.text, content),
        }
      : { cer: null, lineCer: null, wordRecall: null };
  const failed = (error: string): DocResult => ({
    doc,
    checks: compare(doc.expected, {}, doc.fields),
    content: '',
    ...textScores(''),
    ms: performance.now() - started,
    error,
    notes: [],
  });
  // A text layer as text (the vendor-style set): only the steps that read text run on it.
  const textOnly = doc.file.endsWith('.txt');
  // Read as an Office document's text is: no e-invoice to look for, no pages to OCR.
  const detected = textOnly ? { format: 'odt' as const } : await detectFormat(doc.filePath);
  if (!detected) return failed('format not detected');
  try {
    const analysis = await runSteps(
      textOnly ? steps.filter((step) => TEXT_STEPS.has(step.name)) : steps,
      {
        // The generated corpus keeps its historical ids (file name only), so its figures stay comparable.
        documentId: documentId(setId === 'generated' ? doc.file : `${setId}:${doc.file}`),
        filePath: doc.filePath,
        format: detected.format,
        originalFilename: doc.file,
        categories: [...CATEGORIES],
        today: TODAY,
      },
      textOnly ? await readFile(doc.filePath, 'utf8') : undefined,
    );
    const content = analysis.content ?? '';
    return {
      doc,
      checks: compare(doc.expected, analysis.fields ?? {}, doc.fields),
      content,
      ...textScores(content),
      ms: performance.now() - started,
      error: null,
      notes: analysis.notes ?? [],
    };
  } catch (err) {
    return failed(errorMessage(err));
  }
}
