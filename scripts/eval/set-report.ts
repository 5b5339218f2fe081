/** One set's report: field table, e-invoice accuracy, character error rate by format, errors and misses. */
import type { Truth } from '../corpus/model.ts';
import { calibrationLines } from './calibration.ts';
import type { DocResult, SetResult } from './evaluate.ts';
import { INVOICE_FIELDS as EINVOICE_FIELDS } from './fields.ts';
import { fieldStats, fieldTable, pct, ratio } from './report.ts';

/** The format a CER line is reported under: PDFs split by how they were made. */
function cerGroup(t: Truth): string {
  if (t.family === 'text-pdf') return 'pdf (text)';
  if (t.family === 'einvoice-pdf') return 'pdf (e-invoice)';
  if (t.family === 'scanned-pdf') return 'pdf (scanned)';
  return t.format;
}
const IMAGE_GROUPS = new Set(['pdf (scanned)', 'jpeg', 'png', 'tiff']);

export function cerByFormat(results: DocResult[]) {
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

export function einvoiceStats(results: DocResult[]) {
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

export function setReport(set: SetResult, verbose: boolean): string[] {
  const { def, results } = set;
  const out: string[] = [];
  const shown = results.length < set.available ? `${results.length} of ${set.available}` : `${results.length}`;
  out.push(
    `${def.title}: ${shown} documents${def.development ? ' (development set, used while tuning)' : ' (never used while tuning)'}`,
  );
  out.push('  where the truth is null, only null counts as correct');
  out.push(...fieldTable(results.map((r) => r.checks)));
  out.push(...calibrationLines(results.map((r) => r.checks)));
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
