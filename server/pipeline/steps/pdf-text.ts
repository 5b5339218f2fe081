import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { errorMessage } from '../../../common/errors.ts';
import type { PageLayout, TextBox } from '../../intelligence/layout-types.ts';
import type { AnalysisStep } from '../analysis.ts';
import { decodeLimitsOf } from '../processing-limits.ts';
import { OcrReport, ocrLanguagesOf } from './ocr-report.ts';
import { checkPdfStreams, type StreamBudgetReport } from './pdf-stream-budget.ts';
import { PdfPageRenderer } from './scanned-pdf.ts';
import { processingMessage } from '../../../common/processing-messages.ts';

/**
 * PDF text: the text layer of each page in reading order; a page with (almost) no text layer is a scan and goes to
 * OCR (scanned-pdf.ts). Pages are handled one at a time and released, so a 300-page file never holds more than one
 * page's objects, or one rendered page image.
 */

/** A page whose text layer has fewer visible characters than this is treated as scanned. */
export const SCANNED_PAGE_MAX_CHARS = 20;

const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));
/** Local resource directories (trailing slash required): fonts, CMaps and decoders ship inside pdfjs-dist. */
const RESOURCES = {
  standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
  cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
  cMapPacked: true,
  wasmUrl: `${join(PDFJS_DIR, 'wasm')}/`,
  iccUrl: `${join(PDFJS_DIR, 'iccs')}/`,
};

/**
 * Loads pdf.js's worker code into this process now. Under Node pdf.js runs its "worker" in-process and would import
 * this large module on the first document opened, charging that document's time for it; an analysis process calls
 * this while it starts (analysis-worker.ts). `globalThis.pdfjsWorker` is the hook pdf.js itself looks for.
 */
export async function preloadPdfWorker(): Promise<void> {
  const holder = globalThis as { pdfjsWorker?: unknown };
  holder.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
}

/** `maxImagePixels`: images larger than this are left out of the page, never decoded. */
export async function openPdf(data: Uint8Array, maxImagePixels: number): Promise<PDFDocumentProxy> {
  return getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    maxImageSize: maxImagePixels,
    ...RESOURCES,
  }).promise;
}

export const pdfTextStep: AnalysisStep = {
  name: 'pdf-text',
  async run(input, analysis) {
    if (input.format !== 'pdf') return;
    const data = new Uint8Array(await readFile(input.filePath));
    const limits = decodeLimitsOf(input);
    // Throws (the document fails with the reason) before pdf.js could inflate a bomb.
    const streams = await checkPdfStreams(data, limits);
    let pdf: PDFDocumentProxy;
    try {
      pdf = await openPdf(data, limits.maxImagePixels);
    } catch (error) {
      // A locked PDF is a whole document whose text we may not read: kept, with a note. A broken one fails.
      if (error instanceof Error && error.name === 'PasswordException') {
        analysis.notes.push(processingMessage('pdfLocked'));
        return;
      }
      throw new Error(processingMessage('pdfUnreadable', { reason: errorMessage(error) }), { cause: error });
    }
    const report = new OcrReport(ocrLanguagesOf(input));
    const renderer = new PdfPageRenderer();
    try {
      analysis.pageCount = pdf.numPages;
      const pages: string[] = [];
      const layouts: PageLayout[] = [];
      const readable = Math.min(pdf.numPages, limits.maxPages);
      for (let number = 1; number <= readable; number++) {
        const page = await pdf.getPage(number);
        try {
          const items = (await page.getTextContent()).items
            .filter((item): item is TextItem => 'str' in item)
            .map((item) => ({ ...item, str: withoutLetterSpacing(item.str) }));
          let text = readingOrderText(items);
          let fromTextLayer = true;
          if (!needsOcr(text)) renderer.noteLanguage(text, report.languages);
          else {
            const ocr = await report.readPage(number, () => renderer.ocr(page, report.languages));
            // A stamp or page number in a text layer is part of the scan too: keep whichever says clearly more. A short
            // text layer is exact, and OCR of the same line says a character more when it splits one ("e" as "¢c").
            if (ocr !== null && saysClearlyMore(ocr, text)) {
              text = ocr;
              fromTextLayer = false;
            }
          }
          // An OCR'd page's word boxes come from the report; a text layer's from its items.
          if (fromTextLayer) {
            const layout = textLayerLayout(page, number, items);
            if (layout) layouts.push(layout);
          }
          pages.push(text);
        } finally {
          page.cleanup();
        }
      }
      analysis.content = pages.join('\n\n').trim();
      analysis.layout = layouts;
      report.apply(analysis);
      if (readable < pdf.numPages)
        analysis.notes.push(processingMessage('pageLimit', { read: readable, total: pdf.numPages }));
      const imageNote = oversizeImagesNote(streams, limits.maxImagePixels);
      if (imageNote) analysis.notes.push(imageNote);
    } finally {
      renderer.release();
      await pdf.destroy();
    }
  },
};

