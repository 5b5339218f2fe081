import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import { MAX_OFFICE_CHARS, type Extracted } from './extracted.ts';

/** XLS (SheetJS): each sheet's rows as tab-separated lines, under the sheet's name when there are several. */
export async function xlsText(path: string): Promise<Extracted> {
  const workbook = XLSX.read(await readFile(path), {
    type: 'buffer',
    cellDates: true,
    cellHTML: false,
    cellFormula: false,
    bookVBA: false,
    sheetRows: 0,
  });
  const out: string[] = [];
  let length = 0;
  let truncated = false;
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet) continue;
    const rows = XLSX.utils
      .sheet_to_csv(sheet, { FS: '\t', RS: '\n', blankrows: false, strip: true, dateNF: 'yyyy-mm-dd' })
      .split('\n')
      .map((line) => line.replace(/\t+$/, ''))
      .filter(Boolean);
    const text = rows.join('\n');
    if (!text) continue;
    out.push(workbook.SheetNames.length > 1 ? `${name}\n${text}` : text);
    length += text.length;
    if (length > MAX_OFFICE_CHARS) {
      truncated = true;
      break;
    }
  }
  return { text: out.join('\n\n'), pageCount: null, truncated };
}
