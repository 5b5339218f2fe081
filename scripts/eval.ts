/**
 * Evaluates document intelligence set by set: the generated corpus (test/fixtures/corpus), a generated held-out
 * corpus, the SROIE receipts and the French Factur-X invoices (../shared/datasets). Runs the processing pipeline on
 * every document, compares its fields with the labels and prints a table per set, the OCR character error rate of
 * the generated sets, the targets and a summary table; writes test-results/eval.json. `--help` lists the options.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../common/errors.ts';
import { detectFormat } from '../shared/formats/detect-format.ts';
import { emptyAnalysis, type Analysis, type AnalysisInput, type AnalysisStep } from '../server/pipeline/analysis.ts';
import { ANALYSIS_STEPS } from '../server/pipeline/steps/index.ts';
import { scriptArgs } from './cli-args.ts';
import type { Truth } from './corpus/model.ts';
import { CATEGORIES } from './corpus/parties.ts';
import { compare, type Check, type Field } from './eval/fields.ts';
import { characterErrorRate, lineAlignedErrorRate, wordRecall } from './eval/metrics.ts';
import { DEFAULT_OCR_CACHE_DIR, withOcrCache, type CacheStats } from './eval/ocr-cache.ts';
import { fieldStats, fieldTable, pct, ratio, scoredAccuracy, summaryTable } from './eval/report.ts';
import { loadFacturx } from './eval/sets/facturx.ts';
import { loadGenerated } from './eval/sets/generated.ts';
import { loadReceipts } from './eval/sets/receipts.ts';
import type { EvalDoc } from './eval/sets/types.ts';
import { evenSample } from './eval/sample.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DATASETS = resolve(ROOT, '../shared/datasets');
const DEFAULT_CORPUS_DIR = join(ROOT, 'test/fixtures/corpus');
const DEFAULT_HELD_OUT_DIR = join(ROOT, 'test-results/corpus-held-out');
const RESULT_FILE = join(ROOT, 'test-results/eval.json');
const TODAY = '2026-11-21';
/** Receipts judged by a plain run: evenly spread over the set, the same every run. --full judges all of them. */
const DEFAULT_RECEIPT_SAMPLE = 60;

const SET_IDS = ['generated', 'held-out', 'receipts', 'facturx-text', 'facturx-xml'] as const;
type SetId = (typeof SET_IDS)[number];

const EINVOICE_FIELDS: Field[] = [
  'event_type',
  'sender_name',
  'reference_number',
  'amount',
  'currency',
  'document_date',
  'due_date',
];

interface Target {
  name: string;
  set: SetId;
  field: Field | 'einvoice' | 'scored';
  min: number;
}
const TARGETS: Target[] = [
  { name: 'event type', set: 'generated', field: 'event_type', min: 0.95 },
  { name: 'amount', set: 'generated', field: 'amount', min: 0.95 },
  { name: 'currency', set: 'generated', field: 'currency', min: 0.95 },
  { name: 'due date', set: 'generated', field: 'due_date', min: 0.9 },
  { name: 'document date', set: 'generated', field: 'document_date', min: 0.95 },
  { name: 'reference', set: 'generated', field: 'reference_number', min: 0.9 },
  { name: 'sender', set: 'generated', field: 'sender_name', min: 0.85 },
  { name: 'e-invoice fields', set: 'generated', field: 'einvoice', min: 1 },
  { name: 'receipts, fields', set: 'receipts', field: 'scored', min: 0.8 },
];

