import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';
import WordExtractor from 'word-extractor';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import type { FileFormat } from '../../../common/archive-types.ts';
import type { Analysis, AnalysisStep } from '../analysis.ts';

/**
 * Text of Office documents. The zip-based ones (DOCX, XLSX, PPTX, ODT, ODS, ODP) are read straight from their XML
 * with yauzl: paragraphs and line breaks become lines, table cells are separated by tabs and rows by lines, slides
 * and sheets by blank lines (sheets under their name when there are several). The legacy binary ones: DOC with
 * word-extractor, XLS with SheetJS, PPT from the text atoms of its "PowerPoint Document" stream (no maintained
 * library reads PPT). A file that cannot be read ends with a note saying so, never with an exception.
 */

const OFFICE_FORMATS: ReadonlySet<FileFormat> = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt']);
/** The text kept from one document; a bigger spreadsheet is cut there (with a note). */
export const MAX_OFFICE_CHARS = 5_000_000;
/** Bounds on decompression (zip bombs): per XML part and in total. */
const MAX_PART_BYTES = 200 * 1024 * 1024;
const MAX_TOTAL_BYTES = 400 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 20_000;

interface Extracted { text: string; pageCount: number | null; truncated?: boolean }

export const officeTextStep: AnalysisStep = {
  name: 'office-text',
  async run(input, analysis) {
    if (!OFFICE_FORMATS.has(input.format)) return;
    let result: Extracted;
    try {
      result = await extractOffice(input.format, input.filePath);
    } catch (error) {
      analysis.notes.push(`The ${input.format.toUpperCase()} file could not be read (${reason(error)}); no text was extracted.`);
      return;
    }
    applyExtracted(analysis, input.format, result);
  },
};

function applyExtracted(analysis: Analysis, format: FileFormat, result: Extracted): void {
  let text = tidy(result.text);
  if (text.length > MAX_OFFICE_CHARS) {
    text = text.slice(0, MAX_OFFICE_CHARS);
    result.truncated = true;
  }
  analysis.content = text;
  analysis.pageCount = result.pageCount;
  if (result.truncated) analysis.notes.push(`The ${format.toUpperCase()} file is very large; only its first ${MAX_OFFICE_CHARS.toLocaleString('en')} characters of text were kept.`);
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

export async function extractOffice(format: FileFormat, path: string): Promise<Extracted> {
  switch (format) {
    case 'docx': return withZip(path, docxText);
    case 'xlsx': return withZip(path, xlsxText);
    case 'pptx': return withZip(path, pptxText);
    case 'odt': case 'ods': case 'odp': return withZip(path, odfText);
    case 'doc': return docText(path);
    case 'xls': return xlsText(path);
    case 'ppt': return pptText(path);
    default: throw new Error(`${format} is not an Office format`);
  }
}

/** Lines without trailing blanks, at most one blank line in a row. */
function tidy(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t\u00a0]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

// ---------------------------------------------------------------------------------------------------------------
// Zip parts.

class ZipParts {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private readonly zip: ZipFile;

  private constructor(zip: ZipFile) {
    this.zip = zip;
  }

  static async open(path: string): Promise<ZipParts> {
    const zip = await openPromise(path, { lazyEntries: true, autoClose: false });
    zip.on('error', () => {});
    const parts = new ZipParts(zip);
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        // OPC part names are case-insensitive.
        parts.entries.set(entry.fileName.toLowerCase(), entry);
        if (parts.entries.size > MAX_ZIP_ENTRIES) reject(new Error('too many zip entries'));
        else zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', reject);
      zip.readEntry();
    }).catch((error: unknown) => {
      zip.close();
      throw error;
    });
    return parts;
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  names(): string[] {
    return [...this.entries.values()].map((e) => e.fileName);
  }

  /** A part as UTF-8 text; null when absent. */
  async text(name: string): Promise<string | null> {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return null;
    if (entry.isEncrypted()) throw new Error('the document is encrypted');
    if (entry.uncompressedSize > MAX_PART_BYTES || this.total + entry.uncompressedSize > MAX_TOTAL_BYTES) {
      throw new Error('a part of the document is too large');
    }
    this.total += entry.uncompressedSize;
    // yauzl checks the real size against the declared one, so the caps above hold.
    const stream = await this.zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

async function withZip(path: string, read: (parts: ZipParts) => Promise<Extracted>): Promise<Extracted> {
  const parts = await ZipParts.open(path);
  try {
    return await read(parts);
  } finally {
    parts.close();
  }
}

async function requiredPart(parts: ZipParts, name: string): Promise<string> {
  const text = await parts.text(name);
  if (text === null) throw new Error(`${name} is missing`);
  return text;
}

/** Relationship id → part name, from a .rels part (targets resolved against the source part's folder). */
async function relationships(parts: ZipParts, sourcePart: string): Promise<Map<string, { target: string; type: string }>> {
  const folder = sourcePart.includes('/') ? sourcePart.slice(0, sourcePart.lastIndexOf('/') + 1) : '';
  const relsName = `${folder}_rels/${sourcePart.slice(folder.length)}.rels`;
  const xml = await parts.text(relsName);
  const map = new Map<string, { target: string; type: string }>();
  if (xml === null) return map;
  for (const event of xmlEvents(xml)) {
    if (event.kind !== 'open' || localName(event.name) !== 'Relationship') continue;
    const attrs = attributes(event.raw);
    const id = attrs.get('Id');
    const target = attrs.get('Target');
    if (!id || !target || attrs.get('TargetMode') === 'External') continue;
    map.set(id, { target: resolvePartName(folder, target), type: attrs.get('Type') ?? '' });
  }
  return map;
}

function resolvePartName(folder: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}

// ---------------------------------------------------------------------------------------------------------------
// A small XML tokenizer: enough for the well-formed XML Office writes (elements, attributes, text, CDATA).

type XmlEvent =
  | { kind: 'open'; name: string; raw: string; selfClosing: boolean }
  | { kind: 'close'; name: string }
  | { kind: 'text'; text: string };

const TOKEN = /<(\/?)([A-Za-z_][\w:.-]*)([^>]*?)(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>/g;

function* xmlEvents(xml: string): Generator<XmlEvent> {
  TOKEN.lastIndex = 0;
  let at = 0;
  for (let match = TOKEN.exec(xml); match !== null; match = TOKEN.exec(xml)) {
    if (match.index > at) yield { kind: 'text', text: decodeEntities(xml.slice(at, match.index)) };
    at = TOKEN.lastIndex;
    const [, slash, name, raw, selfClose, cdata] = match;
    if (cdata !== undefined) yield { kind: 'text', text: cdata };
    else if (name === undefined) continue;
    else if (slash) yield { kind: 'close', name };
    else yield { kind: 'open', name, raw: raw ?? '', selfClosing: selfClose === '/' };
  }
  if (at < xml.length) yield { kind: 'text', text: decodeEntities(xml.slice(at)) };
}

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body] ?? whole;
  });
}

