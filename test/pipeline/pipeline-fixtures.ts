/**
 * Documents the text-extraction tests and the pipeline benchmark build on the fly: PDFs with pdf-lib, page images
 * with @napi-rs/canvas (a font shipped with pdfjs-dist, so the rendering is the same on every machine), TIFFs with
 * UTIF's IFD writer.
 */
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { crc32 } from 'node:zlib';
import UTIF from 'utif2';
import { grayFromRgba, rotate, type GrayImage } from '../../server/ocr/gray-image.ts';
import { analyze } from '../../server/pipeline/analyze.ts';
import type { Analysis } from '../../server/pipeline/analysis.ts';
import type { FileFormat } from '../../common/archive-types.ts';

const require = createRequire(import.meta.url);
export const FONT_FAMILY = 'PipelineTestSans';
GlobalFonts.registerFromPath(
  join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf'),
  FONT_FAMILY,
);

export interface TextPlacement {
  text: string;
  x: number;
  y: number;
  size?: number;
}

/**
 * A one-page-per-entry PDF with text drawn at the given positions (points, origin bottom left), in the order given:
 * the content stream order is the array order, whatever the positions.
 */
export async function makeTextPdf(pages: ReadonlyArray<readonly TextPlacement[]>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const placements of pages) {
    const page = pdf.addPage([595, 842]);
    for (const p of placements) page.drawText(p.text, { x: p.x, y: p.y, size: p.size ?? 11, font });
  }
  return pdf.save();
}

/** Renders lines of text black on white at `size` px, with a margin; an image like a clean scan. */
export function textImage(
  lines: readonly string[],
  options: { size?: number; width?: number; height?: number } = {},
): GrayImage {
  const size = options.size ?? 32;
  const width = options.width ?? Math.ceil(Math.max(...lines.map((l) => l.length)) * size * 0.55 + size * 4);
  const height = options.height ?? Math.ceil(lines.length * size * 1.6 + size * 4);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  context.font = `${size}px ${FONT_FAMILY}`;
  lines.forEach((line, i) => context.fillText(line, size * 2, size * 2.5 + i * size * 1.6));
  return grayFromRgba(context.getImageData(0, 0, width, height).data, width, height);
}

/**
 * A canvas of `width` × `height` filled with gray `shade` (0-255), whose drawing from here on is turned by `degrees`
 * about its centre: a page photographed or scanned askew.
 */
export function turnedCanvas(width: number, height: number, shade: number, degrees: number): SKRSContext2D {
  const context = createCanvas(width, height).getContext('2d');
  context.fillStyle = `rgb(${shade},${shade},${shade})`;
  context.fillRect(0, 0, width, height);
  context.translate(width / 2, height / 2);
  context.rotate((degrees * Math.PI) / 180);
  context.translate(-width / 2, -height / 2);
  return context;
}

export { rotate };

function toCanvas(image: GrayImage): Canvas {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const data = context.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) {
    data.data[i * 4] = data.data[i * 4 + 1] = data.data[i * 4 + 2] = image.data[i]!;
    data.data[i * 4 + 3] = 255;
  }
  context.putImageData(data, 0, 0);
  return canvas;
}

export const encodePng = (image: GrayImage): Uint8Array => toCanvas(image).toBuffer('image/png');
export const encodeJpeg = (image: GrayImage, quality = 90): Uint8Array =>
  toCanvas(image).toBuffer('image/jpeg', quality);

/**
 * A multi-page, uncompressed TIFF (IFDs written by UTIF, pixel strips appended): 8-bit grayscale, or bilevel
 * (1 bit, WhiteIsZero, as fax-style scanners write it).
 */
export function encodeTiff(pages: readonly GrayImage[], dpi = 300, options: { bilevel?: boolean } = {}): Uint8Array {
  const strips = pages.map((page) => (options.bilevel ? packBits(page) : page.data));
  const headerRoom = 4096 + pages.length * 512;
  let offset = headerRoom;
  const ifds = pages.map((page, i) => {
    const ifd = {
      t256: [page.width],
      t257: [page.height],
      t258: [options.bilevel ? 1 : 8],
      t259: [1],
      t262: [options.bilevel ? 0 : 1],
      t273: [offset],
      t277: [1],
      t278: [page.height],
      t279: [strips[i]!.length],
      t282: [[dpi, 1]],
      t283: [[dpi, 1]],
      t296: [2],
    };
    offset += strips[i]!.length;
    return ifd;
  });
  const head = new Uint8Array(UTIF.encode(ifds as unknown as UTIF.IFD[]));
  if (head.length > headerRoom) throw new Error('TIFF header larger than reserved');
  const out = new Uint8Array(offset);
  out.set(head, 0);
  let at = headerRoom;
  for (const strip of strips) {
    out.set(strip, at);
    at += strip.length;
  }
  return out;
}

/** 1 bit per pixel, rows padded to whole bytes, 1 = black (WhiteIsZero). */
function packBits(image: GrayImage): Uint8Array {
  const rowBytes = Math.ceil(image.width / 8);
  const out = new Uint8Array(rowBytes * image.height);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x]! < 128) out[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return out;
}

/** A PDF whose pages are only images (a scan): each image fills an A4 page at `dpi`. */
export async function makeScannedPdf(
  images: readonly GrayImage[],
  dpi = 300,
  format: 'png' | 'jpeg' = 'png',
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const image of images) {
    const embedded = format === 'png' ? await pdf.embedPng(encodePng(image)) : await pdf.embedJpg(encodeJpeg(image));
    const width = (image.width / dpi) * 72;
    const height = (image.height / dpi) * 72;
    const page = pdf.addPage([width, height]);
    page.drawImage(embedded, { x: 0, y: 0, width, height });
  }
  return pdf.save();
}

/** Runs the whole analysis on bytes written to a temp file. */
export async function analyzeBytes(
  dir: string,
  name: string,
  format: FileFormat,
  bytes: Uint8Array,
  extra: Record<string, unknown> = {},
): Promise<Analysis> {
  const { writeFile } = await import('node:fs/promises');
  const filePath = join(dir, name);
  await writeFile(filePath, bytes);
  return analyze({
    documentId: '00000000-0000-4000-8000-000000000000',
    filePath,
    format,
    originalFilename: name,
    categories: [],
    today: '2024-06-01',
    ...extra,
  });
}

/** The zip with the compressed bytes of one entry scrambled; its directory (and so its detected format) intact. */
export function corruptEntry(zip: Uint8Array, entryName: string): Uint8Array {
  const out = Uint8Array.from(zip);
  const view = Buffer.from(out.buffer);
  // Sizes and offsets from the central directory: local headers may defer them to a data descriptor.
  for (let at = view.indexOf('PK\x01\x02', 0, 'latin1'); at >= 0; at = view.indexOf('PK\x01\x02', at + 4, 'latin1')) {
    const nameLength = view.readUInt16LE(at + 28);
    if (view.toString('utf8', at + 46, at + 46 + nameLength) !== entryName) continue;
    const size = view.readUInt32LE(at + 20);
    const local = view.readUInt32LE(at + 42);
    const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
    for (let i = start; i < start + size; i++) out[i] = out[i]! ^ 0xa5;
    return out;
  }
  throw new Error(`${entryName} not in zip`);
}

/** A zip with every entry stored (no compression). */
export function storedZip(entries: ReadonlyArray<{ name: string; data: Buffer }>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]));
}
