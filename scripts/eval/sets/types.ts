import type { Truth } from '../../corpus/model.ts';
import type { Expected, Field } from '../fields.ts';

/** One document of an evaluation set. */
export interface EvalDoc {
  /** Unique within its set, e.g. doc-07 or 042. */
  name: string;
  file: string;
  filePath: string;
  /** What the document is, for the progress line (its event type). */
  kind: string;
  expected: Expected;
  /** The fields the set has labels for. */
  fields: readonly Field[];
  /** The generated corpus' full truth (text for the error rate, format family); null for outside sets. */
  truth: Truth | null;
  /** Whether its fields come from embedded e-invoice XML. */
  einvoice: boolean;
}