function attributes(raw: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const match of raw.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    map.set(match[1]!, decodeEntities(match[2] ?? match[3] ?? ''));
  }
  return map;
}

const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * Collects text while walking XML. Tables are tracked so that inside a cell paragraphs and breaks become spaces
 * (the cell stays one tab-separated field), cells end with a tab and rows with a line break.
 */
class TextBuilder {
  private out = '';
  private cellDepth = 0;

  get inCell(): boolean {
    return this.cellDepth > 0;
  }

  text(value: string): void {
    this.out += value;
  }

  paragraphEnd(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\n';
  }

  lineBreak(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\n';
  }

  tab(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\t';
  }

  cellStart(): void {
    this.cellDepth++;
  }

  cellEnd(): void {
    this.cellDepth = Math.max(0, this.cellDepth - 1);
    this.out = this.out.replace(/[ \t]+$/, '');
    this.out += this.cellDepth > 0 ? ' ' : '\t';
  }

  rowEnd(): void {
    if (this.cellDepth > 0) return;
    this.out = this.out.replace(/\t+$/, '');
    this.out += '\n';
  }

  blankLine(): void {
    this.out = this.out.replace(/\n*$/, '\n\n');
  }

  get length(): number {
    return this.out.length;
  }

  toString(): string {
    return this.out;
  }
}

/** Skips whole subtrees: returns true while inside one (call for every event, in order). */
class Skipper {
  private depth = 0;
  private readonly names: ReadonlySet<string>;

  constructor(names: readonly string[]) {
    this.names = new Set(names);
  }