function oversizeImagesNote({ oversizeImages: images }: StreamBudgetReport, maxPixels: number): string | null {
  if (images.length === 0) return null;
  const sizes =
    images
      .slice(0, 3)
      .map((i) => `${i.width}×${i.height}`)
      .join(', ') + (images.length > 3 ? ', …' : '');
  const megapixels = Math.round(maxPixels / 1e6);
  return images.length === 1
    ? processingMessage('oversizeImage', { megapixels, sizes })
    : processingMessage('oversizeImages', { count: images.length, megapixels, sizes });
}

const visibleChars = (text: string): number => text.replace(/\s+/g, '').length;

/**
 * A page is OCR'd when its text layer is (nearly) empty, or when most of it is unreadable: fonts without a
 * Unicode mapping come out as private-use characters, replacement characters or control codes.
 */
export function needsOcr(text: string): boolean {
  const visible = visibleChars(text);
  return visible < SCANNED_PAGE_MAX_CHARS || readableChars(text) < visible / 2;
}

/** OCR's text over a page's text layer: only when it reads clearly more than the layer has (a scan under a stamp). */
export function saysClearlyMore(ocr: string, layer: string): boolean {
  const readable = readableChars(layer);
  return visibleChars(ocr) > readable * 1.25 + 5;
}

function readableChars(text: string): number {
  let unreadable = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Private use area, the replacement character, C0 controls other than white space.
    if ((code >= 0xe000 && code <= 0xf8ff) || code === 0xfffd || (code < 0x20 && (code < 9 || code > 13))) unreadable++;
  }
  return visibleChars(text) - unreadable;
}

/**
 * The page's text items as boxes in fractions of the page as displayed (origin top left; the page's rotation and
 * crop box applied), in content-stream order; null when no item is visible.
 */
