import { BUILTIN_DATE_FORMATS, excelSerialToIso, isDateFormat } from './excel-dates.ts';
import { MAX_OFFICE_CHARS, type Extracted } from './extracted.ts';
import { attributes, localName, Skipper, xmlEvents } from './xml-events.ts';
import { referencedRelationship, relationships, withZip, type Relationship, type ZipParts } from './zip-parts.ts';

/**
 * XLSX: each sheet's rows as tab-separated lines (under the sheet's name when there are several), dates shown as
 * ISO dates; cut after MAX_OFFICE_CHARS.
 */
export function xlsxText(path: string): Promise<Extracted> {
  return withZip(path, async (parts) => {
    const workbook = await parts.required('xl/workbook.xml');
    const rels = await relationships(parts, 'xl/workbook.xml');
    const sheets: Array<{ name: string; part: string }> = [];
    let date1904 = false;
    for (const event of xmlEvents(workbook)) {
      if (event.kind !== 'open') continue;
      const name = localName(event.name);
      const attrs = attributes(event.raw);
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attrs.get('date1904') ?? '');
      if (name !== 'sheet') continue;
      const rel = referencedRelationship(rels, attrs);
      if (rel && parts.has(rel.target)) sheets.push({ name: attrs.get('name') ?? '', part: rel.target });
    }

    const cells: CellContext = {
      sharedStrings: await sharedStrings(parts, rels),
      dateStyles: await dateStyles(parts),
      date1904,
    };
    const out: string[] = [];
    let truncated = false;
    let length = 0;
    for (const sheet of sheets) {
      const xml = await parts.text(sheet.part);
      if (xml === null) continue;
      const lines: string[] = [];
      for (const line of sheetLines(xml, cells)) {
        lines.push(line);
        length += line.length + 1;
        if (length > MAX_OFFICE_CHARS) {
          truncated = true;
          break;
        }
      }
      if (lines.length > 0) out.push((sheets.length > 1 ? `${sheet.name}\n` : '') + lines.join('\n'));
      if (truncated) break;
    }
    return { text: out.join('\n\n'), pageCount: null, truncated };
  });
}

/** What a cell's text depends on beyond the cell itself. */
interface CellContext {
  sharedStrings: readonly string[];
  dateStyles: ReadonlySet<number>;
  date1904: boolean;
}

interface Cell {
  column: number;
  type: string;
  style: number;
  value: string;
  inline: string;
}

/** The non-empty rows of a worksheet part, each as one tab-separated line. */
function* sheetLines(xml: string, context: CellContext): Generator<string> {
  let cells: Array<[number, string]> = [];
  let cell: Cell | null = null;
  let capture: 'v' | 't' | null = null;
  let lastColumn = -1;
  for (const event of xmlEvents(xml)) {
    if (event.kind === 'text') {
      if (cell && capture === 'v') cell.value += event.text;
      else if (cell && capture === 't') cell.inline += event.text;
      continue;
    }
    const name = localName(event.name);
    if (event.kind === 'open') {
      if (name === 'row') {
        cells = [];
        lastColumn = -1;
      } else if (name === 'c') {
        const attrs = attributes(event.raw);
        const ref = attrs.get('r');
        const column = ref ? columnIndex(ref) : lastColumn + 1;
        lastColumn = column;
        cell = { column, type: attrs.get('t') ?? 'n', style: Number(attrs.get('s') ?? 0), value: '', inline: '' };
        if (event.selfClosing) cell = null;
      } else if (name === 'v') capture = event.selfClosing ? null : 'v';
      else if (name === 't') capture = event.selfClosing ? null : 't';
      else if (name === 'rPh') capture = null;
    } else {
      if (name === 'v' || name === 't') capture = null;
      else if (name === 'c' && cell) {
        cells.push([cell.column, cellText(cell, context)]);
        cell = null;
      } else if (name === 'row') {
        const line = rowLine(cells);
        if (line) yield line;
        cells = [];
      }
    }
  }
}

function cellText(cell: Cell, { sharedStrings, dateStyles, date1904 }: CellContext): string {
  switch (cell.type) {
    case 's':
      return sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'str':
    case 'e':
    case 'd':
      return cell.value;
    case 'b':
      return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    default: {
      if (cell.value && dateStyles.has(cell.style)) return excelSerialToIso(Number(cell.value), date1904) ?? cell.value;
      return cell.value;
    }
  }
}

function columnIndex(ref: string): number {
  let index = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}

/** Cells of a row (sparse, by column) as one tab-separated line; long empty stretches collapse to one tab. */
function rowLine(cells: Array<[number, string]>): string {
  cells.sort((a, b) => a[0] - b[0]);
  let line = '';
  let column = 0;
  for (const [index, value] of cells) {
    if (!value) continue;
    if (line) line += '\t'.repeat(Math.min(Math.max(1, index - column), 20));
    line += value.replace(/[\t\r\n]+/g, ' ');
    column = index;
  }
  return line;
}

/** The shared string table (phonetic runs left out); empty when the workbook has none. */
async function sharedStrings(parts: ZipParts, rels: ReadonlyMap<string, Relationship>): Promise<string[]> {
  const strings: string[] = [];
  const sst =
    (await parts.text('xl/sharedStrings.xml')) ??
    (await parts.text([...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target ?? ''));
  if (!sst) return strings;
  const skipper = new Skipper(['rPh', 'x:rPh']);
  let current: string | null = null;
  let inText = false;
  for (const event of xmlEvents(sst)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'open') {
      const name = localName(event.name);
      if (name === 'si') current = event.selfClosing ? (strings.push(''), null) : '';
      else if (name === 't') inText = !event.selfClosing;
    } else if (event.kind === 'close') {
      const name = localName(event.name);
      if (name === 't') inText = false;
      else if (name === 'si' && current !== null) {
        strings.push(current);
        current = null;
      }
    } else if (inText && current !== null) {
      current += event.text;
    }
  }
  return strings;
}

/** Indexes of cell styles (cellXfs) that display a date. */
async function dateStyles(parts: ZipParts): Promise<Set<number>> {
  const xml = await parts.text('xl/styles.xml');
  const dates = new Set<number>();
  if (!xml) return dates;
  const customDate = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  for (const event of xmlEvents(xml)) {
    if (event.kind === 'text') continue;
    const name = localName(event.name);
    if (event.kind === 'close') {
      if (name === 'cellXfs') inCellXfs = false;
      continue;
    }
    const attrs = attributes(event.raw);
    if (name === 'numFmt' && isDateFormat(attrs.get('formatCode') ?? '')) customDate.add(Number(attrs.get('numFmtId')));
    else if (name === 'cellXfs') inCellXfs = !event.selfClosing;
    else if (name === 'xf' && inCellXfs) {
      const id = Number(attrs.get('numFmtId') ?? 0);
      if (BUILTIN_DATE_FORMATS.has(id) || customDate.has(id)) dates.add(index);
      index++;
    }
  }
  return dates;
}
