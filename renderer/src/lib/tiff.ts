import type UTIF from 'utif2';

/**
 * TIFF scans in the preview and the grid: browsers (Chromium, so Electron too) cannot show TIFF, so the first page is
 * decoded here with utif2 (loaded only when a TIFF is shown) and drawn as a PNG. The file already comes through the
 * preview URL; nothing in main changes.
 */

/** Declared pixels beyond this are not decoded in the window (a decompression bomb, or a poster-sized scan). */
const MAX_PIXELS = 60_000_000;

export interface RgbaPage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray<ArrayBuffer>;
}

type Utif = typeof UTIF;

function tag(ifd: UTIF.IFD, name: string): number | null {
  const value = ifd[name];
  return Array.isArray(value) && typeof value[0] === 'number' ? value[0] : null;
}

/** The first page of a TIFF as RGBA pixels (reduced-resolution subfiles, e.g. embedded thumbnails, are skipped). */
export function firstTiffPage(utif: Utif, buffer: ArrayBuffer): RgbaPage {
  const page = utif.decode(buffer).find((ifd) => ((tag(ifd, 't254') ?? 0) & 1) === 0 && tag(ifd, 't256') !== null);
  if (!page) throw new Error('the TIFF file has no image');
  const declared = (tag(page, 't256') ?? 0) * (tag(page, 't257') ?? 0);
  if (declared > MAX_PIXELS) throw new Error('the TIFF image is too large to preview');
  utif.decodeImage(buffer, page);
  if (!page.width || !page.height) throw new Error('the TIFF image could not be decoded');
  const rgba = utif.toRGBA8(page);
  // utif2 allocates a plain ArrayBuffer (never shared memory); ImageData wants it typed so.
  return {
    width: page.width,
    height: page.height,
    rgba: new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.byteLength),
  };
}

/** The first page of the TIFF at `url` as a PNG object URL, at most `maxWidth` pixels wide (the caller revokes it). */
export async function tiffPreviewUrl(url: string, maxWidth = Infinity): Promise<string> {
  const [{ default: utif }, response] = await Promise.all([import('utif2'), fetch(url)]);
  if (!response.ok) throw new Error(`the preview answered ${response.status}`);
  const page = firstTiffPage(utif, await response.arrayBuffer());
  const full = document.createElement('canvas');
  full.width = page.width;
  full.height = page.height;
  full.getContext('2d')?.putImageData(new ImageData(page.rgba, page.width, page.height), 0, 0);
  let canvas = full;
  if (page.width > maxWidth) {
    canvas = document.createElement('canvas');
    canvas.width = Math.floor(maxWidth);
    canvas.height = Math.max(1, Math.round(page.height * (maxWidth / page.width)));
    canvas.getContext('2d')?.drawImage(full, 0, 0, canvas.width, canvas.height);
  }
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the TIFF page could not be drawn');
  return URL.createObjectURL(blob);
}
