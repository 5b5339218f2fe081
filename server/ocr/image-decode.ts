import { createCanvas, loadImage } from '@napi-rs/canvas';
import UTIF from 'utif2';
import { errorMessage } from '../../common/errors.ts';
import { downscaleToFit, grayFromRgba, type GrayImage } from './gray-image.ts';
import { processingMessage } from '../../common/processing-messages.ts';

/**
 * Image files to grayscale pages for OCR. JPEG and PNG are decoded by skia (@napi-rs/canvas), TIFF (every page,
 * any compression UTIF knows: none, LZW, PackBits, Deflate, CCITT G3/G4, JPEG) by utif2. Pages are produced one at
 * a time so a long multi-page TIFF never has more than one decoded page in memory.
 */

export interface RasterPage {
  image: GrayImage;
  /** Resolution of `image` in dots per inch (declared by the file, or estimated from its size). */
  dpi: number;
  /** Something the reader should know (e.g. the file is truncated and only partly decoded). */
  warning?: string;
  /** Pages in the whole file (multi-page TIFF), when more than are decoded. */
  pagesInFile?: number;
}

/** More than this is never OCR'd at full size: ~A4 at 330 DPI. Bigger pages are scaled down while decoding. */
export const MAX_OCR_PIXELS = 11_000_000;
/** Files declaring more pixels than this are refused before decoding (decompression bombs). */
const MAX_DECLARED_PIXELS = 200_000_000;

export class ImageDecodeError extends Error {}

/** A plausible resolution: the declared one when it is sensible, else a guess assuming an A4-sized original. */
export function plausibleDpi(declared: number | null, width: number, height: number): number {
  if (declared !== null && declared >= 100 && declared <= 1200) return declared;
  return Math.min(600, Math.max(150, Math.round(Math.max(width, height) / 11.69)));
}

/** Width and height from a PNG IHDR or a JPEG SOF marker, without decoding. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + length;
  }
  return null;
}

/** Declared resolution of a PNG (pHYs) or JPEG (JFIF APP0), in DPI; null when absent. */
function declaredDpi(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0x89) {
    for (let at = 8; at + 12 <= bytes.length;) {
      const length = view.getUint32(at);
      const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
      if (type === 'pHYs' && length >= 9 && bytes[at + 16] === 1) return view.getUint32(at + 8) * 0.0254;
      if (type === 'IDAT' || type === 'IEND') return null;
      at += 12 + length;
    }
    return null;
  }
  // JFIF: FF D8 FF E0 len 'JFIF\0' version(2) units(1) xdensity(2) ydensity(2)
  if (bytes.length > 18 && bytes[3] === 0xe0 && String.fromCharCode(...bytes.subarray(6, 10)) === 'JFIF') {
    const units = bytes[13];
    const density = view.getUint16(14);
    if (units === 1) return density;
    if (units === 2) return density * 2.54;
  }
  return null;
}

/** A JPEG or PNG file as one grayscale page, scaled down to MAX_OCR_PIXELS if larger. */
export async function decodeJpegOrPng(bytes: Uint8Array): Promise<RasterPage> {
  const size = imageSize(bytes);
  if (!size || size.width < 1 || size.height < 1) throw new ImageDecodeError(processingMessage('imageHeader'));
  if (size.width * size.height > MAX_DECLARED_PIXELS) {
    throw new ImageDecodeError(processingMessage('imageTooLarge', { size: `${size.width}×${size.height}` }));
  }
  let image;
  try {
    image = await loadImage(bytes);
  } catch (error) {
    throw new ImageDecodeError(processingMessage('imageUndecodable', { reason: errorMessage(error) }));
  }
  const scale = Math.min(1, Math.sqrt(MAX_OCR_PIXELS / (image.width * image.height)));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  const gray = grayFromRgba(context.getImageData(0, 0, width, height).data, width, height);
  const dpi = plausibleDpi(declaredDpi(bytes), image.width, image.height) * scale;
  // Native pixel memory is released now rather than whenever the GC gets to these objects.
  canvas.width = 1;
  canvas.height = 1;
  // Skia decodes what it can of a cut-off file and fills the rest: worth reading, but not silently.
  return isComplete(bytes) ? { image: gray, dpi } : { image: gray, dpi, warning: processingMessage('imageTruncated') };
}

/** Whether a PNG has its IEND chunk, a JPEG its end-of-image marker (near the end: some writers pad). */
function isComplete(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(Math.max(0, bytes.length - 4096));
  if (bytes[0] === 0x89) return tail.includes('IEND', 0, 'latin1');
  return tail.includes(Buffer.from([0xff, 0xd9]));
}

const tagNumber = (ifd: UTIF.IFD, tag: string): number | null => {
  const value = ifd[tag];
  if (Array.isArray(value) && typeof value[0] === 'number') return value[0];
  return null;
};

function tiffDpi(ifd: UTIF.IFD): number | null {
  const value = ifd.t282;
  const unit = tagNumber(ifd, 't296') ?? 2;
  let resolution: number | null = null;
  // UTIF gives rationals either as [[num, den]] or already divided.
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (typeof first === 'number') resolution = first;
    else if (Array.isArray(first) && typeof first[0] === 'number' && typeof first[1] === 'number' && first[1] !== 0) {
      resolution = first[0] / first[1];
    }
  }
  if (resolution === null) return null;
  return unit === 3 ? resolution * 2.54 : unit === 2 ? resolution : null;
}

/** The first `maxPages` pages of a TIFF file (reduced-resolution previews skipped), decoded one at a time. */
export function* decodeTiffPages(bytes: Uint8Array, maxPages: number): Generator<RasterPage, void, void> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let ifds: UTIF.IFD[];
  try {
    ifds = UTIF.decode(buffer);
  } catch (error) {
    throw new ImageDecodeError(processingMessage('tiffUnreadable', { reason: errorMessage(error) }));
  }
  const pages = ifds.filter((ifd) => ((tagNumber(ifd, 't254') ?? 0) & 1) === 0 && tagNumber(ifd, 't256') !== null);
  if (pages.length === 0) throw new ImageDecodeError(processingMessage('tiffEmpty'));
  const pagesInFile = pages.length > maxPages ? { pagesInFile: pages.length } : {};
  for (const ifd of pages.slice(0, maxPages)) {
    const width = tagNumber(ifd, 't256') ?? 0;
    const height = tagNumber(ifd, 't257') ?? 0;
    if (width < 1 || height < 1 || width * height > MAX_DECLARED_PIXELS) {
      throw new ImageDecodeError(processingMessage('tiffPageTooLarge', { size: `${width}×${height}` }));
    }
    try {
      UTIF.decodeImage(buffer, ifd);
    } catch (error) {
      throw new ImageDecodeError(processingMessage('tiffPageUndecodable', { reason: errorMessage(error) }));
    }
    const full = grayFromRgba(UTIF.toRGBA8(ifd), ifd.width, ifd.height);
    // UTIF keeps the decoded strips on the IFD; drop them before the next page is decoded.
    ifd.data = new Uint8Array(0);
    // Area averaging (not sampling) when shrinking keeps the thin strokes of bilevel fax pages.
    const image = downscaleToFit(full, MAX_OCR_PIXELS);
    yield { image, dpi: plausibleDpi(tiffDpi(ifd), width, height) * (image.width / full.width), ...pagesInFile };
  }
}