interface SetDef {
  id: SetId;
  title: string;
  development: boolean;
  load: () => EvalDoc[];
  missing: () => string | null;
}
interface DocResult {
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
interface SetResult {
  def: SetDef;
  available: number;
  results: DocResult[];
}

const HELP = `Usage: npm run eval [-- options]

Runs the processing pipeline over labelled sets and prints, per set, the accuracy of every labelled field, then a
summary table (one row per set); for the generated sets also e-invoice accuracy and the OCR character error rate.
Writes test-results/eval.json.

Sets (--set, comma-separated; default: all that exist):
  generated      the committed corpus, test/fixtures/corpus/ (--corpus DIR for another)            development
  held-out       the held-out plan (npm run corpus -- --held-out): six languages, senders, layouts
                 and wording the committed corpus lacks; made afresh in test-results/corpus-held-out/
                 on every run (deterministic), or read from --held-out-dir DIR                      never tuned on
  receipts       ../shared/datasets/sroie-dev: real scanned receipts; sender, date, amount,
                 currency (MYR). Plain runs judge ${DEFAULT_RECEIPT_SAMPLE} of them, evenly spread; --full all    development
  facturx        ../shared/datasets/facturx-fr-dev, both variants: facturx-text (XML removed,
                 read from the page) and facturx-xml (embedded XML read)                           development

  --full          every receipt instead of the fixed sample
  --limit N       only the first N documents of each set (quick iteration)
  --sample N      N documents of each set, evenly spread (the same every run)
  --only LIST     only these documents (names without extension, e.g. doc-07,042)
  --ocr-cache     reuse earlier OCR and text-layer output: keyed by the file's bytes, the OCR and text step code,
                  the OCR engine and language data versions, so results do not change, only speed.
                  Entries live in test-results/ocr-cache/ (--ocr-cache-dir DIR)
  --verbose, -v   also list every miss (set, file, field, expected, got)
  --strict        exit 1 when a target is missed
  --corpus DIR    the generated set's corpus. Default: test/fixtures/corpus/
  --help          this text`;

function parseArgs() {
  const values = scriptArgs(
    {
      verbose: { type: 'boolean', short: 'v' },
      strict: { type: 'boolean' },
      only: { type: 'string' },
      corpus: { type: 'string' },
      set: { type: 'string' },
      full: { type: 'boolean' },
      limit: { type: 'string' },
      sample: { type: 'string' },
      'ocr-cache': { type: 'boolean' },
      'ocr-cache-dir': { type: 'string' },
      'held-out-dir': { type: 'string' },
    },
    HELP,
  );
  const count = (name: string, raw: string | undefined): number | null => {
    if (raw === undefined) return null;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) fail(`--${name} needs a whole number of at least 1, not ${JSON.stringify(raw)}`);
    return n;
  };
  const sets =
    values.set === undefined
      ? null
      : values.set
          .split(',')
          .map((s) => s.trim())
          .flatMap((s): SetId[] => {
            if (s === 'facturx') return ['facturx-text', 'facturx-xml'];
            if ((SET_IDS as readonly string[]).includes(s)) return [s as SetId];
            return fail(
              `unknown set ${JSON.stringify(s)}; sets: generated, held-out, receipts, facturx, facturx-text, facturx-xml`,
            );
          });
  return {
    verbose: values.verbose ?? false,
    strict: values.strict ?? false,
    only: values.only ? values.only.split(',').map((s) => s.trim().replace(/\.\w+$/, '')) : null,
    corpusDir: values.corpus ? resolve(values.corpus) : DEFAULT_CORPUS_DIR,
    heldOutDir: values['held-out-dir'] ? resolve(values['held-out-dir']) : null,
    sets,
    full: values.full ?? false,
    limit: count('limit', values.limit),
    sample: count('sample', values.sample),
    ocrCacheDir:
      values['ocr-cache'] || values['ocr-cache-dir'] ? resolve(values['ocr-cache-dir'] ?? DEFAULT_OCR_CACHE_DIR) : null,
  };
}

function fail(message: string): never {
  console.error(`${message} (see --help)`);
  process.exit(2);
}

/** Writes the held-out corpus into its default directory (about 15 s; the same bytes every time). */
function makeHeldOutCorpus(): void {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/make-corpus.ts'), '--held-out', '--out', DEFAULT_HELD_OUT_DIR],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`npm run corpus -- --held-out failed:\n${run.stderr || run.stdout}`);
}

