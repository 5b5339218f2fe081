/**
 * Whether a field's confidence means something: of the scored fields that have a value, how many are right in each
 * confidence band. The issue's target is that fields at confidence 0.8 or more are right at least 95 % of the time.
 */
import type { Check } from './fields.ts';
import { pct, ratio, SCORED_FIELDS } from './report.ts';

/** Lower bounds, highest first; a value falls in the first band whose bound it reaches. */
const BANDS = [0.95, 0.9, 0.8, 0.6, 0.4, 0] as const;
export const SURE = 0.8;

export interface Calibration {
  bands: { from: number; right: number; all: number }[];
  /** Fields at confidence ≥ SURE: how many there are and the share of them that is right. */
  sure: { right: number; all: number; accuracy: number };
}

export function calibration(checksPerDoc: readonly Check[][]): Calibration {
  const rated = checksPerDoc
    .flat()
    .filter((c) => SCORED_FIELDS.includes(c.field) && c.gotPresent && c.confidence !== null);
  const bands = BANDS.map((from) => ({ from, right: 0, all: 0 }));
  for (const c of rated) {
    const band = bands.find((b) => c.confidence! >= b.from) ?? bands[bands.length - 1]!;
    band.all += 1;
    if (c.correct) band.right += 1;
  }
  const sure = rated.filter((c) => c.confidence! >= SURE);
  const right = sure.filter((c) => c.correct).length;
  return { bands, sure: { right, all: sure.length, accuracy: ratio(right, sure.length) } };
}

export function calibrationLines(checksPerDoc: readonly Check[][]): string[] {
  const { bands, sure } = calibration(checksPerDoc);
  if (!bands.some((b) => b.all)) return [];
  const label = (i: number): string => (i === 0 ? `≥ ${BANDS[0]}` : `${BANDS[i]}-${BANDS[i - 1]}`.replace(/^0-/, '< '));
  return [
    '  calibration: scored fields with a value, right/all per confidence band',
    `    ${bands.map((_, i) => label(i).padStart(10)).join('')}   right at ≥ ${SURE}`,
    `    ${bands.map((b) => `${b.right}/${b.all}`.padStart(10)).join('')}   ${pct(sure.accuracy)} of ${sure.all}`,
  ];
}