export function textLayerLayout(page: PDFPageProxy, number: number, items: readonly TextItem[]): PageLayout | null {
  const viewport = page.getViewport({ scale: 1 });
  const { width, height } = viewport;
  if (!(width > 0 && height > 0)) return null;
  const boxes: TextBox[] = [];
  for (const item of items) {
    const text = item.str.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform as number[];
    const size = Math.abs(item.height) || Math.hypot(c, d) || Math.hypot(a, b) || 10;
    // The baseline's two ends and the top of the glyphs, in viewport pixels (y downwards).
    const along = Math.hypot(a, b) || 1;
    const [ux, uy] = [a / along, b / along];
    const corners = [
      viewport.convertToViewportPoint(e, f),
      viewport.convertToViewportPoint(e + ux * item.width, f + uy * item.width),
      viewport.convertToViewportPoint(e - uy * size, f + ux * size),
      viewport.convertToViewportPoint(e + ux * item.width - uy * size, f + uy * item.width + ux * size),
    ];
    const xs = corners.map((p) => p[0]!),
      ys = corners.map((p) => p[1]!);
    const x0 = clamp01(Math.min(...xs) / width),
      x1 = clamp01(Math.max(...xs) / width);
    const y0 = clamp01(Math.min(...ys) / height),
      y1 = clamp01(Math.max(...ys) / height);
    if (![x0, x1, y0, y1].every(Number.isFinite)) continue;
    boxes.push({ text, x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  }
  return boxes.length > 0 ? { page: number, aspect: height / width, boxes } : null;
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));

/**
 * A short run of capitals that kerning split unevenly ("D ATA", "SPE TT. L E"): pieces of one to three capitals,
 * nothing else in the text item, and single letters among them.
 */
const CAPITAL_PIECES = /^(?:\p{Lu}{1,3}\.?|\.)(?: (?:\p{Lu}{1,3}\.?|\.)){1,5}$/u;
function kernedCapitals(text: string): boolean {
  if (!CAPITAL_PIECES.test(text) || (text.match(/\p{Lu}/gu)?.length ?? 0) < 3) return false;
  const pieces = text.split(' ');
  const single = pieces.filter((piece) => /^\p{Lu}$/u.test(piece)).length;
  // Two pieces: a letter and three or more ("D ATA"; "A LA", "I AM" are words). More: the run ends in a letter or a
  // dotted piece, as a word's tail does ("SPE TT. L E"; "P O BOX" ends in a word).
  if (pieces.length === 2) return single === 1 && pieces.some((piece) => piece.replace('.', '').length >= 3);
  return single * 2 >= pieces.length && /(?:^| )(?:\p{Lu}|\p{Lu}+\.)$/u.test(text);
}
/** Three or more tokens of one or two letters each, one space apart: a candidate for letter-spaced type. */
const SPACED_RUN = /(?<!\S)\p{L}{1,2}(?: \p{L}{1,2}){2,}(?!\S)/gu;

/**
 * Headings and labels set with wide letter spacing ("T O T A L", "A D D R E S S") come out of pdf.js with a space
 * between every glyph, since it adds one wherever glyphs stand apart. Such a run is one word again when nearly all of
 * its tokens are single letters (kerning pulls a pair together now and then: "T O TA L"); ordinary short words ("a la
 * de el") do not run four or more with that share of single letters. A short word in capitals ("V A T") is three
 * single capitals.
 */
export function withoutLetterSpacing(text: string): string {
  if (kernedCapitals(text)) return text.replace(/ /g, '');
  return text.replace(SPACED_RUN, (run) => {
    const tokens = run.split(' ');
    const single = tokens.filter((token) => [...token].length === 1).length;
    const spaced =
      tokens.length >= 4 ? single >= tokens.length * 0.75 : single === tokens.length && run === run.toUpperCase();
    return spaced ? tokens.join('') : run;
  });
}

type TextContentItem = Awaited<ReturnType<PDFPageProxy['getTextContent']>>['items'][number];
export type TextItem = Extract<TextContentItem, { str: string }>;

// ---------------------------------------------------------------------------------------------------------------
// Reading order.

interface Piece {
  text: string;
  u: number;
  v: number;
  width: number;
  size: number;
}
interface Fragment {
  text: string;
  u0: number;
  u1: number;
  v: number;
  size: number;
}
interface Row {
  fragments: Fragment[];
  v: number;
  size: number;
}

/**
 * Text items of one page in reading order. The content stream order is not trusted (generators emit table
 * columns, headers or whole columns in any order); items are placed by position instead: grouped into rows by
 * baseline (with a tolerance of half the font size), ordered left to right, split into fragments at wide gaps.
 * A run of rows with a clear gutter and running text on both sides is a multi-column section: its left column is
 * read before its right one. Everything else (tables, letterheads, address blocks) is read row by row, cells
 * separated by tabs, which keeps a label and its value ("Total  123.45") on one line.
 */
export function readingOrderText(items: readonly TextItem[]): string {
  const visible = items.filter((item) => item.str.trim() !== '');
  if (visible.length === 0) return '';
  // Text set at an angle (a rotated page, a margin note) is read in its own frame; the prevailing angle wins.
  const angleOf = (item: TextItem): number =>
    Math.round((Math.atan2(item.transform[1] as number, item.transform[0] as number) * 180) / Math.PI);
  const weight = new Map<number, number>();
  for (const item of visible) weight.set(angleOf(item), (weight.get(angleOf(item)) ?? 0) + item.str.length);
  const main = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const inFrame = visible.filter((item) => Math.abs(angleOf(item) - main) <= 3);
  const others = visible.filter((item) => Math.abs(angleOf(item) - main) > 3);
  const text = orderPieces(inFrame.map((item) => toPiece(item, main)));
  // The rest, grouped by their own angle, after the main text.
  const rest = [...new Set(others.map(angleOf))].map((angle) =>
    orderPieces(others.filter((item) => angleOf(item) === angle).map((item) => toPiece(item, angle))),
  );
  return [text, ...rest].filter(Boolean).join('\n\n');
}

function toPiece(item: TextItem, angle: number): Piece {
  const [a, b, c, d, e, f] = item.transform as number[];
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const size = Math.abs(item.height) || Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0) || 10;
  // Rotate into the text's own frame: u along the baseline, v upwards.
  return { text: item.str, u: e! * cos + f! * sin, v: -e! * sin + f! * cos, width: Math.abs(item.width), size };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function orderPieces(pieces: Piece[]): string {
  if (pieces.length === 0) return '';
  // Rows, top to bottom: a piece joins the row whose baseline is within half a font size of its own.
  const sorted = pieces
    .map((p, i) => ({ p, i }))
    .sort((x, y) => y.p.v - x.p.v || x.i - y.i)
    .map((x) => x.p);
  const rows: Piece[][] = [];
  let current: Piece[] = [];
  let baseline = Infinity;
  let rowSize = 0;
  for (const piece of sorted) {
    if (current.length > 0 && Math.abs(baseline - piece.v) <= Math.min(rowSize, piece.size) * 0.5) {
      current.push(piece);
      continue;
    }
    if (current.length > 0) rows.push(current);
    current = [piece];
    baseline = piece.v;
    rowSize = piece.size;
  }
  if (current.length > 0) rows.push(current);
  return layoutRows(rows.map(toRow));
}

/** A row's pieces, left to right, joined into fragments; a gap wider than about a character space splits them. */
function toRow(pieces: Piece[]): Row {
  const ordered = [...pieces].sort((a, b) => a.u - b.u);
  const size = median(ordered.map((p) => p.size));
  const fragments: Fragment[] = [];
  let fragment: Fragment | undefined;
  for (const piece of ordered) {
    const gap = fragment ? piece.u - fragment.u1 : Infinity;
    if (fragment && gap <= size * 1.2) {
      const needsSpace = gap > size * 0.18 && !/\s$/.test(fragment.text) && !/^\s/.test(piece.text);
      fragment.text += (needsSpace ? ' ' : '') + piece.text;
      fragment.u1 = Math.max(fragment.u1, piece.u + piece.width);
      continue;
    }
    fragment = { text: piece.text, u0: piece.u, u1: piece.u + piece.width, v: piece.v, size: piece.size };
    fragments.push(fragment);
  }
  for (const f of fragments) f.text = f.text.replace(/\s+/g, ' ').trim();
  return { fragments: fragments.filter((f) => f.text), v: median(ordered.map((p) => p.v)), size };
}

/** Lines shorter than this (characters, median) are not running text: their gutter is a table's, not columns'. */
const PROSE_MIN_CHARS = 15;
const MIN_COLUMN_ROWS = 3;

function layoutRows(rows: Row[]): string {
  const lines = orderRows(rows);
  let out = '';
  let previous: Row | undefined;
  for (const row of lines) {
    if (previous) {
      // A gap of more than about two lines is a paragraph (or column) break.
      const gap = Math.abs(previous.v - row.v);
      out += gap > Math.max(previous.size, row.size) * 2.2 || row.v > previous.v + previous.size ? '\n\n' : '\n';
    }
    out += row.fragments.map((f) => f.text).join('\t');
    previous = row;
  }
  return out;
}

/** Rows in reading order, with multi-column sections unfolded column by column (recursively, for 3+ columns). */
function orderRows(rows: Row[]): Row[] {
  const section = findColumnSection(rows);
  if (!section) return rows;
  const { start, end, gutter } = section;
  const side = (keep: (f: Fragment) => boolean): Row[] =>
    rows
      .slice(start, end)
      .map((row) => ({ ...row, fragments: row.fragments.filter(keep) }))
      .filter((row) => row.fragments.length > 0);
  return [
    ...orderRows(rows.slice(0, start)),
    ...orderRows(side((f) => f.u1 <= gutter)),
    ...orderRows(side((f) => f.u0 >= gutter)),
    ...orderRows(rows.slice(end)),
  ];
}

/** The run of rows, without wide vertical gaps, that no fragment crosses at some x, with running text on both sides. */
function findColumnSection(rows: Row[]): { start: number; end: number; gutter: number } | null {
  const candidates = new Set<number>();
  for (const row of rows) {
    for (let i = 1; i < row.fragments.length; i++) {
      const left = row.fragments[i - 1]!;
      const right = row.fragments[i]!;
      if (right.u0 - left.u1 >= row.size) candidates.add(Math.round((left.u1 + right.u0) / 2));
    }
  }
  let best: { start: number; end: number; gutter: number; score: number } | null = null;
  for (const gutter of candidates) {
    let start = 0;
    while (start < rows.length) {
      const crosses = (row: Row): boolean => row.fragments.some((f) => f.u0 < gutter && f.u1 > gutter);
      if (crosses(rows[start]!)) {
        start++;
        continue;
      }
      let end = start + 1;
      // A wide vertical gap (two blank lines or more) ends a column section too: what follows is a new part.
      while (
        end < rows.length &&
        !crosses(rows[end]!) &&
        rows[end - 1]!.v - rows[end]!.v <= Math.max(rows[end - 1]!.size, rows[end]!.size) * 3
      )
        end++;
      const run = rows.slice(start, end);
      const left = run.flatMap((r) => r.fragments.filter((f) => f.u1 <= gutter).map((f) => f.text.length));
      const right = run.flatMap((r) => r.fragments.filter((f) => f.u0 >= gutter).map((f) => f.text.length));
      const both = run.filter(
        (r) => r.fragments.some((f) => f.u1 <= gutter) && r.fragments.some((f) => f.u0 >= gutter),
      ).length;
      const prose =
        left.length >= MIN_COLUMN_ROWS &&
        right.length >= MIN_COLUMN_ROWS &&
        median(left) >= PROSE_MIN_CHARS &&
        median(right) >= PROSE_MIN_CHARS;
      if (prose && both >= 2 && (!best || both > best.score)) best = { start, end, gutter, score: both };
      start = end;
    }
  }
  return best;
}
