/** Per-field statistics of a set's results and the tables the evaluation prints. */
import type { Check, Field } from './fields.ts';
import { FIELDS } from './fields.ts';

/** The fields the issue's accuracy target counts (event type and category are reported, not counted). */
export const SCORED_FIELDS: readonly Field[] = [
  'amount',
  'currency',
  'document_date',
  'due_date',
  'reference_number',
  'sender_name',
];

export interface FieldStats {
  correct: number;
  total: number;
  accuracy: number;
  withValue: { correct: number; total: number };
  withoutValue: { correct: number; total: number };
}

export const pct = (x: number): string => `${(x * 100).toFixed(1).padStart(5)} %`;
export const ratio = (correct: number, total: number): number => (total ? correct / total : 0);

export function fieldStats(checksPerDoc: readonly Check[][], field: Field): FieldStats | null {
  const checks = checksPerDoc.flatMap((cs) => cs.filter((c) => c.field === field));
  if (!checks.length) return null;
  const correct = checks.filter((c) => c.correct).length;
  const present = checks.filter((c) => c.expectedPresent);
  const absent = checks.filter((c) => !c.expectedPresent);
  return {
    correct,
    total: checks.length,
    accuracy: ratio(correct, checks.length),
    withValue: { correct: present.filter((c) => c.correct).length, total: present.length },
    withoutValue: { correct: absent.filter((c) => c.correct).length, total: absent.length },
  };
}

/** Share of the scored fields right over all documents (each labelled field of each document counts once). */
export function scoredAccuracy(checksPerDoc: readonly Check[][]): { correct: number; total: number; accuracy: number } {
  const checks = checksPerDoc.flatMap((cs) => cs.filter((c) => SCORED_FIELDS.includes(c.field)));
  const correct = checks.filter((c) => c.correct).length;
  return { correct, total: checks.length, accuracy: ratio(correct, checks.length) };
}

export function fieldTable(checksPerDoc: readonly Check[][]): string[] {
  const out = [
    `  ${'field'.padEnd(16)} ${'accuracy'.padStart(9)}  ${'correct'.padStart(7)}  ${'has value'.padStart(12)}  ${'is null'.padStart(9)}`,
  ];
  for (const f of FIELDS) {
    const s = fieldStats(checksPerDoc, f);
    if (!s) continue;
    out.push(
      `  ${f.padEnd(16)} ${pct(s.accuracy).padStart(9)}  ${`${s.correct}/${s.total}`.padStart(7)}  ` +
        `${`${s.withValue.correct}/${s.withValue.total}`.padStart(12)}  ${`${s.withoutValue.correct}/${s.withoutValue.total}`.padStart(9)}`,
    );
  }
  const scored = scoredAccuracy(checksPerDoc);
  out.push(
    `  ${'scored fields'.padEnd(16)} ${pct(scored.accuracy).padStart(9)}  ${`${scored.correct}/${scored.total}`.padStart(7)}` +
      '  (amount, currency, dates, reference, sender)',
  );
  return out;
}

const SHORT: Record<Field, string> = {
  event_type: 'type',
  sender_name: 'sender',
  reference_number: 'ref',
  amount: 'amount',
  currency: 'curr',
  document_date: 'date',
  due_date: 'due',
  category: 'categ',
  contract_start: 'start',
  contract_end: 'end',
  notice_period: 'notice',
};

export interface SetSummary {
  title: string;
  development: boolean;
  documents: number;
  checks: Check[][];
}

/** One row per set: accuracy per field ("—" where the set has no labels for it) and the scored fields overall. */
export function summaryTable(sets: readonly SetSummary[]): string[] {
  const width = Math.max(...sets.map((s) => s.title.length), 12) + 2;
  const header = `  ${'set'.padEnd(width)} ${'docs'.padStart(5)}  ${FIELDS.map((f) => SHORT[f].padStart(7)).join('')}  ${'scored'.padStart(7)}`;
  const out = [header];
  for (const s of sets) {
    const cells = FIELDS.map((f) => {
      const st = fieldStats(s.checks, f);
      return (st ? `${(st.accuracy * 100).toFixed(1)}%` : '—').padStart(7);
    }).join('');
    const scored = scoredAccuracy(s.checks);
    out.push(
      `  ${`${s.title}${s.development ? ' †' : ''}`.padEnd(width)} ${String(s.documents).padStart(5)}  ${cells}  ` +
        `${`${(scored.accuracy * 100).toFixed(1)}%`.padStart(7)}`,
    );
  }
  out.push('  † development set: used while tuning the rules (its figures flatter them). The others never were.');
  out.push('  scored: amount, currency, document date, due date, reference, sender, where the set labels them.');
  return out;
}