  skip(event: XmlEvent): boolean {
    if (this.depth > 0) {
      if (event.kind === 'open' && !event.selfClosing) this.depth++;
      else if (event.kind === 'close') this.depth--;
      return true;
    }
    if (event.kind === 'open' && this.names.has(event.name)) {
      if (!event.selfClosing) this.depth = 1;
      return true;
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// DOCX.

/** WordprocessingML part → text. Deleted text, field codes and the VML duplicates of text boxes are left out. */
function wordprocessingText(xml: string): string {
  const out = new TextBuilder();
  const skipper = new Skipper(['w:instrText', 'w:delText', 'mc:Fallback', 'w:fldData', 'w:rPr', 'w:pPr', 'w:sectPr']);
  let inText = false;
  for (const event of xmlEvents(xml)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'text') {
      if (inText) out.text(event.text);
      continue;
    }
    const name = event.name;
    if (event.kind === 'open') {
      if (name === 'w:t') inText = !event.selfClosing;
      else if (name === 'w:tab' || name === 'w:ptab') out.tab();
      else if (name === 'w:br' || name === 'w:cr') out.lineBreak();
      else if (name === 'w:noBreakHyphen') out.text('-');
      else if (name === 'w:tc') out.cellStart();
      else if (name === 'w:p' && event.selfClosing) out.paragraphEnd();
    } else {
      if (name === 'w:t') inText = false;
      else if (name === 'w:p') out.paragraphEnd();
      else if (name === 'w:tc') out.cellEnd();
      else if (name === 'w:tr') out.rowEnd();
    }
  }
  return out.toString();
}

async function docxText(parts: ZipParts): Promise<Extracted> {
  const rels = await relationships(parts, 'word/document.xml');
  const body = wordprocessingText(await requiredPart(parts, 'word/document.xml'));
  const ofType = (type: string): string[] =>
    [...rels.values()].filter((r) => r.type.endsWith(`/${type}`)).map((r) => r.target).sort(naturalCompare);
  const partsText = async (names: string[]): Promise<string[]> => {
    const texts: string[] = [];
    for (const name of names) {
      const xml = await parts.text(name);
      const text = xml === null ? '' : tidy(wordprocessingText(xml));
      if (text && !texts.includes(text)) texts.push(text);
    }
    return texts;
  };
  const headers = await partsText(ofType('header'));
  const notes = await partsText([...ofType('footnotes'), ...ofType('endnotes')]);
  const footers = await partsText(ofType('footer'));
  return { text: [...headers, body, ...notes, ...footers].join('\n\n'), pageCount: await appPages(parts) };
}

/** Page count as the producing application last saw it (docProps/app.xml), if it wrote one. */
async function appPages(parts: ZipParts): Promise<number | null> {
  const xml = await parts.text('docProps/app.xml');
  const pages = xml ? /<(?:\w+:)?Pages>(\d+)</.exec(xml)?.[1] : undefined;
  const n = pages === undefined ? NaN : Number(pages);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

// ---------------------------------------------------------------------------------------------------------------
// XLSX.

/** Built-in number formats that show dates (ECMA-376 18.8.30, plus the CJK date ids). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47,
  50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a custom format code shows a date or time (d, m, y, h, s outside quotes, brackets and escapes). */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** An Excel serial day number as ISO date (and time, when it has one). */
export function excelSerialToIso(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return null;
  // 1900 system: day 1 is 1900-01-01 and Excel counts a 29 Feb 1900 that never was (serial 60).
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  const ms = Math.round((days - 25569) * 86_400_000);
  const iso = new Date(ms).toISOString();
  const time = iso.slice(11, 16);
  return time === '00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
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

async function xlsxText(parts: ZipParts): Promise<Extracted> {
  const workbook = await requiredPart(parts, 'xl/workbook.xml');
  const rels = await relationships(parts, 'xl/workbook.xml');
  const sheets: Array<{ name: string; part: string }> = [];
  let date1904 = false;
  for (const event of xmlEvents(workbook)) {
    if (event.kind !== 'open') continue;
    const name = localName(event.name);
    const attrs = attributes(event.raw);
    if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attrs.get('date1904') ?? '');
    if (name !== 'sheet') continue;
    const rel = rels.get(attrs.get('r:id') ?? [...attrs.entries()].find(([k]) => k.endsWith(':id'))?.[1] ?? '');
    if (rel && parts.has(rel.target)) sheets.push({ name: attrs.get('name') ?? '', part: rel.target });
  }

  const sharedStrings: string[] = [];
  const sst = await parts.text('xl/sharedStrings.xml')
    ?? await parts.text([...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target ?? '');
  if (sst) {
    const skipper = new Skipper(['rPh', 'x:rPh']);
    let current: string | null = null;
    let inText = false;
    for (const event of xmlEvents(sst)) {
      if (skipper.skip(event)) continue;
      if (event.kind === 'open') {
        const name = localName(event.name);
        if (name === 'si') current = event.selfClosing ? (sharedStrings.push(''), null) : '';
        else if (name === 't') inText = !event.selfClosing;
      } else if (event.kind === 'close') {
        const name = localName(event.name);
        if (name === 't') inText = false;
        else if (name === 'si' && current !== null) {
          sharedStrings.push(current);
          current = null;
        }
      } else if (inText && current !== null) {
        current += event.text;
      }
    }
  }

  const dateStyles = await xlsxDateStyles(parts);
  const out: string[] = [];
  let truncated = false;
  let length = 0;
  for (const sheet of sheets) {
    const xml = await parts.text(sheet.part);
    if (xml === null) continue;
    const lines: string[] = [];
    let cells: Array<[number, string]> = [];
    let cell: { column: number; type: string; style: number; value: string; inline: string } | null = null;
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
          if (event.selfClosing) continue;
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
          cells.push([cell.column, xlsxCellText(cell, sharedStrings, dateStyles, date1904)]);
          cell = null;
        } else if (name === 'row') {
          const line = rowLine(cells);
          if (line) {
            lines.push(line);
            length += line.length + 1;
          }
          cells = [];
          if (length > MAX_OFFICE_CHARS) {
            truncated = true;
            break;
          }
        }
      }
    }
    if (lines.length > 0) out.push((sheets.length > 1 ? `${sheet.name}\n` : '') + lines.join('\n'));
    if (truncated) break;
  }
  return { text: out.join('\n\n'), pageCount: null, truncated };
}

function xlsxCellText(cell: { type: string; style: number; value: string; inline: string },
  sharedStrings: readonly string[], dateStyles: ReadonlySet<number>, date1904: boolean): string {
  switch (cell.type) {
    case 's': return sharedStrings[Number(cell.value)] ?? '';
    case 'inlineStr': return cell.inline;
    case 'str': case 'e': case 'd': return cell.value;
    case 'b': return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    default: {
      if (cell.value && dateStyles.has(cell.style)) return excelSerialToIso(Number(cell.value), date1904) ?? cell.value;
      return cell.value;
    }
  }
}

/** Indexes of cell styles (cellXfs) that display a date. */
async function xlsxDateStyles(parts: ZipParts): Promise<Set<number>> {
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

// ---------------------------------------------------------------------------------------------------------------
// PPTX.

/** DrawingML text of a slide: shapes in document order, tables as tab-separated rows. */
function drawingText(xml: string): string {
  const out = new TextBuilder();
  const skipper = new Skipper(['mc:Fallback']);
  let inText = false;
  for (const event of xmlEvents(xml)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'text') {
      if (inText) out.text(event.text);
      continue;
    }
    const name = event.name;
    if (event.kind === 'open') {
      if (name === 'a:t') inText = !event.selfClosing;
      else if (name === 'a:br') out.lineBreak();
      else if (name === 'a:tc') out.cellStart();
      else if (name === 'a:p' && event.selfClosing) out.paragraphEnd();
    } else {
      if (name === 'a:t') inText = false;
      else if (name === 'a:p') out.paragraphEnd();
      else if (name === 'a:tc') out.cellEnd();
      else if (name === 'a:tr') out.rowEnd();
      else if (name === 'p:sp' || name === 'p:graphicFrame') out.blankLine();
    }
  }
  return out.toString();
}

async function pptxText(parts: ZipParts): Promise<Extracted> {
  const presentation = await requiredPart(parts, 'ppt/presentation.xml');
  const rels = await relationships(parts, 'ppt/presentation.xml');
  const slides: string[] = [];
  for (const event of xmlEvents(presentation)) {
    if (event.kind !== 'open' || localName(event.name) !== 'sldId') continue;
    const attrs = attributes(event.raw);
    const rel = rels.get(attrs.get('r:id') ?? [...attrs.entries()].find(([k]) => k.endsWith(':id'))?.[1] ?? '');
    if (rel) slides.push(rel.target);
  }
  const texts: string[] = [];
  for (const slide of slides) {
    const xml = await parts.text(slide);
    if (xml !== null) texts.push(tidy(drawingText(xml)));
  }
  return { text: texts.filter(Boolean).join('\n\n'), pageCount: slides.length };
}

// ---------------------------------------------------------------------------------------------------------------
// ODF (ODT, ODS, ODP).

/** Elements whose content is not document text: annotations, tracked deletions, declarations, titles of shapes. */
const ODF_SKIPPED = ['office:annotation', 'office:annotation-end', 'text:tracked-changes', 'text:note-citation', 'svg:title',
  'svg:desc', 'presentation:notes', 'text:sequence-decls', 'text:variable-decls', 'table:table-source',
  'office:forms', 'text:bibliography-source', 'text:table-of-content-source', 'text:index-title-template', 'draw:object'];

/** Caps repeats of empty cells (spreadsheets repeat the last empty column up to column XFD). */
const MAX_REPEATED_CELLS = 50;

function odfBodyText(xml: string, counters: { pages: number; sheets: string[] }): string {
  const out = new TextBuilder();
  const skipper = new Skipper(ODF_SKIPPED);
  let paragraphDepth = 0;
  let cellRepeat = 1;
  let cellStartLength = 0;
  for (const event of xmlEvents(xml)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'text') {
      // ODF collapses white space in paragraphs; spaces that count are written as <text:s/>.
      if (paragraphDepth > 0) out.text(event.text.replace(/\s+/g, ' '));
      continue;
    }
    const name = event.name;
    if (event.kind === 'open') {
      const attrs = event.raw ? attributes(event.raw) : new Map<string, string>();
      if (name === 'text:p' || name === 'text:h') {
        if (event.selfClosing) out.paragraphEnd();
        else paragraphDepth++;
      } else if (name === 'text:s') out.text(' '.repeat(Math.min(100, Math.max(1, Number(attrs.get('text:c') ?? 1)))));
      else if (name === 'text:tab') out.tab();
      else if (name === 'text:line-break') out.lineBreak();
      else if (name === 'table:table-cell' || name === 'table:covered-table-cell') {
        cellRepeat = Math.max(1, Math.min(MAX_REPEATED_CELLS, Number(attrs.get('table:number-columns-repeated') ?? 1)));
        out.cellStart();
        cellStartLength = out.length;
        if (event.selfClosing) endCell(out, cellRepeat, true);
      } else if (name === 'table:table') {
        counters.sheets.push(attrs.get('table:name') ?? '');
        out.blankLine();
      } else if (name === 'draw:page') counters.pages++;
    } else {
      if (name === 'text:p' || name === 'text:h') {
        paragraphDepth = Math.max(0, paragraphDepth - 1);
        out.paragraphEnd();
      } else if (name === 'table:table-cell' || name === 'table:covered-table-cell') {
        endCell(out, cellRepeat, out.length === cellStartLength);
      } else if (name === 'table:table-row') out.rowEnd();
      else if (name === 'table:table' || name === 'draw:page' || name === 'draw:frame') out.blankLine();
    }
  }
  return out.toString();
}

