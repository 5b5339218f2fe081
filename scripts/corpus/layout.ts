/**
 * Places a DocModel on pages: positioned text runs, rules and filled boxes in points from the top-left corner,
 * plus the drawn text in reading order (the CER reference). The same layout feeds the PDF and the image renderer,
 * whose fonts share metrics (Helvetica/Liberation Sans, Times/Liberation Serif, Courier/Liberation Mono).
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { Align, Block, Column, DocModel, FontFamily, Rgb } from './model.ts';

export type FontKey = `${FontFamily}-${'regular' | 'bold'}`;
export type Op =
  | { kind: 'text'; x: number; y: number; text: string; font: FontKey; size: number; color: Rgb }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Rgb }
  | { kind: 'rect'; x: number; y: number; w: number; h: number; color: Rgb };

export interface Page {
  width: number;
  height: number;
  ops: Op[];
}
export interface Layout {
  pages: Page[];
  text: string;
}

export type Measure = (text: string, font: FontKey, size: number) => number;

export const STANDARD_FONTS: Record<FontKey, StandardFonts> = {
  'sans-regular': StandardFonts.Helvetica,
  'sans-bold': StandardFonts.HelveticaBold,
  'serif-regular': StandardFonts.TimesRoman,
  'serif-bold': StandardFonts.TimesRomanBold,
  'mono-regular': StandardFonts.Courier,
  'mono-bold': StandardFonts.CourierBold,
};

export async function createMeasure(): Promise<Measure> {
  const doc = await PDFDocument.create();
  const fonts = new Map<FontKey, PDFFont>();
  for (const [key, name] of Object.entries(STANDARD_FONTS) as Array<[FontKey, StandardFonts]>) {
    fonts.set(key, await doc.embedFont(name));
  }
  return (text, font, size) => fonts.get(font)!.widthOfTextAtSize(text, size);
}

const BLACK: Rgb = [0, 0, 0];
const GREY: Rgb = [90, 90, 90];
const WHITE: Rgb = [255, 255, 255];

const PAPER = { a4: [595.28, 841.89], letter: [612, 792], receipt: [226.77, 0] } as const;

interface PageState {
  page: Page;
  lines: string[];
}

export function layoutDocument(model: DocModel, measure: Measure): Layout {
  const [width, fixedHeight] = PAPER[model.paper];
  const receipt = model.paper === 'receipt';
  const st = model.style;
  const fam = st.family;
  const regular: FontKey = `${fam}-regular`;
  const bold: FontKey = `${fam}-bold`;
  const L = receipt ? 14 : st.margin;
  const R = width - (receipt ? 14 : Math.min(56, st.margin));
  const contentWidth = R - L;
  const size = st.size;

  const footerLines = receipt ? 0 : Math.max(0, ...model.footer.map((c) => c.length));
  const footerTop = receipt ? Infinity : fixedHeight - 26 - footerLines * 8.4;
  const bottom = receipt ? Infinity : footerTop - 22;

  const pages: PageState[] = [];
  let cur!: PageState;
  let y = 0;

  const newPage = (): void => {
    cur = { page: { width, height: fixedHeight, ops: [] }, lines: [] };
    pages.push(cur);
    y = 64;
  };

  const widthOf = (text: string, font: FontKey, s: number): number => measure(text, font, s);
  const text = (
    x: number,
    yy: number,
    t: string,
    font: FontKey,
    s: number,
    align: Align = 'left',
    color: Rgb = BLACK,
  ): void => {
    if (!t) return;
    const w = widthOf(t, font, s);
    const left = align === 'left' ? x : align === 'right' ? x - w : x - w / 2;
    cur.page.ops.push({ kind: 'text', x: left, y: yy, text: t, font, size: s, color });
  };
  const rule = (yy: number, x1 = L, x2 = R, w = 0.6, color: Rgb = GREY): void => {
    cur.page.ops.push({ kind: 'line', x1, y1: yy, x2, y2: yy, width: w, color });
  };
  /** Moves down one line, starting a new page when the body area is full. */
  const advance = (height: number): boolean => {
    if (y + height > bottom) {
      newPage();
      y += height;
      return true;
    }
    y += height;
    return false;
  };

  const wrap = (t: string, font: FontKey, s: number, maxWidth: number): string[] => {
    const out: string[] = [];
    for (const para of t.split('\n')) {
      let line = '';
      for (const word of para.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (line && widthOf(candidate, font, s) > maxWidth) {
          out.push(line);
          line = word;
        } else line = candidate;
      }
      out.push(line);
    }
    return out;
  };

  newPage();
  drawLetterhead();

  for (const block of model.blocks) drawBlock(block);

  // Page numbers and footers need the page count, so they come last.
  pages.forEach((p, index) => {
    cur = p;
    if (receipt) {
      p.page.height = Math.ceil(y + 36);
      return;
    }
    if (model.pageNumbers) {
      const label =
        model.lang === 'de' ? `Seite ${index + 1} von ${pages.length}` : `Page ${index + 1} of ${pages.length}`;
      text(R, footerTop - 13, label, regular, size - 1.5, 'right', GREY);
      p.lines.push(label);
    }
    if (model.footer.length) {
      rule(footerTop - 8, L, R, 0.4);
      // Columns as wide as their longest line, spread over the width; smaller print when they do not fit.
      const n = model.footer.length;
      let fs = 6.6;
      const widths = (s: number): number[] =>
        model.footer.map((col) => Math.max(...col.map((l) => widthOf(l, regular, s))));
      let w = widths(fs);
      const minGap = 10;
      const sum = w.reduce((a, b) => a + b, 0);
      if (sum + minGap * (n - 1) > contentWidth) {
        fs = Math.max(4.8, (fs * (contentWidth - minGap * (n - 1))) / sum);
        w = widths(fs);
      }
      const gap = n > 1 ? Math.max(minGap, (contentWidth - w.reduce((a, b) => a + b, 0)) / (n - 1)) : 0;
      let x = L;
      model.footer.forEach((col, i) => {
        col.forEach((line, j) => text(x, footerTop + j * 8.4, line, regular, fs, 'left', GREY));
        x += w[i]! + gap;
        p.lines.push(...col);
      });
    }
  });

  return {
    pages: pages.map((p) => p.page),
    text: pages.map((p) => p.lines.filter((l) => l.trim()).join('\n')).join('\n'),
  };

  function drawLetterhead(): void {
    const lh = model.letterhead;
    const accent = st.accent;
    if (receipt) {
      y = 30;
      text(width / 2, y, lh.name, `${fam}-bold`, 10.5, 'center');
      cur.lines.push(lh.name);
      for (const line of lh.lines) {
        y += 10;
        text(width / 2, y, line, regular, 7.5, 'center');
        cur.lines.push(line);
      }
      y += 8;
      return;
    }
    const nameSize = lh.name.length > 30 ? 15 : 18;
    const small = 7.8;
    switch (st.letterhead) {
      case 'left': {
        text(L, 62, lh.name, bold, nameSize, 'left', accent);
        cur.lines.push(lh.name);
        if (lh.tagline) {
          text(L, 76, lh.tagline, regular, 8.5, 'left', GREY);
          cur.lines.push(lh.tagline);
        }
        lh.lines.forEach((line, i) => text(R, 40 + i * 9.6, line, regular, small, 'right', GREY));
        cur.lines.push(...lh.lines);
        break;
      }
      case 'right': {
        text(R, 56, lh.name, bold, nameSize, 'right', accent);
        cur.lines.push(lh.name);
        let yy = 56;
        if (lh.tagline) {
          yy += 13;
          text(R, yy, lh.tagline, regular, 8.5, 'right', GREY);
          cur.lines.push(lh.tagline);
        }
        yy += 4;
        for (const line of lh.lines) {
          yy += 9.6;
          text(R, yy, line, regular, small, 'right', GREY);
        }
        cur.lines.push(...lh.lines);
        break;
      }
      case 'center': {
        text(width / 2, 56, lh.name, bold, nameSize + 2, 'center', accent);
        cur.lines.push(lh.name);
        if (lh.tagline) {
          text(width / 2, 70, lh.tagline, regular, 8.5, 'center', GREY);
          cur.lines.push(lh.tagline);
        }
        const joined = lh.lines.join('  ·  ');
        text(width / 2, 84, joined, regular, small, 'center', GREY);
        cur.lines.push(joined);
        rule(92, L, R, 0.8, accent);
        break;
      }
      case 'columns': {
        // Two columns of contact lines under the name, as many letterheads print them side by side.
        text(L, 52, lh.name, bold, nameSize, 'left', accent);
        cur.lines.push(lh.name);
        if (lh.tagline) {
          text(R, 52, lh.tagline, regular, 8.5, 'right', GREY);
          cur.lines.push(lh.tagline);
        }
        const half = Math.ceil(lh.lines.length / 2);
        const middle = (L + R) / 2;
        lh.lines.forEach((line, i) =>
          text(i < half ? L : middle, 70 + (i % half) * 9.6, line, regular, small, 'left', GREY),
        );
        cur.lines.push(...lh.lines);
        rule(70 + half * 9.6, L, R, 0.6, accent);
        break;
      }
      case 'bar': {
        cur.page.ops.push({ kind: 'rect', x: 0, y: 0, w: width, h: 64, color: accent });
        text(L, 42, lh.name, bold, nameSize + 2, 'left', WHITE);
        cur.lines.push(lh.name);
        if (lh.tagline) {
          text(R, 42, lh.tagline, regular, 9, 'right', WHITE);
          cur.lines.push(lh.tagline);
        }
        lh.lines.forEach((line, i) => text(R, 80 + i * 9.6, line, regular, small, 'right', GREY));
        cur.lines.push(...lh.lines);
        break;
      }
    }
    y = 118;
  }

  function drawBlock(block: Block): void {
    switch (block.kind) {
      case 'window':
        return drawWindow(block);
      case 'info':
        return drawInfo(block.rows, block.placement);
      case 'heading': {
        const s = block.size ?? size + 4;
        advance(receipt ? s + 4 : s + 12);
        text(receipt ? width / 2 : L, y, block.text, bold, s, receipt ? 'center' : 'left');
        cur.lines.push(block.text);
        y += receipt ? 2 : 6;
        return;
      }
      case 'paragraph': {
        const s = block.size ?? size;
        const font = block.bold ? bold : regular;
        const align = block.align ?? 'left';
        for (const line of wrap(block.text, font, s, contentWidth)) {
          advance(s * 1.38);
          const x = align === 'left' ? L : align === 'right' ? R : (L + R) / 2;
          text(x, y, line, font, s, align);
          cur.lines.push(line);
        }
        y += s * 0.55;
        return;
      }
      case 'table':
        return drawTable(block.columns, block.rows, block.boldRows ?? []);
      case 'totals': {
        const labelX = receipt ? L : R - 250;
        y += 4;
        for (const row of block.rows) {
          advance(size * 1.5);
          if (row.bold) rule(y - size - 2, labelX, R, 0.6, BLACK);
          const font = row.bold ? bold : regular;
          text(labelX, y, row.label, font, size, 'left');
          text(R, y, row.value, font, size, 'right');
          cur.lines.push(`${row.label} ${row.value}`);
        }
        y += 6;
        return;
      }
      case 'pairs': {
        const labelWidth = block.labelWidth ?? (receipt ? 0 : 170);
        block.rows.forEach(([label, value], i) => {
          advance(size * 1.42);
          const font = (block.boldRows ?? []).includes(i) ? bold : regular;
          text(L, y, label, font, size);
          if (block.valueAlign === 'right' || receipt) text(R, y, value, font, size, 'right');
          else text(L + labelWidth, y, value, font, size);
          cur.lines.push([label, value].filter(Boolean).join(' '));
        });
        y += 5;
        return;
      }
      case 'rule': {
        advance(6);
        if (receipt) {
          const dashes = '-'.repeat(Math.floor(contentWidth / widthOf('-', regular, size)));
          text(L, y + 2, dashes, regular, size);
        } else rule(y);
        y += 6;
        return;
      }
      case 'gap': {
        y += block.size;
        return;
      }
      case 'pagebreak': {
        newPage();
        return;
      }
    }
  }

  function drawWindow(block: Extract<Block, { kind: 'window' }>): void {
    const top = 128;
    let yy = top;
    if (block.returnAddress) {
      yy += 6;
      text(L, yy, block.returnAddress, regular, 6.5, 'left', GREY);
      rule(yy + 1.8, L, L + Math.min(widthOf(block.returnAddress, regular, 6.5), 240), 0.3, GREY);
      cur.lines.push(block.returnAddress);
      yy += 10;
    }
    for (const line of block.recipient) {
      yy += 12.5;
      text(L, yy, line, regular, 10);
    }
    cur.lines.push(...block.recipient);
    y = Math.max(yy, 230);
    if (block.infoPlacement === 'beside') {
      const x = Math.max(L + 265, R - 205);
      let iy = top + 4;
      for (const [label, value] of block.info) {
        iy += 11.5;
        text(x, iy, label, regular, 8.2, 'left', GREY);
        text(x + 92, iy, value, regular, 8.5);
        cur.lines.push(`${label} ${value}`);
      }
      y = Math.max(y, iy + 20);
    } else if (block.infoPlacement === 'below') {
      y += 16;
      drawInfo(block.info, 'inline');
    }
    y += 14;
  }

  function drawInfo(rows: Array<[string, string]>, placement: 'right' | 'left' | 'inline'): void {
    if (placement === 'inline') {
      // Label row over value row, like the reference line of DIN 5008 form B.
      const perRow = 4;
      for (let start = 0; start < rows.length; start += perRow) {
        const chunk = rows.slice(start, start + perRow);
        const colWidth = contentWidth / perRow;
        advance(10);
        chunk.forEach(([label], i) => text(L + i * colWidth, y, label, regular, 7.5, 'left', GREY));
        cur.lines.push(chunk.map(([label]) => label).join(' '));
        advance(12);
        chunk.forEach(([, value], i) => text(L + i * colWidth, y, value, regular, size));
        cur.lines.push(chunk.map(([, value]) => value).join(' '));
        y += 6;
      }
      y += 6;
      return;
    }
    const x = placement === 'right' ? R - 220 : L;
    for (const [label, value] of rows) {
      advance(size * 1.4);
      text(x, y, label, regular, size - 0.5, 'left', GREY);
      text(placement === 'right' ? R : x + 120, y, value, regular, size, placement === 'right' ? 'right' : 'left');
      cur.lines.push(`${label} ${value}`);
    }
    y += 8;
  }

  function drawTable(columns: Column[], rows: string[][], boldRows: number[]): void {
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const xs: number[] = [];
    let acc = L;
    for (const c of columns) {
      xs.push(acc);
      acc += (c.width / total) * contentWidth;
    }
    const cellX = (i: number): number => {
      const c = columns[i]!;
      const left = xs[i]!;
      const right = i + 1 < xs.length ? xs[i + 1]! - 6 : R;
      return c.align === 'right' ? right : c.align === 'center' ? (left + right) / 2 : left;
    };
    const cellWidth = (i: number): number => (i + 1 < xs.length ? xs[i + 1]! - 6 : R) - xs[i]!;
    const s = receipt ? size : size - 0.5;
    const header = (): void => {
      if (columns.every((c) => !c.header)) return;
      advance(s * 1.9);
      columns.forEach((c, i) => text(cellX(i), y, c.header, bold, s, c.align));
      cur.lines.push(
        columns
          .map((c) => c.header)
          .filter(Boolean)
          .join(' '),
      );
      rule(y + 4, L, R, 0.6, BLACK);
      y += 4;
    };
    header();
    rows.forEach((row, r) => {
      const font = boldRows.includes(r) ? bold : regular;
      const wrapped = row.map((cell, i) => wrap(cell, font, s, cellWidth(i)));
      const height = Math.max(...wrapped.map((w) => w.length));
      for (let k = 0; k < height; k++) {
        if (advance(s * 1.45)) {
          header();
          y += s * 1.45;
        }
        wrapped.forEach((lines, i) => {
          const line = lines[k];
          if (line) text(cellX(i), y, line, font, s, columns[i]!.align);
        });
        cur.lines.push(
          wrapped
            .map((lines) => lines[k] ?? '')
            .filter(Boolean)
            .join(' '),
        );
      }
    });
    if (!receipt) rule(y + 5, L, R, 0.4);
    y += 10;
  }
}
