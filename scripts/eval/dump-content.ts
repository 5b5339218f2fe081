/** Prints what analyze() extracts from one corpus file next to the truth text (development aid). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import { analyze } from '../../server/pipeline/analyze.ts';
import { CATEGORIES } from '../corpus/parties.ts';
import { normaliseText } from './metrics.ts';

const dir = resolve(import.meta.dirname, '../../test/fixtures/corpus');
for (const name of process.argv.slice(2)) {
  const truth = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as { file: string; text: string };
  const path = join(dir, truth.file);
  const format = (await detectFormat(path))!.format;
  const a = await analyze({
    documentId: '00000000-0000-4000-8000-000000000000',
    filePath: path,
    format,
    originalFilename: truth.file,
    categories: [...CATEGORIES],
    today: '2026-11-21',
  });
  console.log(
    `=== ${name} truth\n${normaliseText(truth.text)}\n=== ${name} extracted\n${normaliseText(a.content)}\n=== fields ${JSON.stringify(a.fields)}`,
  );
}
process.exit(0);
