/** The accuracy targets the evaluation checks, and the value each reached. */
import { calibration } from './calibration.ts';
import type { SetResult } from './evaluate.ts';
import type { Field } from './fields.ts';
import { fieldStats, scoredAccuracy } from './report.ts';
import { einvoiceStats } from './set-report.ts';
import type { SetId } from './set-defs.ts';

export interface Target {
  name: string;
  set: SetId;
  field: Field | 'einvoice' | 'scored' | 'calibration';
  min: number;
}
export const TARGETS: Target[] = [
  { name: 'event type', set: 'generated', field: 'event_type', min: 0.95 },
  { name: 'amount', set: 'generated', field: 'amount', min: 0.95 },
  { name: 'currency', set: 'generated', field: 'currency', min: 0.95 },
  { name: 'due date', set: 'generated', field: 'due_date', min: 0.9 },
  { name: 'document date', set: 'generated', field: 'document_date', min: 0.95 },
  { name: 'reference', set: 'generated', field: 'reference_number', min: 0.9 },
  { name: 'sender', set: 'generated', field: 'sender_name', min: 0.85 },
  { name: 'e-invoice fields', set: 'generated', field: 'einvoice', min: 1 },
  { name: 'receipts, fields', set: 'receipts', field: 'scored', min: 0.8 },
  // Confidence means something: on each development set, fields at confidence ≥ 0.8 are right ≥ 95 % of the time.
  { name: 'right at confidence ≥ 0.8', set: 'generated', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'receipts', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'facturx-text', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'facturx-xml', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'vendor-texts', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'paperwork-texts', field: 'calibration', min: 0.95 },
  { name: 'right at confidence ≥ 0.8', set: 'rendered', field: 'calibration', min: 0.95 },
];

export function targetValue(t: Target, sets: SetResult[]): number | null {
  const set = sets.find((s) => s.def.id === t.set);
  if (!set || !set.results.length) return null;
  if (t.field === 'einvoice') {
    const e = einvoiceStats(set.results);
    return e.documents ? e.accuracy : null;
  }
  if (t.field === 'calibration') {
    const { sure } = calibration(set.results.map((r) => r.checks));
    return sure.all ? sure.accuracy : null;
  }
  if (t.field === 'scored') return scoredAccuracy(set.results.map((r) => r.checks)).accuracy;
  return (
    fieldStats(
      set.results.map((r) => r.checks),
      t.field,
    )?.accuracy ?? null
  );
}
