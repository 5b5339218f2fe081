/**
 * Lines from positioned text: boxes (pdf.js items, OCR words) that share a baseline band become one line, read left
 * to right and split into cells at wide gaps, so "Total ⟶ 12,40" stays one line with two cells whatever order the
 * reader gave them in.
 */

import type { PageLayout, TextBox } from '../layout-types.ts';

/** A run of boxes on one line without a wide gap: a label, a value, a table cell. */
export interface Cell {
  text: string;
  /** Left and right edges, fractions of the page width. */
  x: number;
  right: number;
}

/** One line of a page; vertical positions in fractions of the page height (origin top). */
export interface LayoutLine {
  page: number;
  /** The page's height over its width, to compare vertical and horizontal distances. */
  aspect: number;
  text: string;
  cells: Cell[];
  x: number;
  right: number;
  top: number;
  bottom: number;
  /** The median box height: the type size, larger for headings and letterheads. */
  size: number;
}

/** A gap wider than this many line heights between two boxes starts a new cell. */
const CELL_GAP = 1.5;

/** The lines of one page, top to bottom. */
export function linesOf(layout: PageLayout): LayoutLine[] {
  const boxes = layout.boxes.filter((box) => box.text.trim() !== '' && box.height > 0);
  if (boxes.length === 0) return [];
  const sorted = [...boxes].sort((a, b) => centre(a) - centre(b) || a.x - b.x);
  const groups: TextBox[][] = [];
  let current: TextBox[] = [];
  let band = { top: 0, bottom: 0 };
  for (const box of sorted) {
    // A box belongs to the line when its middle lies within the band of the line's first box.
    if (current.length > 0 && centre(box) <= band.bottom && centre(box) >= band.top) {
      current.push(box);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [box];
    band = { top: box.y, bottom: box.y + box.height };
  }
  groups.push(current);
  return groups.map((group) => toLine(group, layout));
}

/** The lines of every page, in page order. */
export function layoutLines(layouts: readonly PageLayout[]): LayoutLine[] {
  return [...layouts].sort((a, b) => a.page - b.page).flatMap(linesOf);
}

const centre = (box: TextBox): number => box.y + box.height / 2;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function toLine(group: TextBox[], layout: PageLayout): LayoutLine {
  const ordered = [...group].sort((a, b) => a.x - b.x);
  const size = median(ordered.map((box) => box.height));
  // Horizontal gaps compared with the type size in the same unit: heights are fractions of the page's height.
  const gapLimit = size * layout.aspect * CELL_GAP;
  const cells: Cell[] = [];
  for (const box of ordered) {
    const text = box.text.replace(/\s+/g, ' ').trim();
    const last = cells[cells.length - 1];
    if (last && box.x - last.right <= gapLimit) {
      last.text += ` ${text}`;
      last.right = Math.max(last.right, box.x + box.width);
    } else {
      cells.push({ text, x: box.x, right: box.x + box.width });
    }
  }
  return {
    page: layout.page,
    aspect: layout.aspect,
    text: cells.map((cell) => cell.text).join(' '),
    cells,
    x: cells[0]!.x,
    right: Math.max(...cells.map((cell) => cell.right)),
    top: Math.min(...ordered.map((box) => box.y)),
    bottom: Math.max(...ordered.map((box) => box.y + box.height)),
    size,
  };
}