function endCell(out: TextBuilder, repeat: number, empty: boolean): void {
  out.cellEnd();
  // A repeated cell with content shows that content in each column; a repeated empty one only adds columns.
  for (let i = 1; i < repeat && !empty; i++) out.text('\t');
  if (empty) for (let i = 1; i < repeat; i++) out.text('\t');
}

async function odfText(parts: ZipParts): Promise<Extracted> {
  const content = await requiredPart(parts, 'content.xml');
  const counters = { pages: 0, sheets: [] as string[] };
  const body = odfBodyText(content, counters);
  let text = body;
  const isSpreadsheet = /<office:spreadsheet[\s>]/.test(content);
  const isPresentation = /<office:presentation[\s>]/.test(content);
  if (isSpreadsheet && counters.sheets.length > 1) text = labelOdsSheets(content);
  if (!isSpreadsheet && !isPresentation) {
    // Letterheads often live in the page header and footer (styles.xml), e.g. a sender's address and bank details.
    const styles = await parts.text('styles.xml');
    if (styles) {
      const header = tidy(odfSection(styles, 'style:header'));
      const footer = tidy(odfSection(styles, 'style:footer'));
      text = [header, body, footer].filter(Boolean).join('\n\n');
    }
  }
  let pageCount: number | null = isPresentation ? counters.pages : null;
  if (!isSpreadsheet && !isPresentation) {
    const meta = await parts.text('meta.xml');
    const pages = meta ? Number(/meta:page-count="(\d+)"/.exec(meta)?.[1] ?? NaN) : NaN;
    pageCount = Number.isInteger(pages) && pages > 0 ? pages : null;
  }
  return { text, pageCount };
}

