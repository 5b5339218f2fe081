import type { GrayImage } from './gray-image.ts';

/**
 * Faint or unevenly lit print (thermal paper that has faded, a crumpled slip, the scanner's dark bed around it) made
 * plain black on white. Tesseract binarises a page with one global threshold; on such a page the dark bed pulls
 * that threshold down and light-gray characters fall on the paper's side of it, so little or nothing is read.
 *
 * Each pixel is divided by the paper's brightness around it (the brightest value within a window larger than a
 * character), which flattens shading. Dark areas wider than a stroke (the bed, a shadow, a black bar) are made white:
 * they hold no characters, and left dark they would set the black point. What is then clearly darker than paper is
 * stretched so its darker part becomes black.
 */

/** The window's half width in inches: wider than a character, so it always reaches paper around one. */
const PAPER_RADIUS_INCHES = 1 / 12;
/** Half the width of the thickest stroke kept: a dark area that fills a window this wide is no character. */
const STROKE_RADIUS_INCHES = 1 / 40;
/** Levels at or above this (of 255, after the division) are paper. */
const PAPER_LEVEL = 235;
/** This share of the darker-than-paper pixels becomes pure black: the cores of the strokes. */
const BLACK_SHARE = 0.3;

export function evenBackground(image: GrayImage, dpi: number): GrayImage {
  const { width, height, data } = image;
  const paper = localMaximum(image, Math.max(4, Math.round(dpi * PAPER_RADIUS_INCHES)));
  // A closing (the brightest around, then the darkest of that): strokes vanish, wide dark areas keep their edges.
  const strokeRadius = Math.max(2, Math.round(dpi * STROKE_RADIUS_INCHES));
  const stroke = localMinimum({ width, height, data: localMaximum(image, strokeRadius) }, strokeRadius);
  const out = new Uint8Array(data.length);
  const histogram = new Uint32Array(256);
  let inked = 0;
  for (let i = 0; i < data.length; i++) {
    const background = Math.max(1, paper[i]!);
    const solid = (255 * stroke[i]!) / background < PAPER_LEVEL;
    const level = solid ? 255 : Math.min(255, Math.round((255 * data[i]!) / background));
    out[i] = level;
    histogram[level]!++;
    if (level < PAPER_LEVEL) inked++;
  }
  let black = 0;
  for (let seen = 0; black < PAPER_LEVEL; black++) {
    seen += histogram[black]!;
    if (seen >= inked * BLACK_SHARE) break;
  }
  const span = Math.max(1, PAPER_LEVEL - black);
  for (let i = 0; i < out.length; i++) {
    const level = out[i]!;
    out[i] = level >= PAPER_LEVEL ? 255 : level <= black ? 0 : Math.round(((level - black) * 255) / span);
  }
  return { width, height, data: out };
}

/** The darkest value within `radius` pixels: the brightest of the inverted image, inverted back. */
function localMinimum(image: GrayImage, radius: number): Uint8Array {
  const inverted = image.data.map((value) => 255 - value);
  return localMaximum({ ...image, data: inverted }, radius).map((value) => 255 - value);
}

/** The brightest value within `radius` pixels (a square window): a running maximum along rows, then columns. */
function localMaximum(image: GrayImage, radius: number): Uint8Array {
  const { width, height, data } = image;
  const rows = new Uint8Array(data.length);
  const both = new Uint8Array(data.length);
  const queue = new Int32Array(Math.max(width, height));
  for (let y = 0; y < height; y++) runningMaximum(data, rows, y * width, 1, width, radius, queue);
  for (let x = 0; x < width; x++) runningMaximum(rows, both, x, width, height, radius, queue);
  return both;
}

/**
 * One line of `count` values (from `start`, `step` apart): each output is the maximum of the inputs within `radius`
 * of it. A queue of candidate positions with falling values keeps this linear in the line's length.
 */
function runningMaximum(
  source: Uint8Array,
  target: Uint8Array,
  start: number,
  step: number,
  count: number,
  radius: number,
  queue: Int32Array,
): void {
  let head = 0;
  let tail = 0;
  for (let i = 0; i < count + radius; i++) {
    if (i < count) {
      const value = source[start + i * step]!;
      while (tail > head && source[start + queue[tail - 1]! * step]! <= value) tail--;
      queue[tail++] = i;
    }
    const at = i - radius;
    if (at < 0) continue;
    while (queue[head]! < at - radius) head++;
    target[start + at * step] = source[start + queue[head]! * step]!;
  }
}
