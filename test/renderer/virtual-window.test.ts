import { describe, expect, it } from 'vitest';
import { columnsFor, itemTop, pagesFor, scrollToReveal, visibleRange } from '../../renderer/src/lib/virtual-window.ts';

describe('visibleRange', () => {
  it('renders only the rows in view plus overscan, at 10,000 rows', () => {
    const r = visibleRange({ scrollTop: 52 * 5000, viewportHeight: 520, rowHeight: 52, total: 10_000, overscan: 4 });
    expect(r).toEqual({ start: 4996, end: 5014, height: 520_000 });
    expect(itemTop(r.start, 52)).toBe(4996 * 52);
  });
  it('clamps at the top and at the end', () => {
    expect(visibleRange({ scrollTop: -20, viewportHeight: 100, rowHeight: 50, total: 3, overscan: 2 })).toEqual({
      start: 0,
      end: 3,
      height: 150,
    });
    const end = visibleRange({ scrollTop: 1e9, viewportHeight: 500, rowHeight: 50, total: 1000, overscan: 0 });
    expect(end.end).toBe(1000);
    expect(end.start).toBe(990);
  });
  it('handles an empty list', () => {
    expect(visibleRange({ scrollTop: 0, viewportHeight: 500, rowHeight: 50, total: 0 })).toEqual({
      start: 0,
      end: 0,
      height: 0,
    });
  });
  it('windows a grid by whole rows of cells', () => {
    const r = visibleRange({
      scrollTop: 232 * 10,
      viewportHeight: 464,
      rowHeight: 232,
      total: 10_001,
      columns: 5,
      overscan: 1,
    });
    expect(r.start).toBe(45);
    expect(r.end).toBe(65);
    // The window's first cell starts the ninth row of cells; the one after a row's last starts the next.
    expect(itemTop(r.start, 232, 5)).toBe(9 * 232);
    expect(itemTop(r.start + 4, 232, 5)).toBe(9 * 232);
    expect(itemTop(r.start + 5, 232, 5)).toBe(10 * 232);
    expect(r.height).toBe(2001 * 232);
  });
});

describe('pagesFor', () => {
  it('lists the pages covering a range', () => {
    expect(pagesFor(0, 10, 200)).toEqual([0]);
    expect(pagesFor(190, 210, 200)).toEqual([0, 1]);
    expect(pagesFor(400, 400, 200)).toEqual([]);
    expect(pagesFor(9990, 10_000, 200)).toEqual([49]);
  });
});

describe('scrollToReveal', () => {
  it('scrolls minimally, or not at all', () => {
    expect(scrollToReveal(5, 0, 500, 50)).toBeNull();
    expect(scrollToReveal(20, 0, 500, 50)).toBe(550);
    expect(scrollToReveal(2, 400, 500, 50)).toBe(100);
    expect(scrollToReveal(12, 0, 464, 232, 5)).toBe(232 * 3 - 464);
  });
  it('columnsFor never returns less than one', () => {
    expect(columnsFor(100, 184)).toBe(1);
    expect(columnsFor(1000, 184)).toBe(5);
  });
});