/** The text of every element `name` (e.g. the page headers in styles.xml), deduplicated. */
function odfSection(xml: string, name: string): string {
  const texts: string[] = [];
  const pattern = new RegExp(`<${name}[\\s>][\\s\\S]*?</${name}>`, 'g');
  for (const match of xml.matchAll(pattern)) {
    const text = tidy(odfBodyText(match[0], { pages: 0, sheets: [] }));
    if (text && !texts.includes(text)) texts.push(text);
  }
  return texts.join('\n');
}

/** Spreadsheets with several sheets: each sheet's text under its name. */
function labelOdsSheets(content: string): string {
  const out: string[] = [];
  for (const match of content.matchAll(/<table:table\s[^>]*>[\s\S]*?<\/table:table>/g)) {
    const name = decodeEntities(/table:name="([^"]*)"/.exec(match[0])?.[1] ?? '');
    const text = tidy(odfBodyText(match[0], { pages: 0, sheets: [] }));
    if (text) out.push(`${name}\n${text}`);
  }
  return out.join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// DOC (word-extractor).

async function docText(path: string): Promise<Extracted> {
  const document = await new WordExtractor().extract(await readFile(path));
  const parts = [
    document.getHeaders({ includeFooters: false }),
    document.getBody(),
    document.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }),
    document.getFootnotes(),
    document.getEndnotes(),
    document.getFooters(),
  ].map((part) => tidy(part));
  return { text: parts.filter(Boolean).join('\n\n'), pageCount: null };
}