function setDefs(corpusDir: string, heldOutDir: string): SetDef[] {
  const receipts = join(DATASETS, 'sroie-dev');
  const facturx = join(DATASETS, 'facturx-fr-dev');
  const need = (dir: string, hint: string) => (): string | null =>
    existsSync(dir) ? null : `${dir} is missing${hint}`;
  return [
    {
      id: 'generated',
      title: 'generated',
      development: true,
      load: () => loadGenerated(corpusDir),
      missing: need(corpusDir, ' (npm run corpus)'),
    },
    {
      id: 'held-out',
      title: 'generated held-out',
      development: false,
      load: () => loadGenerated(heldOutDir),
      missing: need(heldOutDir, ' (npm run corpus -- --held-out --out DIR)'),
    },
    {
      id: 'receipts',
      title: 'receipts (SROIE)',
      development: true,
      load: () => loadReceipts(receipts),
      missing: need(receipts, ''),
    },
    {
      id: 'facturx-text',
      title: 'facturx text-only',
      development: true,
      load: () => loadFacturx(facturx, 'text-only'),
      missing: need(facturx, ''),
    },
    {
      id: 'facturx-xml',
      title: 'facturx with XML',
      development: true,
      load: () => loadFacturx(facturx, 'with-xml'),
      missing: need(facturx, ''),
    },
  ];
}

