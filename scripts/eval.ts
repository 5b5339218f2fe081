/**
 * Evaluates document intelligence set by set: the generated corpus (test/fixtures/corpus), a generated held-out
 * corpus, the SROIE receipts and the French Factur-X invoices (../shared/datasets). Runs the processing pipeline on
 * every document, compares its fields with the labels and prints a table per set, the OCR character error rate of
 * the generated sets, the targets and a summary table; writes test-results/eval.json. `--help` lists the options.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../common/errors.ts';
import type { AnalysisStep } from '../server/pipeline/analysis.ts';
import { ANALYSIS_STEPS } from '../server/pipeline/steps/index.ts';
import { parseArgs, type EvalOptions } from './eval/args.ts';
import { calibration } from './eval/calibration.ts';
import { evaluate, TODAY, type DocResult, type SetResult } from './eval/evaluate.ts';
import { withOcrCache, type CacheStats } from './eval/ocr-cache.ts';
import { fieldStats, pct, scoredAccuracy, summaryTable } from './eval/report.ts';
import { renderDocuments } from './eval/render-documents.ts';
import { evenSample } from './eval/sample.ts';
import {
  DEFAULT_HELD_OUT_DIR,
  DEFAULT_RECEIPT_SAMPLE,
  makeHeldOutCorpus,
  RENDERED_DIR,
  RENDERED_SOURCES_DIR,
  ROOT,
  setDefs,
  type SetDef,
} from './eval/set-defs.ts';
import { cerByFormat, einvoiceStats, setReport } from './eval/set-report.ts';
import { TARGETS, targetValue } from './eval/targets.ts';
import type { EvalDoc } from './eval/sets/types.ts';

const RESULT_FILE = join(ROOT, 'test-results/eval.json');

function select(docs: EvalDoc[], def: SetDef, opts: EvalOptions): EvalDoc[] {
  let chosen = opts.only ? docs.filter((d) => opts.only!.includes(d.name)) : docs;
  const sample = opts.sample ?? (def.id === 'receipts' && !opts.full && !opts.only ? DEFAULT_RECEIPT_SAMPLE : null);
  if (sample !== null) chosen = evenSample(chosen, sample);
  if (opts.limit !== null) chosen = chosen.slice(0, opts.limit);
  return chosen;
}

/** Renders the rendered set's stale documents (Chromium); the reason it cannot be judged, or null. */
async function renderedSetMissing(): Promise<string | null> {
  try {
    const rendered = await renderDocuments(RENDERED_SOURCES_DIR, RENDERED_DIR);
    if (rendered > 0) process.stderr.write(`rendered ${rendered} documents into ${RENDERED_DIR}\n`);
    return null;
  } catch (error) {
    return `its documents could not be rendered: ${errorMessage(error)}`;
  }
}

async function main(): Promise<void> {
  const opts = parseArgs();
  let steps: readonly AnalysisStep[] = ANALYSIS_STEPS;
  let cacheStats: CacheStats | null = null;
  if (opts.ocrCacheDir) ({ steps, stats: cacheStats } = withOcrCache(ANALYSIS_STEPS, opts.ocrCacheDir));

  const started = performance.now();
  const sets: SetResult[] = [];
  const skipped: string[] = [];
  for (const def of setDefs(opts.corpusDir, opts.heldOutDir ?? DEFAULT_HELD_OUT_DIR)) {
    if (opts.sets && !opts.sets.includes(def.id)) continue;
    if (def.id === 'held-out' && !opts.heldOutDir) makeHeldOutCorpus();
    const missing = def.missing() ?? (def.id === 'rendered' ? await renderedSetMissing() : null);
    if (missing) {
      skipped.push(`${def.title}: skipped, ${missing}`);
      continue;
    }
    const all = def.load();
    const docs = select(all, def, opts);
    const results: DocResult[] = [];
    for (const [i, doc] of docs.entries()) {
      const result = await evaluate(def.id, doc, steps);
      results.push(result);
      const ok = result.checks.filter((c) => c.correct).length;
      process.stderr.write(
        `[${def.id} ${String(i + 1).padStart(3)}/${docs.length}] ${doc.file.padEnd(12)} ${doc.kind.padEnd(11)} ` +
          `${ok}/${result.checks.length} fields${result.cer === null ? '' : `, CER ${pct(result.cer)}`}, ${(result.ms / 1000).toFixed(1)} s` +
          `${result.error ? `  ERROR ${result.error}` : ''}\n`,
      );
    }
    sets.push({ def, available: all.length, results });
  }
  const totalMs = performance.now() - started;

  const out: string[] = [];
  out.push(
    `Document intelligence evaluation — ${sets.reduce((n, s) => n + s.results.length, 0)} documents in ${sets.length} sets, ` +
      `${(totalMs / 1000).toFixed(1)} s, today = ${TODAY}${cacheStats ? `, OCR cache ${cacheStats.hits} hits / ${cacheStats.misses} misses` : ''}`,
  );
  for (const set of sets) out.push('', ...setReport(set, opts.verbose));
  for (const s of skipped) out.push('', s);
  out.push('', 'Summary (accuracy per field)');
  out.push(
    ...summaryTable(
      sets.map((s) => ({
        title: s.results.length < s.available ? `${s.def.title} (${s.results.length}/${s.available})` : s.def.title,
        development: s.def.development,
        documents: s.results.length,
        checks: s.results.map((r) => r.checks),
      })),
    ),
  );
  const targets = TARGETS.map((t) => ({ ...t, value: targetValue(t, sets) }))
    .filter((t) => t.value !== null)
    .map((t) => ({ ...t, pass: t.value! >= t.min }));
  if (targets.length) {
    out.push('', 'Targets');
    for (const t of targets) {
      out.push(
        `  ${t.pass ? 'PASS' : 'FAIL'}  ${`${t.set}: ${t.name}`.padEnd(42)} ${pct(t.value!)}  (target ≥ ${(t.min * 100).toFixed(0)} %)`,
      );
    }
  }
  console.log(out.join('\n'));

  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(
    RESULT_FILE,
    `${JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        today: TODAY,
        durationMs: Math.round(totalMs),
        targets,
        sets: sets.map((s) => ({
          id: s.def.id,
          title: s.def.title,
          development: s.def.development,
          documents: s.results.length,
          available: s.available,
          fields: Object.fromEntries(
            s.results[0]?.doc.fields.map((f) => [
              f,
              fieldStats(
                s.results.map((r) => r.checks),
                f,
              ),
            ]) ?? [],
          ),
          scored: scoredAccuracy(s.results.map((r) => r.checks)),
          calibration: calibration(s.results.map((r) => r.checks)),
          einvoice: einvoiceStats(s.results),
          cer: cerByFormat(s.results),
          misses: s.results.flatMap((r) =>
            r.checks
              .filter((c) => !c.correct)
              .map((c) => ({
                file: r.doc.file,
                field: c.field,
                expected: c.expected,
                got: c.got,
                confidence: c.confidence,
              })),
          ),
          perDocument: s.results.map((r) => ({
            file: r.doc.file,
            kind: r.doc.kind,
            correct: r.checks.filter((c) => c.correct).map((c) => c.field),
            cer: r.cer,
            lineAlignedCer: r.lineCer,
            wordRecall: r.wordRecall,
            ms: Math.round(r.ms),
            error: r.error,
            notes: r.notes,
          })),
        })),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWritten ${RESULT_FILE}`);

  // Analysis steps may keep workers (OCR) alive; the report is done.
  process.exit(opts.strict && targets.some((t) => !t.pass) ? 1 : 0);
}

await main();
