/** The labelled sets the evaluation knows: where each lives, how it is loaded, and what it says when it is absent. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFacturx } from './sets/facturx.ts';
import { loadGenerated } from './sets/generated.ts';
import { loadReceipts } from './sets/receipts.ts';
import { loadPaperworkTexts } from './sets/paperwork-texts.ts';
import { loadVendorTexts } from './sets/vendor-texts.ts';
import { INVOICE_FIELDS } from './fields.ts';
import type { EvalDoc } from './sets/types.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
const DATASETS = resolve(ROOT, '../shared/datasets');
export const DEFAULT_CORPUS_DIR = join(ROOT, 'test/fixtures/corpus');
const VENDOR_TEXTS_DIR = join(ROOT, 'test/fixtures/vendor-texts');
const PAPERWORK_TEXTS_DIR = join(ROOT, 'test/fixtures/paperwork-texts');
export const RENDERED_SOURCES_DIR = join(ROOT, 'test/fixtures/rendered-documents');
/** Where the rendered set's PDFs and scans are made (scripts/eval/render-documents.ts). */
export const RENDERED_DIR = join(ROOT, 'test-results/rendered-documents');
export const DEFAULT_HELD_OUT_DIR = join(ROOT, 'test-results/corpus-held-out');
/** Receipts judged by a plain run: evenly spread over the set, the same every run. --full judges all of them. */
export const DEFAULT_RECEIPT_SAMPLE = 60;

export const SET_IDS = [
  'generated',
  'held-out',
  'receipts',
  'facturx-text',
  'facturx-xml',
  'vendor-texts',
  'paperwork-texts',
  'rendered',
] as const;
export type SetId = (typeof SET_IDS)[number];

export interface SetDef {
  id: SetId;
  title: string;
  development: boolean;
  load: () => EvalDoc[];
  missing: () => string | null;
}
/** Writes the held-out corpus into its default directory (about 15 s; the same bytes every time). */
export function makeHeldOutCorpus(): void {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/make-corpus.ts'), '--held-out', '--out', DEFAULT_HELD_OUT_DIR],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`npm run corpus -- --held-out failed:\n${run.stderr || run.stdout}`);
}

export function setDefs(corpusDir: string, heldOutDir: string): SetDef[] {
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
      id: 'vendor-texts',
      title: 'vendor-style texts',
      development: true,
      load: () => loadVendorTexts(VENDOR_TEXTS_DIR),
      missing: need(VENDOR_TEXTS_DIR, ''),
    },
    {
      id: 'paperwork-texts',
      title: 'paperwork texts',
      development: true,
      load: () => loadPaperworkTexts(PAPERWORK_TEXTS_DIR),
      missing: need(PAPERWORK_TEXTS_DIR, ''),
    },
    {
      id: 'rendered',
      title: 'rendered documents',
      development: true,
      load: () => loadGenerated(RENDERED_DIR, INVOICE_FIELDS),
      missing: need(RENDERED_SOURCES_DIR, ''),
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
