import { downscaleToFit, otsuThreshold, type GrayImage } from './gray-image.ts';

/** What the projection profiles say about how the text lies on a page. */
export interface PageGeometry {
  /** Skew of the text lines in degrees, clockwise as seen on screen, within ±MAX_SKEW. 0 when unsure. */
  skew: number;
  /** The lines run top to bottom: the page is turned by 90° one way or the other (which way, OSD or OCR decides). */
  sideways: boolean;
  /** How much sharper the best profile is than the unrotated one (1 = no gain); for diagnostics. */
  gain: number;
}

const MAX_SKEW = 10;
/** The analysis image: about 100 DPI for an A4 scan, enough to see lines, cheap to project. */
const ANALYSIS_SIDE = 1100;
const MIN_INK_PIXELS = 300;
/** At most this many ink pixels are projected (an even sample): the profile shape does not need all of them. */
const MAX_SAMPLES = 60_000;
/** Below this gain over 0° the page is treated as straight: a photo or a blank page has no lines to align. */
const MIN_SKEW_GAIN = 1.08;
/** How much sharper the vertical profile must be to call the page sideways. */
const SIDEWAYS_RATIO = 1.25;

/**
 * Finds skew and 90° turns by projection profiles on a downscaled, binarised copy: for each candidate angle the ink
 * is projected onto the line normal, and the angle whose profile has the sharpest steps (text lines vs. the gaps
 * between them) wins. Done for horizontal and vertical lines, which tells an upright page from a sideways one.
 */
export function analysePageGeometry(image: GrayImage): PageGeometry {
  const small = downscaleToFit(image, Infinity, ANALYSIS_SIDE);
  const threshold = Math.min(otsuThreshold(small), 200);
  const { width, height, data } = small;
  let ink = 0;
  for (const value of data) if (value < threshold) ink++;
  // Nothing to align, or a mostly dark picture (a photo, a negative): leave it as it is.
  if (ink < MIN_INK_PIXELS || ink > data.length * 0.4) return { skew: 0, sideways: false, gain: 1 };

  const stride = Math.max(1, Math.ceil(ink / MAX_SAMPLES));
  const count = Math.ceil(ink / stride);
  const xs = new Float32Array(count);
  const ys = new Float32Array(count);
  let n = 0;
  let seen = 0;
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x]! >= threshold) continue;
      if (seen++ % stride === 0 && n < count) {
        xs[n] = x - cx;
        ys[n] = y - cy;
        n++;
      }
    }
  }
  const span = Math.ceil(Math.hypot(width, height)) + 2;
  const bins = new Float64Array(span);

  // Sharpness of the profile of ink onto the normal of lines at `degrees` (vertical lines when `vertical`).
  const score = (degrees: number, vertical: boolean): number => {
    const rad = (degrees * Math.PI) / 180;
    const cos = Math.cos(rad);
    const sin = Math.sin(rad);
    bins.fill(0);
    const offset = span / 2;
    for (let i = 0; i < n; i++) {
      const r = vertical ? xs[i]! * cos + ys[i]! * sin : ys[i]! * cos - xs[i]! * sin;
      bins[(r + offset) | 0]!++;
    }
    let sum = 0;
    for (let i = 1; i < span; i++) sum += (bins[i]! - bins[i - 1]!) ** 2;
    return sum;
  };

  const search = (vertical: boolean): { angle: number; value: number } => {
    let best = { angle: 0, value: score(0, vertical) };
    for (let angle = -MAX_SKEW; angle <= MAX_SKEW; angle += 0.5) {
      const value = score(angle, vertical);
      if (value > best.value) best = { angle, value };
    }
    const coarse = best.angle;
    for (let angle = coarse - 0.4; angle <= coarse + 0.41; angle += 0.1) {
      const value = score(angle, vertical);
      if (value > best.value) best = { angle: Math.round(angle * 10) / 10, value };
    }
    return best;
  };

  const horizontal = search(false);
  const vertical = search(true);
  // A profile's sharpness grows as the same ink falls into fewer, fuller bins: weighed by the length it runs along,
  // a tall narrow page (a till roll) is not taken for a sideways one because its profile across is short.
  const sideways = vertical.value * width > horizontal.value * height * SIDEWAYS_RATIO;
  const best = sideways ? vertical : horizontal;
  const straight = score(0, sideways);
  const gain = straight > 0 ? best.value / straight : 1;
  return { skew: gain >= MIN_SKEW_GAIN ? best.angle : 0, sideways, gain };
}
