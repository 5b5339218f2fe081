import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { firstTiffPage } from '../../renderer/src/lib/tiff.ts';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'corpus');
const arrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

describe('TIFF preview decoding (renderer, utif2)', () => {
  it('decodes the first page of a multi-page PackBits scan to RGBA', async () => {
    const page = firstTiffPage(UTIF, arrayBuffer(await readFile(join(CORPUS, 'doc-05.tif'))));
    expect([page.width, page.height]).toEqual([1654, 2339]);
    expect(page.rgba).toHaveLength(1654 * 2339 * 4);
    // A scan: mostly white paper, some dark ink, fully opaque.
    let dark = 0;
    for (let i = 0; i < page.rgba.length; i += 4) if (page.rgba[i]! < 128) dark++;
    expect(dark).toBeGreaterThan(1000);
    expect(dark).toBeLessThan((1654 * 2339) / 2);
    expect(page.rgba[3]).toBe(255);
  });

  it('decodes an uncompressed RGB TIFF pixel for pixel', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255]);
    const page = firstTiffPage(UTIF, UTIF.encodeImage(rgba, 2, 2));
    expect([page.width, page.height]).toEqual([2, 2]);
    expect([...page.rgba]).toEqual([...rgba]);
  });

  it('refuses what it cannot show instead of hanging the window', () => {
    expect(() => firstTiffPage(UTIF, new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0]).buffer)).toThrow(
      /no image/,
    );
    const huge = UTIF.encodeImage(new Uint8Array(4), 1, 1);
    const view = new DataView(huge);
    // Rewrite the declared width and height (tags 256, 257; SHORTs in a big-endian file) to 60,000 pixels each: a
    // decompression bomb is refused before decoding.
    const entries = view.getUint16(view.getUint32(4, false), false);
    for (let i = 0, at = view.getUint32(4, false) + 2; i < entries; i++, at += 12) {
      if (view.getUint16(at, false) === 256 || view.getUint16(at, false) === 257) view.setUint16(at + 8, 60_000, false);
    }
    expect(() => firstTiffPage(UTIF, huge)).toThrow(/too large/);
  });
});
