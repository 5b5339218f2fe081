/**
 * 8-bit grayscale rasters: the one pixel format the OCR code works on. A page at 300 DPI is ~9 MB this way
 * instead of ~35 MB as RGBA, and every pass (deskew, rotation, the image handed to tesseract) touches a quarter of
 * the bytes.
 */

export interface GrayImage {
  width: number;
  height: number;
  /** Row-major, one byte per pixel, 0 = black, 255 = white. */
  data: Uint8Array;
}

/** RGBA (straight alpha, as canvas and UTIF produce it) over a white background, to luma. */
export function grayFromRgba(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 4) {
    const alpha = rgba[p + 3]!;
    // Integer Rec. 601 weights (sum 256).
    const luma = (77 * rgba[p]! + 150 * rgba[p + 1]! + 29 * rgba[p + 2]!) >> 8;
    data[i] = alpha === 255 ? luma : 255 - ((((255 - luma) * alpha + 127) / 255) | 0);
  }
  return { width, height, data };
}

/** Shrinks by an area average so that the image fits in maxPixels (and maxSide, if given); never enlarges. */
export function downscaleToFit(image: GrayImage, maxPixels: number, maxSide = Infinity): GrayImage {
  const scale = Math.min(
    1,
    Math.sqrt(maxPixels / (image.width * image.height)),
    maxSide / Math.max(image.width, image.height),
  );
  if (scale >= 1) return image;
  return resize(image, Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
}

/** Area-averaging resize for shrinking (each target pixel is the mean of the source pixels it covers). */
export function resize(image: GrayImage, width: number, height: number): GrayImage {
  const { width: sw, height: sh, data: src } = image;
  const out = new Uint8Array(width * height);
  const fx = sw / width;
  const fy = sh / height;
  // Column spans are the same for every row: compute them once.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    x0s[x] = Math.floor(x * fx);
    x1s[x] = Math.max(x0s[x]! + 1, Math.min(sw, Math.floor((x + 1) * fx)));
  }
  const sums = new Uint32Array(width);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.min(sh, Math.floor((y + 1) * fy)));
    sums.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * sw;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let sx = x0s[x]!; sx < x1s[x]!; sx++) sum += src[row + sx]!;
        sums[x] = sums[x]! + sum;
      }
    }
    for (let x = 0; x < width; x++) out[y * width + x] = Math.round(sums[x]! / ((y1 - y0) * (x1s[x]! - x0s[x]!)));
  }
  return { width, height, data: out };
}

/** Bilinear enlargement by `scale` (> 1): smooth edges that tesseract binarises better than blocky pixels. */
export function enlarge(image: GrayImage, scale: number): GrayImage {
  const { width: sw, height: sh, data: src } = image;
  const width = Math.max(1, Math.round(sw * scale));
  const height = Math.max(1, Math.round(sh * scale));
  const out = new Uint8Array(width * height);
  const fx = sw / width;
  const fy = sh / height;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = sy | 0;
    const y1 = y0 + 1 < sh ? y0 + 1 : y0;
    const ay = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
      const x0 = sx | 0;
      const x1 = x0 + 1 < sw ? x0 + 1 : x0;
      const ax = sx - x0;
      const upper = src[y0 * sw + x0]! + (src[y0 * sw + x1]! - src[y0 * sw + x0]!) * ax;
      const lower = src[y1 * sw + x0]! + (src[y1 * sw + x1]! - src[y1 * sw + x0]!) * ax;
      out[y * width + x] = upper + (lower - upper) * ay + 0.5;
    }
  }
  return { width, height, data: out };
}

/** Exact rotation by a multiple of 90° clockwise. */
export function rotateQuarter(image: GrayImage, quarters: number): GrayImage {
  const q = ((quarters % 4) + 4) % 4;
  if (q === 0) return image;
  const { width: w, height: h, data: src } = image;
  const out = new Uint8Array(w * h);
  if (q === 2) {
    for (let i = 0, j = w * h - 1; i < out.length; i++, j--) out[i] = src[j]!;
    return { width: w, height: h, data: out };
  }
  // Target is h wide, w high.
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      // 90° clockwise: (x, y) → (h-1-y, x); 270°: (x, y) → (y, w-1-x).
      const target = q === 1 ? x * h + (h - 1 - y) : (w - 1 - x) * h + y;
      out[target] = src[row + x]!;
    }
  }
  return { width: h, height: w, data: out };
}

/** How many pixels have each gray level. */
export function histogramOf(values: Uint8Array): Uint32Array {
  const histogram = new Uint32Array(256);
  for (const value of values) histogram[value]!++;
  return histogram;
}

/** The level below which `share` of the `count` values lie. */
export function percentile(histogram: Uint32Array, count: number, share: number): number {
  const wanted = count * share;
  let seen = 0;
  for (let level = 0; level < 256; level++) {
    seen += histogram[level]!;
    if (seen > wanted) return level;
  }
  return 255;
}

/** The paper's shade: 90 % of the pixels are darker (text and surroundings take well under half of a page). */
export function paperShade(image: GrayImage): number {
  return percentile(histogramOf(image.data), image.data.length, 0.9);
}

/** Paper within this many levels of white takes white corners when turned (see rotate). */
const NEAR_WHITE = 48;

