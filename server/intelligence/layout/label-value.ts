/**
 * A label's value to its right or below it. Text readers put a value that stands under its label ("Total" over
 * "12,40", a totals table's header over its row) on another line; these pairs are written out as "label value"
 * lines, so the line-based readers see them the way they see "Total 12,40".
 */

import { ITEM_COLUMN } from '../columns.ts';
import type { Cell, LayoutLine } from './lines.ts';

/** A value further below its label than this many line heights is not its value. */
const MAX_DROP = 2;
/** A number, an amount ("€ 12,40", "US$ 5") or a number with a short capital prefix ("CT-5492", "F/118"). */
const STARTS_WITH_VALUE = /^(?:[^\p{L}\d\s]{1,3} ?)?[-−]?\d|^\p{Lu}{1,4}(?:\$|[-/.])? ?\d/u;

/** An amount with its cents ("12,40", "€ 1.234,56"). */
const AMOUNT = /\d[.,]\d{2}(?!\d)/u;

/**
 * "label value" for every cell without digits whose value is not to its right but in the one cell under it (the
 * horizontal spans overlap, within two line heights). A header row over one row of values pairs column by column;
 * over several rows it heads a table, whose rows the line readers take as they are.
 */
export function labelValuePairs(lines: readonly LayoutLine[], text: string | null = null): string[] {
  const pairs: string[] = [];
  const textLines = text === null ? null : text.split('\n').map(flat);
  // OCR may read a column of labels and the column of their amounts as two blocks ("Factura" … "188,40 €"):
  // those amounts are paired too, unless the text already has them on the label's line.
  const printedTogether = (label: string, value: string): boolean =>
    textLines === null ||
    textLines.some((line) => {
      const at = line.indexOf(flat(label));
      return at >= 0 && line.indexOf(flat(value), at) >= 0;
    });
  lines.forEach((line, index) => {
    const near = (other: LayoutLine | undefined): other is LayoutLine =>
      other !== undefined && other.page === line.page && other.top - line.bottom <= (line.bottom - line.top) * MAX_DROP;
    const itemHeader = line.cells.some((cell) => !/\d/.test(cell.text) && ITEM_COLUMN.test(cell.text));
    line.cells.forEach((cell, i) => {
      if (/\d/.test(cell.text) || !/\p{L}{2,}/u.test(cell.text)) return;
      const right = line.cells[i + 1];
      if (right && STARTS_WITH_VALUE.test(right.text)) {
        // A value to the right of its label shares its line, but a text layer may give the label column and the
        // value column as separate runs ("N° de facture" … "Date" … then "260417" …): written out as a pair too,
        // except amounts the text already prints on the label's line, which the amount readers take from there.
        if (!AMOUNT.test(right.text) || !printedTogether(cell.text, right.text))
          pairs.push(`${cell.text} ${right.text}`);
        return;
      }
      if (itemHeader) return;
      // The row under the label, or the one after it when a line of another column (a letterhead's address beside
      // an info block) came between them in reading order.
      const nextIndex = [index + 1, index + 2].find(
        (j) => near(lines[j]) && lines[j]!.cells.some((other) => overlaps(cell, other)),
      );
      if (nextIndex === undefined) return;
      const next = lines[nextIndex]!;
      const below = next.cells.filter((other) => overlaps(cell, other));
      if (below.length !== 1 || !STARTS_WITH_VALUE.test(below[0]!.text)) return;
      // A column header over rows of values heads a table: its first row is not the label's one value.
      const after = lines[nextIndex + 1];
      if (
        after?.page === line.page &&
        after.top - next.bottom <= (next.bottom - next.top) * MAX_DROP &&
        after.cells.some((other) => overlaps(cell, other) && STARTS_WITH_VALUE.test(other.text))
      )
        return;
      pairs.push(...paired(cell.text, below[0]!.text));
    });
  });
  return pairs;
}

/** Two labels in one cell over two values in one cell ("Invoice no. / date" over "R-2291 · 03.09.2026"): two pairs. */
const LABEL_JOINER = / \/ /;
const VALUE_JOINER = / [·|/] /;

function paired(label: string, value: string): string[] {
  const labels = label.split(LABEL_JOINER);
  const values = value.split(VALUE_JOINER);
  if (labels.length === 2 && values.length === 2) return labels.map((part, i) => `${part} ${values[i]}`);
  return [`${label} ${value}`];
}

const flat = (text: string): string => text.replace(/\s+/g, ' ').trim();

function overlaps(a: Cell, b: Cell): boolean {
  return Math.min(a.right, b.right) - Math.max(a.x, b.x) > 0;
}
