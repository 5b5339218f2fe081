/** Windowing math for fixed-height rows/cells: which items are visible and which pages must be fetched. Pure. */

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  /** Items per row (1 for a list, the column count for a grid). */
  columns?: number;
  /** Extra rows rendered above and below the viewport, so fast scrolling shows no blank rows. */
  overscan?: number;
}

export interface WindowRange {
  /** First and one-past-last item index to render. */
  start: number;
  end: number;
  /** Height (px) of the whole scrollable content. */
  height: number;
}

export function visibleRange(input: WindowInput): WindowRange {
  const columns = Math.max(1, Math.floor(input.columns ?? 1));
  const overscan = input.overscan ?? 6;
  const rowHeight = Math.max(1, input.rowHeight);
  const total = Math.max(0, input.total);
  const rows = Math.ceil(total / columns);
  const height = rows * rowHeight;
  if (total === 0) return { start: 0, end: 0, height: 0 };
  const scrollTop = Math.min(Math.max(0, input.scrollTop), Math.max(0, height - input.viewportHeight));
  const firstRow = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const lastRow = Math.min(rows, Math.ceil((scrollTop + Math.max(0, input.viewportHeight)) / rowHeight) + overscan);
  return { start: firstRow * columns, end: Math.min(total, lastRow * columns), height };
}

/** The top (px) of item `index` in the scrolled content: each item is placed on its own (LibraryTable). */
export function itemTop(index: number, rowHeight: number, columns = 1): number {
  return Math.floor(index / Math.max(1, Math.floor(columns))) * rowHeight;
}

/** The page numbers (of `pageSize` items) that cover items [start, end). */
export function pagesFor(start: number, end: number, pageSize: number): number[] {
  if (end <= start) return [];
  const first = Math.floor(start / pageSize);
  const last = Math.floor((end - 1) / pageSize);
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p);
  return pages;
}

/** The scrollTop that brings item `index` into view (minimal scroll), or null if it is already visible. */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  columns = 1,
): number | null {
  const top = Math.floor(index / Math.max(1, columns)) * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return null;
}

export function columnsFor(width: number, minCellWidth: number): number {
  return Math.max(1, Math.floor(width / Math.max(1, minCellWidth)));
}