// ---------------------------------------------------------------------------------------------------------------
// XLS (SheetJS).

async function xlsText(path: string): Promise<Extracted> {
  const workbook = XLSX.read(await readFile(path), {
    type: 'buffer', cellDates: true, cellHTML: false, cellFormula: false, bookVBA: false, sheetRows: 0,
  });
  const out: string[] = [];
  let length = 0;
  let truncated = false;
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet) continue;
    const rows = XLSX.utils.sheet_to_csv(sheet, { FS: '\t', RS: '\n', blankrows: false, strip: true, dateNF: 'yyyy-mm-dd' })
      .split('\n').map((line) => line.replace(/\t+$/, '')).filter(Boolean);
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

// ---------------------------------------------------------------------------------------------------------------
// PPT: text atoms of the "PowerPoint Document" stream (MS-PPT), read with SheetJS's compound file reader.

interface CfbEntry { name: string; content?: Uint8Array | number[] }
interface CfbContainer { FileIndex: CfbEntry[] }
interface CfbApi { read(data: Uint8Array, options: { type: 'buffer' }): CfbContainer }

const RT = {
  document: 0x03e8, slide: 0x03ee, notes: 0x03f0, slidePersist: 0x03f3, mainMaster: 0x03f8, handout: 0x0fc9,
  slideListWithText: 0x0ff0, textChars: 0x0fa0, textBytes: 0x0fa8, userEdit: 0x0ff5, persistDirectory: 0x1772,
} as const;
const MAX_RECORD_DEPTH = 32;

interface PptRecord { type: number; instance: number; isContainer: boolean; body: number; end: number }

class PptStream {
  readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u32(at: number): number {
    return at + 4 <= this.bytes.length ? this.view.getUint32(at, true) : 0;
  }

  record(at: number): PptRecord | null {
    if (at < 0 || at + 8 > this.bytes.length) return null;
    const verInstance = this.view.getUint16(at, true);
    const end = at + 8 + this.view.getUint32(at + 4, true);
    if (end > this.bytes.length) return null;
    return { type: this.view.getUint16(at + 2, true), instance: verInstance >> 4, isContainer: (verInstance & 0xf) === 0xf, body: at + 8, end };
  }

  *children(parent: PptRecord): Generator<PptRecord> {
    for (let at = parent.body; at < parent.end;) {
      const child = this.record(at);
      if (!child || child.end > parent.end) return;
      yield child;
      at = child.end;
    }
  }

  text(record: PptRecord): string | null {
    const body = this.bytes.subarray(record.body, record.end);
    let text: string;
    if (record.type === RT.textChars) text = new TextDecoder('utf-16le').decode(body);
    else if (record.type === RT.textBytes) text = new TextDecoder('latin1').decode(body);
    else return null;
    // \r ends a paragraph, \v is a line break inside one.
    return text.replace(/[\r\v]/g, '\n');
  }

