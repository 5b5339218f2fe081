/**
 * Evaluates document intelligence on the corpus in test/fixtures/corpus (or --corpus DIR): runs analyze() on every
 * document and compares analysis.fields with the ground truth. Prints per-field accuracy, e-invoice accuracy, the
 * character error rate per format and the targets; writes test-results/eval.json.
 *
 *   npm run eval                      report (exit 0)
 *   npm run eval -- --verbose         also list every miss (file, field, expected, got)
 *   npm run eval -- --strict          exit 1 when a target is missed
 *   npm run eval -- --only doc-01,doc-07
 *   npm run eval -- --corpus /tmp/corpus-2   another corpus (e.g. npm run corpus -- --seed 2 --out /tmp/corpus-2)
 *   npm run eval -- --help
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorMessage } from '../common/errors.ts';
import { detectFormat } from '../shared/formats/detect-format.ts';
import type { Analysis } from '../server/pipeline/analysis.ts';
import { analyze } from '../server/pipeline/analyze.ts';
import { scriptArgs } from './cli-args.ts';
import type { Truth } from './corpus/model.ts';
import { CATEGORIES } from './corpus/parties.ts';
import {
  asAmount, asDate, asText, characterErrorRate, lineAlignedErrorRate, normaliseReference, SENDER_THRESHOLD, senderSimilarity, wordRecall,
} from './eval/metrics.ts';

const ROOT = resolve(import.meta.dirname, '..');
const DEFAULT_CORPUS_DIR = join(ROOT, 'test/fixtures/corpus');
const RESULT_FILE = join(ROOT, 'test-results/eval.json');
const TODAY = '2026-11-21';

const FIELDS = ['event_type', 'sender_name', 'reference_number', 'amount', 'currency', 'document_date', 'due_date', 'category'] as const;
type Field = (typeof FIELDS)[number];
const EINVOICE_FIELDS: Field[] = ['event_type', 'sender_name', 'reference_number', 'amount', 'currency', 'document_date', 'due_date'];

const TARGETS: Array<{ name: string; field: Field | 'einvoice'; min: number }> = [
  { name: 'event type', field: 'event_type', min: 0.95 },
  { name: 'amount', field: 'amount', min: 0.95 },
  { name: 'currency', field: 'currency', min: 0.95 },
  { name: 'due date', field: 'due_date', min: 0.9 },
  { name: 'document date', field: 'document_date', min: 0.95 },
  { name: 'reference', field: 'reference_number', min: 0.9 },
  { name: 'sender', field: 'sender_name', min: 0.85 },
  { name: 'e-invoice fields', field: 'einvoice', min: 1 },
];

interface Check { field: Field; expected: unknown; got: unknown; correct: boolean; expectedPresent: boolean; gotPresent: boolean }
interface DocResult {
  truth: Truth; checks: Check[]; content: string; cer: number; lineCer: number; wordRecall: number; ms: number; error: string | null; notes: string[];
}

const HELP = `Usage: npm run eval [-- --verbose] [-- --strict] [-- --only doc-01,doc-07] [-- --corpus DIR]

Runs the processing pipeline over a labelled corpus and prints per-field accuracy, e-invoice accuracy, the OCR
character error rate per format and the targets; writes test-results/eval.json.

  --verbose, -v   also list every miss (file, field, expected, got)
  --strict        exit 1 when a target is missed
  --only LIST     only these documents (comma-separated names, with or without extension)
  --corpus DIR    the corpus to read, e.g. one made by npm run corpus -- --seed 2 --out DIR.
                  Default: test/fixtures/corpus/
  --help          this text`;

function parseArgs(): { verbose: boolean; strict: boolean; only: string[] | null; corpusDir: string } {
  const values = scriptArgs({
    verbose: { type: 'boolean', short: 'v' }, strict: { type: 'boolean' }, only: { type: 'string' }, corpus: { type: 'string' },
  }, HELP);
  return {
    verbose: values.verbose ?? false,
    strict: values.strict ?? false,
    only: values.only ? values.only.split(',').map((s) => s.trim().replace(/\.\w+$/, '')) : null,
    corpusDir: values.corpus ? resolve(values.corpus) : DEFAULT_CORPUS_DIR,
  };
}

function loadTruths(corpusDir: string, only: string[] | null): Truth[] {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith('.json'))
    .filter((f) => !only || only.includes(f.replace(/\.json$/, '')))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(corpusDir, f), 'utf8')) as Truth);
}

/** A stable uuid per file, so steps that key anything on the document id see the same id every run. */
function documentId(file: string): string {
  const h = createHash('sha256').update(`corpus:${file}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function compare(truth: Truth, fields: Analysis['fields']): Check[] {
  const value = (name: string): unknown => fields[name]?.value ?? null;
  const checks: Check[] = [];
  const add = (field: Field, expected: unknown, got: unknown, correct: boolean): void => {
    checks.push({ field, expected, got, correct, expectedPresent: expected !== null, gotPresent: got !== null && got !== undefined && got !== '' });
  };

  const type = asText(value('event_type'));
  add('event_type', truth.event_type, type, type === truth.event_type);

  const sender = asText(value('sender_name'));
  add('sender_name', truth.sender_name, sender, sender !== null && senderSimilarity(truth.sender_name, sender) >= SENDER_THRESHOLD);

  const reference = asText(value('reference_number'));
  add('reference_number', truth.reference_number, reference, truth.reference_number === null
    ? reference === null : reference !== null && normaliseReference(reference) === normaliseReference(truth.reference_number));

  const amount = asAmount(value('amount'));
  const gotValue = amount?.value ?? null;
  add('amount', truth.amount?.value ?? null, gotValue, truth.amount === null
    ? gotValue === null : gotValue !== null && Math.round(gotValue * 100) === Math.round(truth.amount.value * 100));
  const gotCurrency = amount?.currency ?? null;
  add('currency', truth.amount?.currency ?? null, gotCurrency, truth.amount === null
    ? gotCurrency === null : gotCurrency === truth.amount.currency);

  const docDate = asDate(value('document_date'));
  add('document_date', truth.document_date, docDate, docDate === truth.document_date);
  const due = asDate(value('due_date'));
  add('due_date', truth.due_date, due, due === truth.due_date);

  const category = asText(value('category'));
  add('category', truth.category, category, category !== null && category.toLowerCase() === truth.category.toLowerCase());
  return checks;
}

async function evaluate(corpusDir: string, truth: Truth): Promise<DocResult> {
  const filePath = join(corpusDir, truth.file);
  const started = performance.now();
  const detected = await detectFormat(filePath);
  if (!detected) {
    return { truth, checks: compare(truth, {}), content: '', cer: 1, lineCer: 1, wordRecall: 0, ms: 0, error: 'format not detected', notes: [] };
  }
  try {
    const analysis = await analyze({
      documentId: documentId(truth.file), filePath, format: detected.format, originalFilename: truth.file,
      categories: [...CATEGORIES], today: TODAY,
    });
    const content = analysis.content ?? '';
    return {
      truth, checks: compare(truth, analysis.fields ?? {}), content, cer: characterErrorRate(truth.text, content),
      lineCer: lineAlignedErrorRate(truth.text, content), wordRecall: wordRecall(truth.text, content), ms: performance.now() - started, error: null, notes: analysis.notes ?? [],
    };
  } catch (err) {
    const message = errorMessage(err);
    return { truth, checks: compare(truth, {}), content: '', cer: 1, lineCer: 1, wordRecall: 0, ms: performance.now() - started, error: message, notes: [] };
  }
}

const pct = (x: number): string => `${(x * 100).toFixed(1).padStart(5)} %`;
const ratio = (correct: number, total: number): number => (total ? correct / total : 0);

/** The format a CER line is reported under: PDFs split by how they were made. */
function cerGroup(t: Truth): string {
  if (t.family === 'text-pdf') return 'pdf (text)';
  if (t.family === 'einvoice-pdf') return 'pdf (e-invoice)';
  if (t.family === 'scanned-pdf') return 'pdf (scanned)';
  return t.format;
}
const IMAGE_GROUPS = new Set(['pdf (scanned)', 'jpeg', 'png', 'tiff']);

function fieldStats(results: DocResult[], field: Field) {
  const checks = results.map((r) => r.checks.find((c) => c.field === field)!);
  const correct = checks.filter((c) => c.correct).length;
  const present = checks.filter((c) => c.expectedPresent);
  const absent = checks.filter((c) => !c.expectedPresent);
  return {
    correct, total: checks.length, accuracy: ratio(correct, checks.length),
    withValue: { correct: present.filter((c) => c.correct).length, total: present.length },
    withoutValue: { correct: absent.filter((c) => c.correct).length, total: absent.length },
  };
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
}

async function main(): Promise<void> {
  const { verbose, strict, only, corpusDir } = parseArgs();
  const truths = loadTruths(corpusDir, only);
  if (!truths.length) throw new Error(`no ground truth in ${corpusDir} (run npm run corpus)`);
  const started = performance.now();
  const results: DocResult[] = [];
  for (const [i, truth] of truths.entries()) {
    const result = await evaluate(corpusDir, truth);
    results.push(result);
    const ok = result.checks.filter((c) => c.correct).length;
    process.stderr.write(`[${String(i + 1).padStart(2)}/${truths.length}] ${truth.file.padEnd(10)} ${truth.event_type.padEnd(11)} `
      + `${ok}/${result.checks.length} fields, CER ${pct(result.cer)}, ${(result.ms / 1000).toFixed(1)} s${result.error ? `  ERROR ${result.error}` : ''}\n`);
  }
  const totalMs = performance.now() - started;

  const fields = Object.fromEntries(FIELDS.map((f) => [f, fieldStats(results, f)])) as Record<Field, ReturnType<typeof fieldStats>>;
  const einvoiceResults = results.filter((r) => r.truth.einvoice);
  const einvoiceChecks = einvoiceResults.flatMap((r) => r.checks.filter((c) => EINVOICE_FIELDS.includes(c.field)));
  const einvoice = {
    documents: einvoiceResults.length,
    correct: einvoiceChecks.filter((c) => c.correct).length,
    total: einvoiceChecks.length,
    accuracy: ratio(einvoiceChecks.filter((c) => c.correct).length, einvoiceChecks.length),
    fields: Object.fromEntries(EINVOICE_FIELDS.map((f) => [f, fieldStats(einvoiceResults, f)])),
  };

  const groups = new Map<string, DocResult[]>();
  for (const r of results) groups.set(cerGroup(r.truth), [...(groups.get(cerGroup(r.truth)) ?? []), r]);
  const cer = Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, rs]) => {
    const values = rs.map((r) => r.cer).sort((a, b) => a - b);
    return [group, {
      documents: rs.length,
      image: IMAGE_GROUPS.has(group),
      meanCer: values.reduce((s, v) => s + v, 0) / values.length,
      medianCer: values[Math.floor((values.length - 1) / 2)]!,
      maxCer: values[values.length - 1]!,
      lineAlignedCer: rs.reduce((s, r) => s + r.lineCer, 0) / rs.length,
      wordRecall: rs.reduce((s, r) => s + r.wordRecall, 0) / rs.length,
      emptyText: rs.filter((r) => !r.content.trim()).length,
    }];
  }));

  const targets = TARGETS.map((t) => {
    const value = t.field === 'einvoice' ? einvoice.accuracy : fields[t.field].accuracy;
    return { name: t.name, field: t.field, target: t.min, value, pass: value >= t.min };
  });
  const misses = results.flatMap((r) => r.checks.filter((c) => !c.correct).map((c) => ({
    file: r.truth.file, format: r.truth.format, family: r.truth.family, field: c.field, expected: c.expected, got: c.got,
  })));
  const errors = results.filter((r) => r.error).map((r) => ({ file: r.truth.file, error: r.error }));

  const out: string[] = [];
  out.push(`Document intelligence evaluation — ${results.length} documents (${einvoiceResults.length} e-invoices), `
    + `${(totalMs / 1000).toFixed(1)} s, today = ${TODAY}${corpusDir === DEFAULT_CORPUS_DIR ? '' : `, corpus ${corpusDir}`}`);
  out.push('');
  out.push('Field accuracy (all documents; where the truth is null, only null counts as correct)');
  out.push(`  ${'field'.padEnd(16)} ${'accuracy'.padStart(9)}  ${'correct'.padStart(7)}  ${'has value'.padStart(12)}  ${'is null'.padStart(9)}`);
  for (const f of FIELDS) {
    const s = fields[f];
    out.push(`  ${f.padEnd(16)} ${pct(s.accuracy).padStart(9)}  ${`${s.correct}/${s.total}`.padStart(7)}  `
      + `${`${s.withValue.correct}/${s.withValue.total}`.padStart(12)}  ${`${s.withoutValue.correct}/${s.withoutValue.total}`.padStart(9)}`);
  }
  out.push('');
  out.push(`E-invoice fields (XML is the truth): ${pct(einvoice.accuracy)}  ${einvoice.correct}/${einvoice.total} over ${einvoice.documents} documents`);
  for (const f of EINVOICE_FIELDS) {
    const s = einvoice.fields[f]!;
    out.push(`  ${f.padEnd(16)} ${`${s.correct}/${s.total}`.padStart(7)}`);
  }
  out.push('');
  out.push('Character error rate by format (whitespace-normalised Levenshtein / reference length)');
  out.push(`  ${'format'.padEnd(18)} ${'docs'.padStart(4)}  ${'mean CER'.padStart(9)}  ${'median'.padStart(8)}  ${'max'.padStart(8)}  `
    + `${'line-aligned'.padStart(12)}  ${'word recall'.padStart(11)}  empty`);
  for (const [group, s] of Object.entries(cer)) {
    out.push(`  ${`${group}${s.image ? '' : ' *'}`.padEnd(18)} ${String(s.documents).padStart(4)}  ${pct(s.meanCer).padStart(9)}  `
      + `${pct(s.medianCer).padStart(8)}  ${pct(s.maxCer).padStart(8)}  ${pct(s.lineAlignedCer).padStart(12)}  ${pct(s.wordRecall).padStart(11)}  ${s.emptyText}`);
  }
  out.push('  * control: text layer or Office text, no OCR. CER counts reading-order differences as errors; line-aligned');
  out.push('    matches each truth line to its best stretch of the extracted text (order-free); word recall ignores order.');
  out.push('');
  out.push('Targets');
  for (const t of targets) {
    out.push(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name.padEnd(17)} ${pct(t.value)}  (target ≥ ${(t.target * 100).toFixed(0)} %)`);
  }
  if (errors.length) {
    out.push('');
    out.push(`Errors (${errors.length})`);
    for (const e of errors) out.push(`  ${e.file}: ${e.error}`);
  }
  if (verbose) {
    out.push('');
    out.push(`Misses (${misses.length})`);
    for (const m of misses) out.push(`  ${m.file.padEnd(10)} ${m.format.padEnd(5)} ${m.field.padEnd(16)} expected ${show(m.expected)}  got ${show(m.got)}`);
  } else if (misses.length) {
    out.push('');
    out.push(`${misses.length} misses; run with --verbose to list them.`);
  }
  console.log(out.join('\n'));

  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(RESULT_FILE, `${JSON.stringify({
    generatedAt: new Date().toISOString(), corpus: corpusDir, today: TODAY, documents: results.length, durationMs: Math.round(totalMs),
    fields, einvoice, cer, targets, misses, errors,
    perDocument: results.map((r) => ({
      file: r.truth.file, format: r.truth.format, family: r.truth.family, language: r.truth.language, event_type: r.truth.event_type,
      correct: r.checks.filter((c) => c.correct).map((c) => c.field), cer: r.cer, lineAlignedCer: r.lineCer, wordRecall: r.wordRecall, ms: Math.round(r.ms),
      error: r.error, notes: r.notes,
    })),
  }, null, 2)}\n`);
  console.log(`\nWritten ${RESULT_FILE}`);

  const failed = targets.filter((t) => !t.pass);
  // Analysis steps may keep workers (OCR) alive; the report is done.
  process.exit(strict && failed.length ? 1 : 0);
}

await main();