/**
 * Rotation by an arbitrary angle (degrees, clockwise as seen on screen) about the centre, bilinear. The canvas grows
 * to hold the whole rotated page, so no text is cut off. Uncovered corners are white on light paper and the paper's
 * shade on grey paper: white corners on grey thermal paper made tesseract's threshold fall between them and the
 * paper, so the page read as solid black; on light paper the paper's shade read worse than white on some development
 * receipts, so white stays there.
 */
export function rotate(image: GrayImage, degrees: number): GrayImage {
  const turns = Math.round(degrees / 90);
  const rest = degrees - turns * 90;
  const quartered = rotateQuarter(image, turns);
  if (Math.abs(rest) < 0.01) return quartered;
  const { width: w, height: h, data: src } = quartered;
  const rad = (rest * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const width = Math.ceil(Math.abs(w * cos) + Math.abs(h * sin));
  const height = Math.ceil(Math.abs(w * sin) + Math.abs(h * cos));
  const paper = paperShade(quartered);
  const out = new Uint8Array(width * height).fill(255 - paper < NEAR_WHITE ? 255 : paper);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const ox = (width - 1) / 2;
  const oy = (height - 1) / 2;
  for (let y = 0; y < height; y++) {
    const dy = y - oy;
    // Inverse mapping: source = R(-angle) · (target - centre) + centre.
    let sx = -(ox * cos) + dy * sin + cx;
    let sy = ox * sin + dy * cos + cy;
    for (let x = 0; x < width; x++, sx += cos, sy -= sin) {
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) continue;
      const x0 = sx | 0;
      const y0 = sy | 0;
      const x1 = x0 + 1 < w ? x0 + 1 : x0;
      const y1 = y0 + 1 < h ? y0 + 1 : y0;
      const ax = sx - x0;
      const ay = sy - y0;
      const top = src[y0 * w + x0]! + (src[y0 * w + x1]! - src[y0 * w + x0]!) * ax;
      const bottom = src[y1 * w + x0]! + (src[y1 * w + x1]! - src[y1 * w + x0]!) * ax;
      out[y * width + x] = top + (bottom - top) * ay + 0.5;
    }
  }
  return { width, height, data: out };
}

/** Otsu's threshold: the gray level that best separates ink from paper. */
export function otsuThreshold(image: GrayImage): number {
  const histogram = new Float64Array(256);
  for (const value of image.data) histogram[value]!++;
  const total = image.data.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * histogram[i]!;
  let sumBelow = 0;
  let weightBelow = 0;
  let best = 127;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    weightBelow += histogram[t]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const variance = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}

/** Ink is at least this much darker than the paper (0-255 levels): grain and specks of a blank page are not. */
const INK_CONTRAST = 40;

/**
 * Whether an image has anything dark enough to be text: at least one pixel in 5,000 clearly darker than its paper,
 * on an image big enough to hold a character. A blank page or a placeholder pixel never reaches the OCR engine.
 * Darker than the paper, not than mid-grey: the faint print of a fading till slip (grey 150-200 on white) is ink.
 */
export function hasInk(image: GrayImage): boolean {
  if (image.width < 8 || image.height < 8) return false;
  const ink = paperShade(image) - INK_CONTRAST;
  const limit = image.data.length / 5000;
  let dark = 0;
  for (const value of image.data) if (value < ink && ++dark > limit) return true;
  return false;
}

/** Portable graymap (binary PGM): leptonica inside tesseract reads it with no decoding cost. */
export function toPgm(image: GrayImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header, 0);
  out.set(image.data, header.length);
  return out;
}

/**
 * Uncompressed 8-bit grayscale TIFF carrying the resolution: tesseract reads it as cheaply as a PGM, and knowing
 * the DPI it does not have to guess (nor warn about guessing).
 */
export function toTiff(image: GrayImage, dpi: number): Uint8Array {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, image.width], // ImageWidth
    [257, 4, image.height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: BlackIsZero
    [273, 4, 0], // StripOffsets (patched below)
    [277, 3, 1], // SamplesPerPixel
    [278, 4, image.height], // RowsPerStrip
    [279, 4, image.data.length], // StripByteCounts
    [282, 5, 0], // XResolution (offset of a rational, patched below)
    [283, 5, 0], // YResolution
    [296, 3, 2], // ResolutionUnit: inch
  ];
  const ifdOffset = 8;
  const ifdSize = 2 + entries.length * 12 + 4;
  const rationalOffset = ifdOffset + ifdSize;
  const dataOffset = rationalOffset + 8;
  const out = new Uint8Array(dataOffset + image.data.length);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0]); // little endian, magic 42
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, entries.length, true);
  entries.forEach(([tag, type, value], i) => {
    const at = ifdOffset + 2 + i * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, 1, true);
    const patched = tag === 273 ? dataOffset : tag === 282 || tag === 283 ? rationalOffset : value;
    if (type === 3) view.setUint16(at + 8, patched, true);
    else view.setUint32(at + 8, patched, true);
  });
  view.setUint32(ifdOffset + 2 + entries.length * 12, 0, true); // no next IFD
  view.setUint32(rationalOffset, Math.max(1, Math.round(dpi)), true);
  view.setUint32(rationalOffset + 4, 1, true);
  out.set(image.data, dataOffset);
  return out;
}