  /** Text atoms under a record, in order, skipping masters, notes and handouts. */
  collect(record: PptRecord, into: string[], depth = 0): void {
    if (depth > MAX_RECORD_DEPTH) return;
    const text = this.text(record);
    if (text !== null) {
      into.push(text);
      return;
    }
    if (!record.isContainer) return;
    if (record.type === RT.mainMaster || record.type === RT.notes || record.type === RT.handout) return;
    if (record.type === RT.slideListWithText && record.instance !== 0) return;
    for (const child of this.children(record)) this.collect(child, into, depth + 1);
  }
}

/** persistId → stream offset, newest edit first (MS-PPT 2.1.2: the persist directory chain). */
function persistDirectory(stream: PptStream, currentEdit: number): { offsets: Map<number, number>; documentRef: number } | null {
  const offsets = new Map<number, number>();
  let documentRef = -1;
  const seen = new Set<number>();
  for (let at = currentEdit; at > 0 && !seen.has(at) && seen.size < 1000;) {
    seen.add(at);
    const edit = stream.record(at);
    if (!edit || edit.type !== RT.userEdit) return null;
    if (documentRef < 0) documentRef = stream.u32(edit.body + 16);
    const directory = stream.record(stream.u32(edit.body + 12));
    if (!directory || directory.type !== RT.persistDirectory) return null;
    for (let p = directory.body; p + 4 <= directory.end;) {
      const head = stream.u32(p);
      const first = head & 0xfffff;
      const count = head >>> 20;
      p += 4;
      for (let i = 0; i < count && p + 4 <= directory.end; i++, p += 4) {
        if (!offsets.has(first + i)) offsets.set(first + i, stream.u32(p));
      }
    }
    at = stream.u32(edit.body + 8);
  }
  return documentRef >= 0 ? { offsets, documentRef } : null;
}

async function pptText(path: string): Promise<Extracted> {
  const cfb = (XLSX.CFB as CfbApi).read(new Uint8Array(await readFile(path)), { type: 'buffer' });
  const stream = (name: string): Uint8Array | null => {
    const entry = cfb.FileIndex.find((e) => e.name.toLowerCase() === name.toLowerCase());
    return entry?.content ? Uint8Array.from(entry.content) : null;
  };
  const data = stream('PowerPoint Document');
  if (!data) throw new Error('the PowerPoint Document stream is missing');
  const ppt = new PptStream(data);
  const current = stream('Current User');
  const directory = current && current.length >= 20
    ? persistDirectory(ppt, new DataView(current.buffer, current.byteOffset, current.byteLength).getUint32(16, true))
    : null;
  const document = directory ? ppt.record(directory.offsets.get(directory.documentRef) ?? -1) : null;

  if (directory && document?.type === RT.document) {
    // Slides in presentation order: the outline text kept in the slide list, then the slide's own text boxes.
    const slides: Array<{ outline: string[]; persistRef: number }> = [];
    for (const child of ppt.children(document)) {
      if (child.type !== RT.slideListWithText || child.instance !== 0) continue;
      for (const item of ppt.children(child)) {
        if (item.type === RT.slidePersist) slides.push({ outline: [], persistRef: ppt.u32(item.body) });
        else slides.at(-1)?.outline.push(...[ppt.text(item)].filter((t): t is string => t !== null));
      }
    }
    const texts = slides.map((slide) => {
      const own: string[] = [];
      const record = ppt.record(directory.offsets.get(slide.persistRef) ?? -1);
      if (record?.type === RT.slide) ppt.collect(record, own);
      const unique = own.filter((t) => !slide.outline.includes(t));
      return tidy([...slide.outline, ...unique].join('\n'));
    });
    return { text: texts.filter(Boolean).join('\n\n'), pageCount: slides.length };
  }

  // No usable persist directory (damaged or unusual file): every text atom outside masters and notes, in order.
  const texts: string[] = [];
  for (let at = 0; at < data.length;) {
    const record = ppt.record(at);
    if (!record) break;
    ppt.collect(record, texts);
    at = record.end;
  }
  const unique = texts.filter((t, i) => t.trim() && texts.indexOf(t) === i);
  return { text: unique.join('\n\n'), pageCount: null };
}
