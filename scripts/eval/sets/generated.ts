/**
 * A generated corpus (npm run corpus): every file with its `<name>.json` truth, judged on every field but a contract's
 * term (or on `fields`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Truth } from '../../corpus/model.ts';
import { FIELDS, TERM_FIELDS, type Field } from '../fields.ts';
import type { EvalDoc } from './types.ts';

export function loadGenerated(
  dir: string,
  fields: readonly Field[] = FIELDS.filter((field) => !TERM_FIELDS.includes(field)),
): EvalDoc[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const truth = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Truth;
      return {
        name: f.replace(/\.json$/, ''),
        file: truth.file,
        filePath: join(dir, truth.file),
        kind: truth.event_type,
        fields: [...fields],
        truth,
        einvoice: truth.einvoice,
        expected: truth,
      };
    });
}
