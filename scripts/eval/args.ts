/** The evaluation's command line: its help text and the options parsed from it. */
import { resolve } from 'node:path';
import { scriptArgs } from '../cli-args.ts';
import { DEFAULT_OCR_CACHE_DIR } from './ocr-cache.ts';
import { DEFAULT_CORPUS_DIR, DEFAULT_RECEIPT_SAMPLE, SET_IDS, type SetId } from './set-defs.ts';

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
  vendor-texts   test/fixtures/vendor-texts/: invented invoices, bills, reminders and receipts as a PDF
                 text layer gives them, read by the understanding step only                        development
  paperwork-texts test/fixtures/paperwork-texts/: invented contracts, policies, payslips, notices,
                 statements, offers and letters; a contract's start, end and notice period judged  development
  rendered       test/fixtures/rendered-documents/: invented invoices, bills, credit notes and till
                 receipts written as HTML, printed to PDF or scanned by Chromium into
                 test-results/rendered-documents/ (again when a source changed); the whole pipeline  development

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

export function parseArgs() {
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
            return fail(`unknown set ${JSON.stringify(s)}; sets: ${[...SET_IDS, 'facturx'].join(', ')}`);
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

export type EvalOptions = ReturnType<typeof parseArgs>;
