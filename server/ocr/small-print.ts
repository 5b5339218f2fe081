import { glyphHeight } from './glyph-height.ts';
import { enlarge, type GrayImage } from './gray-image.ts';
import { MAX_OCR_PIXELS } from './image-decode.ts';

/**
 * Small print made big enough for tesseract. Its recogniser was trained on text lines a few dozen pixels high; a
 * phone photo of a till slip or a low-resolution scan gives characters 10-12 pixels high, where it drops whole
 * columns of figures (the totals at the right edge) and misreads names. Such a page is enlarged so its characters
 * are about TARGET_GLYPH_PX high; the resolution handed on grows with it, so everything measured in inches holds.
 */

/**
 * Characters at least this high are read well as they are. Enlarging pages of 12-17 px characters too lost more
 * fields than it won on the development sets (bilinear blur merges strokes of bold and condensed till print).
 */
const SMALL_GLYPH_PX = 12;
const TARGET_GLYPH_PX = 28;
/** Enlarging further only blurs: what is lost below this scale is not there to recover. */
const MAX_SCALE = 3;

export function enlargeSmallPrint(image: GrayImage, dpi: number): { image: GrayImage; dpi: number } {
  const height = glyphHeight(image);
  if (height === null || height >= SMALL_GLYPH_PX) return { image, dpi };
  const scale = Math.min(MAX_SCALE, TARGET_GLYPH_PX / height, Math.sqrt(MAX_OCR_PIXELS / (image.width * image.height)));
  if (scale < 1.2) return { image, dpi };
  return { image: enlarge(image, scale), dpi: dpi * scale };
}
