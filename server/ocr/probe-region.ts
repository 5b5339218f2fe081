import type { GrayImage } from './gray-image.ts';

/**
 * The part of a page a first, cheap reading looks at to tell the page's language: the densest band of text lines,
 * a few inches high. Tesseract's time grows with the text it reads, so reading a band costs a fraction of the page.
 */

/** About six lines of body text: some fifty words, enough function words to tell six languages apart. */
const BAND_INCHES = 1.25;
/** A page whose text is not much taller than the band is probed whole (and that reading may be kept). */
const WHOLE_PAGE_SHARE = 0.6;
/** How far a band edge may move to reach a gap between lines, so no line is cut in half. */
const EDGE_SLACK_INCHES = 0.4;

/** The band to probe, or the page itself when it has too little text for a band to save anything. */
export function probeRegion(image: GrayImage, dpi: number): GrayImage {
  const inked = inkedRows(image);
  const first = inked.indexOf(1);
  const last = inked.lastIndexOf(1);
  const band = Math.round(BAND_INCHES * dpi);
  if (first < 0 || band >= (last - first + 1) * WHOLE_PAGE_SHARE) return image;

  // Sliding window: the band where the most lines of text start (a letterhead in large type has few), then the
  // most inked rows.
  const starts = new Uint8Array(inked.length);
  for (let y = 1; y < inked.length; y++) starts[y] = inked[y] === 1 && inked[y - 1] === 0 ? 1 : 0;
  let lines = 0;
  let rows = 0;
  for (let y = first; y < first + band; y++) {
    lines += starts[y] ?? 0;
    rows += inked[y] ?? 0;
  }
  let best = lines * band + rows;
  let bestTop = first;
  for (let top = first + 1; top + band <= last + 1; top++) {
    lines += starts[top + band - 1]! - starts[top - 1]!;
    rows += inked[top + band - 1]! - inked[top - 1]!;
    const score = lines * band + rows;
    if (score > best) {
      best = score;
      bestTop = top;
    }
  }
  const slack = Math.round(EDGE_SLACK_INCHES * dpi);
  let top = bestTop;
  for (let moved = 0; top > 0 && inked[top] === 1 && moved < slack; moved++) top--;
  let bottom = Math.min(image.height, bestTop + band);
  for (let moved = 0; bottom < image.height && inked[bottom - 1] === 1 && moved < slack; moved++) bottom++;
  return cropRows(image, top, bottom);
}

/** 1 for each row with ink on it (more dark pixels than specks would make), else 0. */
function inkedRows(image: GrayImage): Uint8Array {
  const { width, height, data } = image;
  const minDark = Math.max(2, Math.floor(width / 500));
  const rows = new Uint8Array(height);
  for (let y = 0; y < height; y++) {
    let dark = 0;
    for (let i = y * width, end = i + width; i < end; i++) {
      if (data[i]! < 128 && ++dark >= minDark) {
        rows[y] = 1;
        break;
      }
    }
  }
  return rows;
}

function cropRows(image: GrayImage, top: number, bottom: number): GrayImage {
  return {
    width: image.width,
    height: bottom - top,
    data: image.data.subarray(top * image.width, bottom * image.width),
  };
}
