/**
 * Category accuracy with and without learning from corrections (docs/benchmarks.md, "Document intelligence"). Each
 * document of a generated corpus runs through the pipeline and is written to a real archive database; with learning,
 * the first document of each sender is corrected as a person would (its sender and category set to the truth), and
 * the sender's later documents are judged. Without learning the same later documents are judged on the rules alone.
 *
 *   node scripts/eval/learning.ts [--corpus DIR] [--ocr-cache DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import { openDatabase } from '../../server/db/database.ts';
import { nowIso, type Sql } from '../../server/db/sql.ts';
import { categoryIdFor, senderIdFor } from '../../server/documents/document-rows.ts';
import { addEditedFields } from '../../server/events/hand-edits.ts';
import { learnFromCorrection } from '../../server/learning/learned-senders.ts';
import { applyAnalysis } from '../../server/pipeline/apply-analysis.ts';
import { emptyAnalysis, type Analysis } from '../../server/pipeline/analysis.ts';
import { ANALYSIS_STEPS } from '../../server/pipeline/steps/index.ts';
import { scriptArgs } from '../cli-args.ts';
import { CATEGORIES } from '../corpus/parties.ts';
import { DEFAULT_OCR_CACHE_DIR, withOcrCache } from './ocr-cache.ts';
import { loadGenerated } from './sets/generated.ts';
import type { EvalDoc } from './sets/types.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TODAY = '2026-11-21';
const HELP = `Usage: node scripts/eval/learning.ts [--corpus DIR] [--ocr-cache DIR]
Category accuracy of each sender's later documents, on the rules alone and after correcting its first document.
  --corpus DIR      a generated corpus (default test/fixtures/corpus)
  --ocr-cache DIR   OCR results by file (default test-results/ocr-cache)`;

interface Judged {
  name: string;
  sender: string;
  expected: string;
  rulesOnly: string | null;
  learned: string | null;
  firstOfSender: boolean;
}

async function analyse(doc: EvalDoc, steps: typeof ANALYSIS_STEPS): Promise<Analysis | null> {
  const detected = await detectFormat(doc.filePath);
  if (!detected) return null;
  const analysis = emptyAnalysis();
  for (const step of steps) {
    await step.run(
      {
        documentId: randomUUID(),
        filePath: doc.filePath,
        format: detected.format,
        originalFilename: doc.file,
        categories: [...CATEGORIES],
        today: TODAY,
      },
      analysis,
    );
  }
  return analysis;
}

/** A fresh archive database; its default space gets the corpus' categories. */
async function archive(dir: string): Promise<{ db: Sql; spaceId: string }> {
  const db = await openDatabase(join(dir, 'archive.sqlite'));
  const { id: spaceId } = (await db.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!;
  for (const name of CATEGORIES) await categoryIdFor(db, spaceId, name, nowIso());
  return { db, spaceId };
}

async function writeDocument(db: Sql, spaceId: string, doc: EvalDoc, analysis: Analysis): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  await db.run(
    `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
    sha256, metadata, duplicate_of, uploaded_by, created_at, updated_at) VALUES (?, ?, 'processing', ?, ?, '', '', 0, ?, NULL, NULL, 'eval', ?, ?)`,
    id,
    spaceId,
    doc.file,
    doc.file,
    id,
    now,
    now,
  );
  await applyAnalysis(db, id, structuredClone(analysis), true);
  return id;
}

async function categoryOf(db: Sql, documentId: string): Promise<string | null> {
  const row = await db.get<{ name: string | null }>(
    'SELECT c.name FROM documents d LEFT JOIN categories c ON c.id = d.category_id WHERE d.id = ?',
    documentId,
  );
  return row?.name ?? null;
}

/** What a person does in the app: sets the sender and the category the document should have had. */
async function correct(db: Sql, documentId: string, sender: string, category: string): Promise<void> {
  const now = nowIso();
  const { space_id: spaceId } = (await db.get<{
    space_id: string;
  }>('SELECT space_id FROM documents WHERE id = ?', documentId))!;
  await db.run(
    'UPDATE documents SET sender_id = ?, category_id = ? WHERE id = ?',
    await senderIdFor(db, documentId, sender, now),
    await categoryIdFor(db, spaceId, category, now),
    documentId,
  );
  await addEditedFields(db, documentId, ['sender_name', 'category_id']);
  await learnFromCorrection(db, documentId, ['sender_name', 'category_id'], now);
}

async function main(): Promise<void> {
  const args = scriptArgs({ corpus: { type: 'string' }, 'ocr-cache': { type: 'string' } }, HELP);
  const corpus = args.corpus ?? join(ROOT, 'test/fixtures/corpus');
  const { steps } = withOcrCache(ANALYSIS_STEPS, args['ocr-cache'] ?? DEFAULT_OCR_CACHE_DIR);
  const docs = loadGenerated(corpus);
  const dir = mkdtempSync(join(tmpdir(), 'eval-learning-'));
  try {
    const plain = await archive(mkdtempSync(join(dir, 'plain-')));
    const taughtDir = mkdtempSync(join(dir, 'taught-'));
    const taught = await archive(taughtDir);
    const seen = new Set<string>();
    const judged: Judged[] = [];
    for (const doc of docs) {
      const truth = doc.truth!;
      const analysis = await analyse(doc, steps);
      if (!analysis) continue;
      const plainId = await writeDocument(plain.db, plain.spaceId, doc, analysis);
      const taughtId = await writeDocument(taught.db, taught.spaceId, doc, analysis);
      const firstOfSender = !seen.has(truth.sender_name);
      judged.push({
        name: doc.name,
        sender: truth.sender_name,
        expected: truth.category,
        firstOfSender,
        rulesOnly: await categoryOf(plain.db, plainId),
        learned: await categoryOf(taught.db, taughtId),
      });
      if (firstOfSender) {
        seen.add(truth.sender_name);
        await correct(taught.db, taughtId, truth.sender_name, truth.category);
      }
      process.stderr.write('.');
    }
    process.stderr.write('\n');
    report(judged);
    await plain.db.close();
    await taught.db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(judged: readonly Judged[]): void {
  const right = (value: string | null, expected: string) =>
    value !== null && value.toLowerCase() === expected.toLowerCase();
  const share = (rows: readonly Judged[], pick: (r: Judged) => string | null) =>
    `${rows.filter((r) => right(pick(r), r.expected)).length}/${rows.length} (${rows.length ? Math.round((100 * rows.filter((r) => right(pick(r), r.expected)).length) / rows.length) : 0} %)`;
  const later = judged.filter((r) => !r.firstOfSender);
  console.log(
    `documents: ${judged.length}, senders: ${judged.length - later.length}, later documents of a sender: ${later.length}`,
  );
  console.log(`category, all documents, rules only: ${share(judged, (r) => r.rulesOnly)}`);
  console.log(`category, later documents, rules only: ${share(later, (r) => r.rulesOnly)}`);
  console.log(`category, later documents, after correcting each sender's first: ${share(later, (r) => r.learned)}`);
  for (const r of later.filter((x) => !right(x.learned, x.expected))) {
    console.log(`  miss ${r.name}: expected ${r.expected}, learned ${r.learned ?? '-'}, rules ${r.rulesOnly ?? '-'}`);
  }
}

await main();
