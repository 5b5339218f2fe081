/**
 * Minimal grayscale PNG and TIFF writers. The canvas library writes RGBA PNG only, and UTIF.encodeImage writes
 * uncompressed RGBA TIFF (15 MB per A4 page at 200 dpi); scanners write 8-bit grey or 1-bit black and white.
 */
import { crc32, deflateSync } from 'node:zlib';

export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** 8-bit greyscale PNG; each row filtered with "Up" when that is smaller, which suits scanned pages. */
export function encodeGrayPng(image: GrayImage, dpi: number): Uint8Array {
  const { width, height, data } = image;
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width + 1);
    raw[row] = y === 0 ? 0 : 2;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x]!;
      raw[row + 1 + x] = y === 0 ? v : (v - data[(y - 1) * width + x]!) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const phys = Buffer.alloc(9);
  const ppm = Math.round(dpi / 0.0254);
  phys.writeUInt32BE(ppm, 0);
  phys.writeUInt32BE(ppm, 4);
  phys[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('pHYs', phys),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function packBits(row: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < row.length) {
    let run = 1;
    while (i + run < row.length && run < 128 && row[i + run] === row[i]) run++;
    if (run > 1) {
      out.push(257 - run, row[i]!);
      i += run;
      continue;
    }
    const start = i;
    let literal = 0;
    while (i < row.length && literal < 128 && !(i + 1 < row.length && row[i + 1] === row[i])) {
      i++;
      literal++;
    }
    out.push(literal - 1);
    for (let k = start; k < start + literal; k++) out.push(row[k]!);
  }
  return out;
}

export interface TiffPage {
  image: GrayImage;
  bilevel: boolean;
  dpi: number;
}

/** Grey level below which a pixel turns black in bilevel pages; high enough to keep grey small print. */
const BILEVEL_THRESHOLD = 172;

/**
 * Multi-page baseline TIFF (little-endian). Bilevel pages: 1 bit, PackBits, WhiteIsZero = 0 (black is 0);
 * grey pages: 8 bit, Adobe Deflate. One strip per page.
 */
export function encodeTiff(pages: TiffPage[]): Uint8Array {
  const chunks: Buffer[] = [];
  let offset = 8;
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0, 0, 0, 0]);
  chunks.push(header);
  const ifdOffsets: number[] = [];
  const ifdBuffers: Array<{ buffer: Buffer; nextAt: number }> = [];

  for (const page of pages) {
    const { width, height, data } = page.image;
    let strip: Buffer;
    if (page.bilevel) {
      const rowBytes = Math.ceil(width / 8);
      const packed: number[] = [];
      const row = new Uint8Array(rowBytes);
      for (let y = 0; y < height; y++) {
        row.fill(0);
        for (let x = 0; x < width; x++) {
          // Photometric BlackIsZero: bit 1 = white.
          if (data[y * width + x]! >= BILEVEL_THRESHOLD) row[x >> 3]! |= 0x80 >> (x & 7);
        }
        for (const b of packBits(row)) packed.push(b & 0xff);
      }
      strip = Buffer.from(packed);
    } else {
      strip = deflateSync(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { level: 9 });
    }
    const stripOffset = offset;
    chunks.push(strip);
    offset += strip.length;
    if (offset % 2) {
      chunks.push(Buffer.from([0]));
      offset++;
    }
    // Resolution rationals live after the IFD.
    const entries: Array<[number, number, number, number]> = [
      [256, 4, 1, width],
      [257, 4, 1, height],
      [258, 3, 1, page.bilevel ? 1 : 8],
      [259, 3, 1, page.bilevel ? 32773 : 8],
      [262, 3, 1, 1],
      [273, 4, 1, stripOffset],
      [277, 3, 1, 1],
      [278, 4, 1, height],
      [279, 4, 1, strip.length],
      [282, 5, 1, 0],
      [283, 5, 1, 0],
      [296, 3, 1, 2],
    ];
    const ifdSize = 2 + entries.length * 12 + 4;
    const ifdOffset = offset;
    const rationalAt = ifdOffset + ifdSize;
    const buffer = Buffer.alloc(ifdSize + 16);
    buffer.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, count, value], i) => {
      const at = 2 + i * 12;
      buffer.writeUInt16LE(tag, at);
      buffer.writeUInt16LE(type, at + 2);
      buffer.writeUInt32LE(count, at + 4);
      if (tag === 282) buffer.writeUInt32LE(rationalAt, at + 8);
      else if (tag === 283) buffer.writeUInt32LE(rationalAt + 8, at + 8);
      else if (type === 3) buffer.writeUInt16LE(value, at + 8);
      else buffer.writeUInt32LE(value, at + 8);
    });
    buffer.writeUInt32LE(page.dpi, ifdSize);
    buffer.writeUInt32LE(1, ifdSize + 4);
    buffer.writeUInt32LE(page.dpi, ifdSize + 8);
    buffer.writeUInt32LE(1, ifdSize + 12);
    ifdOffsets.push(ifdOffset);
    ifdBuffers.push({ buffer, nextAt: 2 + entries.length * 12 });
    chunks.push(buffer);
    offset += buffer.length;
  }
  header.writeUInt32LE(ifdOffsets[0]!, 4);
  ifdBuffers.forEach(({ buffer, nextAt }, i) => buffer.writeUInt32LE(ifdOffsets[i + 1] ?? 0, nextAt));
  return Buffer.concat(chunks);
}
