import { histogramOf, paperShade, percentile, type GrayImage } from './gray-image.ts';

/**
 * A photo of a page (or a scan of a slip) usually shows the darker surface around the paper. Tesseract's automatic
 * page segmentation takes that frame for a picture region and drops the text near it: on such photos whole columns of
 * right-aligned prices and totals vanished from the reading while the same page without the frame read in full. The
 * surface connected to the image's edge is painted the paper's shade before reading; text is untouched, since paper
 * surrounds it and the fill never crosses paper.
 *
 * Only a frame is cleared: most of the image's outer ring must be clearly darker than the paper, so a scan whose dark
 * letterhead band or photo merely touches one edge is left as it is.
 */

/** The surface must be at least this much darker than the paper to be told apart from it (0-255 levels). */
const MIN_CONTRAST = 48;
/** At least this share of the outer ring must be surface: a frame around the page, not a band at one edge. */
const MIN_FRAME_SHARE = 0.6;
/** A frame larger than this share of the image has run into the page (grey paper, uneven light): nothing is changed. */
const MAX_FRAME_AREA = 0.5;

export function clearSurroundings(image: GrayImage): GrayImage {
  const { width, height, data } = image;
  if (width < 3 || height < 3) return image;
  const paper = paperShade(image);
  const ring = outerRing(image);
  const surface = percentile(histogramOf(ring), ring.length, 0.5);
  if (paper - surface < MIN_CONTRAST) return image;
  const limit = (paper + surface) / 2;
  let dark = 0;
  for (const value of ring) if (value < limit) dark++;
  if (dark < ring.length * MIN_FRAME_SHARE) return image;

  const queued = new Uint8Array(data.length);
  const queue = new Int32Array(data.length);
  let head = 0;
  let tail = 0;
  const visit = (i: number): void => {
    if (queued[i] === 0 && data[i]! < limit) {
      queued[i] = 1;
      queue[tail++] = i;
    }
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % width;
    if (x > 0) visit(i - 1);
    if (x < width - 1) visit(i + 1);
    if (i >= width) visit(i - width);
    if (i < data.length - width) visit(i + width);
  }
  if (tail > data.length * MAX_FRAME_AREA) return image;
  const cleared = Uint8Array.from(data);
  for (let n = 0; n < tail; n++) cleared[queue[n]!] = paper;
  return { width, height, data: cleared };
}

function outerRing({ width, height, data }: GrayImage): Uint8Array {
  const ring = new Uint8Array(2 * width + 2 * (height - 2));
  let n = 0;
  for (let x = 0; x < width; x++) {
    ring[n++] = data[x]!;
    ring[n++] = data[(height - 1) * width + x]!;
  }
  for (let y = 1; y < height - 1; y++) {
    ring[n++] = data[y * width]!;
    ring[n++] = data[y * width + width - 1]!;
  }
  return ring;
}
