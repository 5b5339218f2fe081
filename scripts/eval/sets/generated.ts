/** A generated corpus (npm run corpus): every file with its `<name>.json` truth, judged on every field. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Truth } from '../../corpus/model.ts';
import { FIELDS, TERM_FIELDS } from '../fields.ts';
import type { EvalDoc } from './types.ts';

export function loadGenerated(dir: string): EvalDoc[] {
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
        fields: FIELDS.filter((field) => !TERM_FIELDS.includes(field)),
        truth,
        einvoice: truth.einvoice,
        expected: truth,
      };
    });
}
