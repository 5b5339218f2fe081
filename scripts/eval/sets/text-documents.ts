/**
 * A folder of invented documents as a PDF text layer gives them: NNN-lang-kind.txt, each with its truth in
 * NNN-lang-kind.json. Read by the understanding step alone: such a set measures extraction, not PDF or OCR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Expected, Field } from '../fields.ts';
import type { EvalDoc } from './types.ts';

/** A truth file: the fields as a person reads them; a text set has no space and so no category. */
export type TextTruth = Omit<Expected, 'category'>;

/** Every document of `dir`, judged on the fields `judged` gives for its truth. */
export function loadTextDocuments(dir: string, judged: (truth: TextTruth) => readonly Field[]): EvalDoc[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const name = file.replace(/\.txt$/, '');
      const truth = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as TextTruth;
      return {
        name,
        file,
        filePath: join(dir, file),
        kind: truth.event_type,
        fields: judged(truth),
        truth: null,
        einvoice: false,
        expected: { ...truth, category: null },
      };
    });
}