/** A stable uuid per document, so steps that key anything on the document id see the same id every run. */
function documentId(key: string): string {
  const h = createHash('sha256').update(`corpus:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function runSteps(steps: readonly AnalysisStep[], input: AnalysisInput): Promise<Analysis> {
  const analysis = emptyAnalysis();
  for (const step of steps) await step.run(input, analysis);
  return analysis;
}

async function evaluate(setId: SetId, doc: EvalDoc, steps: readonly AnalysisStep[]): Promise<DocResult> {
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
  const detected = await detectFormat(doc.filePath);
  if (!detected) return failed('format not detected');
  try {
    const analysis = await runSteps(steps, {
      // The generated corpus keeps its historical ids (file name only), so its figures stay comparable.
      documentId: documentId(setId === 'generated' ? doc.file : `${setId}:${doc.file}`),
      filePath: doc.filePath,
      format: detected.format,
      originalFilename: doc.file,
      categories: [...CATEGORIES],
      today: TODAY,
    });
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

/** The format a CER line is reported under: PDFs split by how they were made. */
function cerGroup(t: Truth): string {
  if (t.family === 'text-pdf') return 'pdf (text)';
  if (t.family === 'einvoice-pdf') return 'pdf (e-invoice)';
  if (t.family === 'scanned-pdf') return 'pdf (scanned)';
  return t.format;
}
const IMAGE_GROUPS = new Set(['pdf (scanned)', 'jpeg', 'png', 'tiff']);

function cerByFormat(results: DocResult[]) {
  const groups = new Map<string, DocResult[]>();
  for (const r of results)
    if (r.doc.truth) groups.set(cerGroup(r.doc.truth), [...(groups.get(cerGroup(r.doc.truth)) ?? []), r]);
  return Object.fromEntries(
    [...groups]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, rs]) => {
        const values = rs.map((r) => r.cer!).sort((a, b) => a - b);
        return [
          group,
          {
            documents: rs.length,
            image: IMAGE_GROUPS.has(group),
            meanCer: values.reduce((s, v) => s + v, 0) / values.length,
            medianCer: values[Math.floor((values.length - 1) / 2)]!,
            maxCer: values[values.length - 1]!,
            lineAlignedCer: rs.reduce((s, r) => s + r.lineCer!, 0) / rs.length,
            wordRecall: rs.reduce((s, r) => s + r.wordRecall!, 0) / rs.length,
            emptyText: rs.filter((r) => !r.content.trim()).length,
          },
        ];
      }),
  );
}

function einvoiceStats(results: DocResult[]) {
  const docs = results.filter((r) => r.doc.einvoice);
  const checks = docs.map((r) => r.checks.filter((c) => EINVOICE_FIELDS.includes(c.field)));
  const correct = checks.flat().filter((c) => c.correct).length;
  const total = checks.flat().length;
  return {
    documents: docs.length,
    correct,
    total,
    accuracy: ratio(correct, total),
    fields: Object.fromEntries(EINVOICE_FIELDS.map((f) => [f, fieldStats(checks, f)])),
  };
}

const show = (value: unknown): string => (value === null || value === undefined ? '—' : JSON.stringify(value));

function setReport(set: SetResult, verbose: boolean): string[] {
  const { def, results } = set;
  const out: string[] = [];
  const shown = results.length < set.available ? `${results.length} of ${set.available}` : `${results.length}`;
  out.push(
    `${def.title}: ${shown} documents${def.development ? ' (development set, used while tuning)' : ' (never used while tuning)'}`,
  );
  out.push('  where the truth is null, only null counts as correct');
  out.push(...fieldTable(results.map((r) => r.checks)));
  const einvoice = einvoiceStats(results);
  if (einvoice.documents && def.id !== 'facturx-xml') {
    out.push(
      `  e-invoice fields (XML is the truth): ${pct(einvoice.accuracy)}  ${einvoice.correct}/${einvoice.total} over ${einvoice.documents} documents`,
    );
  }
  const cer = cerByFormat(results);
  if (Object.keys(cer).length) {
    out.push('  character error rate by format (whitespace-normalised Levenshtein / reference length)');
    out.push(
      `    ${'format'.padEnd(18)} ${'docs'.padStart(4)}  ${'mean CER'.padStart(9)}  ${'median'.padStart(8)}  ${'max'.padStart(8)}  ` +
        `${'line-aligned'.padStart(12)}  ${'word recall'.padStart(11)}  empty`,
    );
    for (const [group, s] of Object.entries(cer)) {
      out.push(
        `    ${`${group}${s.image ? '' : ' *'}`.padEnd(18)} ${String(s.documents).padStart(4)}  ${pct(s.meanCer).padStart(9)}  ` +
          `${pct(s.medianCer).padStart(8)}  ${pct(s.maxCer).padStart(8)}  ${pct(s.lineAlignedCer).padStart(12)}  ${pct(s.wordRecall).padStart(11)}  ${s.emptyText}`,
      );
    }
    out.push(
      '    * control: text layer or Office text, no OCR. Line-aligned matches each truth line to its best stretch',
    );
    out.push('      of the extracted text (order-free); word recall ignores order.');
  }
  const errors = results.filter((r) => r.error);
  for (const e of errors) out.push(`  ERROR ${e.doc.file}: ${e.error}`);
  const misses = results.flatMap((r) => r.checks.filter((c) => !c.correct).map((c) => ({ file: r.doc.file, ...c })));
  if (verbose) {
    out.push(`  misses (${misses.length})`);
    for (const m of misses)
      out.push(`    ${m.file.padEnd(30)} ${m.field.padEnd(16)} expected ${show(m.expected)}  got ${show(m.got)}`);
  } else if (misses.length) {
    out.push(`  ${misses.length} misses; --verbose lists them`);
  }
  return out;
}

function targetValue(t: Target, sets: SetResult[]): number | null {
  const set = sets.find((s) => s.def.id === t.set);
  if (!set || !set.results.length) return null;
  if (t.field === 'einvoice') {
    const e = einvoiceStats(set.results);
    return e.documents ? e.accuracy : null;
  }
  if (t.field === 'scored') return scoredAccuracy(set.results.map((r) => r.checks)).accuracy;
  return (
    fieldStats(
      set.results.map((r) => r.checks),
      t.field,
    )?.accuracy ?? null
  );
}

function select(docs: EvalDoc[], def: SetDef, opts: ReturnType<typeof parseArgs>): EvalDoc[] {
  let chosen = opts.only ? docs.filter((d) => opts.only!.includes(d.name)) : docs;
  const sample = opts.sample ?? (def.id === 'receipts' && !opts.full && !opts.only ? DEFAULT_RECEIPT_SAMPLE : null);
  if (sample !== null) chosen = evenSample(chosen, sample);
  if (opts.limit !== null) chosen = chosen.slice(0, opts.limit);
  return chosen;
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
    const missing = def.missing();
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
        `  ${t.pass ? 'PASS' : 'FAIL'}  ${`${t.set}: ${t.name}`.padEnd(28)} ${pct(t.value!)}  (target ≥ ${(t.min * 100).toFixed(0)} %)`,
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
          einvoice: einvoiceStats(s.results),
          cer: cerByFormat(s.results),
          misses: s.results.flatMap((r) =>
            r.checks
              .filter((c) => !c.correct)
              .map((c) => ({ file: r.doc.file, field: c.field, expected: c.expected, got: c.got })),
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
