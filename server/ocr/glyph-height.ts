import { otsuThreshold, type GrayImage } from './gray-image.ts';

/**
 * The typical height in pixels of the characters on a page: the median height of its ink blobs (8-connected runs of
 * pixels darker than Otsu's threshold) that are shaped like characters. Null when the page has too few of them to
 * tell. Capital letters and digits dominate till receipts, so on them this is close to the cap height.
 */

/** Blobs lower than this are specks, dots and accents, not characters. */
const MIN_GLYPH_PX = 4;
/** A blob this many times wider than high is a rule or several touching characters. */
const MAX_WIDTH_RATIO = 3;
/** A blob higher than this share of the page is a logo, a frame or a shadow. */
const MAX_PAGE_SHARE = 0.1;
const MIN_GLYPHS = 20;

export function glyphHeight(image: GrayImage): number | null {
  const { width, height, data } = image;
  const threshold = Math.min(otsuThreshold(image), 200);
  // Union-find over run labels, row by row: one label per horizontal run of ink, merged with touching runs above.
  const parent: number[] = [];
  const top: number[] = [];
  const bottom: number[] = [];
  const left: number[] = [];
  const right: number[] = [];
  const find = (label: number): number => {
    while (parent[label] !== label) label = parent[label] = parent[parent[label]!]!;
    return label;
  };
  let previous: Array<[number, number, number]> = [];
  for (let y = 0; y < height; y++) {
    const current: Array<[number, number, number]> = [];
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (data[row + x]! >= threshold) continue;
      const start = x;
      while (x + 1 < width && data[row + x + 1]! < threshold) x++;
      const label = parent.length;
      parent.push(label);
      top.push(y);
      bottom.push(y);
      left.push(start);
      right.push(x);
      current.push([start, x, label]);
      for (const [from, to, other] of previous) {
        // 8-connected: runs touch when they overlap or meet at a corner.
        if (to < start - 1 || from > x + 1) continue;
        const a = find(label);
        const b = find(other);
        if (a === b) continue;
        parent[b] = a;
        top[a] = Math.min(top[a]!, top[b]!);
        bottom[a] = Math.max(bottom[a]!, bottom[b]!);
        left[a] = Math.min(left[a]!, left[b]!);
        right[a] = Math.max(right[a]!, right[b]!);
      }
    }
    previous = current;
  }
  const heights: number[] = [];
  for (let label = 0; label < parent.length; label++) {
    if (parent[label] !== label) continue;
    const h = bottom[label]! - top[label]! + 1;
    const w = right[label]! - left[label]! + 1;
    if (h >= MIN_GLYPH_PX && h <= height * MAX_PAGE_SHARE && w <= h * MAX_WIDTH_RATIO) heights.push(h);
  }
  if (heights.length < MIN_GLYPHS) return null;
  heights.sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)]!;
}
