import { afterAll, describe, expect, it } from 'vitest';
import { analysePageGeometry } from '../../server/ocr/deskew.ts';
import { evenBackground } from '../../server/ocr/even-background.ts';
import type { GrayImage } from '../../server/ocr/gray-image.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { textImage } from './pipeline-fixtures.ts';

afterAll(async () => {
  await shutdownOcr();
});

/** An invented till slip: short lines, as a narrow roll prints them. */
const SLIP = [
  'LANTERN GROCERS',
  'Harbour Walk 12',
  'Bread loaf   3.10',
  'Oat milk     2.45',
  'Apples       4.80',
  'Honey jar    6.25',
  'Tea leaves   5.90',
  'Rice 1kg     2.70',
  'Lentils      1.95',
  'Butter       3.35',
  'TOTAL       30.50',
  'CASH        40.00',
  'CHANGE       9.50',
  'Thank you, see you soon',
];

/** Print faded to light gray (thermal paper), on a scanner bed that shows black above and beside the slip. */
function fadedOnDarkBed(page: GrayImage): GrayImage {
  const bed = Math.round(page.height * 0.12);
  const side = Math.round(page.width * 0.06);
  const width = page.width + side;
  const height = page.height + bed;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inPage = y >= bed && x >= side;
      data[y * width + x] = inPage
        ? 175 + Math.round((page.data[(y - bed) * page.width + (x - side)]! * 70) / 255)
        : 12;
    }
  }
  return { width, height, data };
}

describe('OCR of till receipts', () => {
  const slip = textImage(SLIP, { size: 26 });

  it('a till roll (much taller than wide) is upright, not sideways', () => {
    const roll = textImage([...SLIP, ...SLIP, ...SLIP], { size: 26 });
    expect(roll.height / roll.width).toBeGreaterThan(1.8);
    expect(analysePageGeometry(roll).sideways).toBe(false);
  });

  it('evening the background makes faded print black and the dark bed white', () => {
    const faded = fadedOnDarkBed(slip);
    const evened = evenBackground(faded, 300);
    // The bed's corner and the paper between lines become white; the strokes of the text black.
    expect(evened.data[0]).toBe(255);
    const dark = evened.data.filter((v) => v < 64).length;
    const ink = slip.data.filter((v) => v < 128).length;
    expect(dark).toBeGreaterThan(ink * 0.5);
    expect(dark).toBeLessThan(ink * 2);
  });

  it('reads faded print on a dark scanner bed: the merchant, the items and the total', async () => {
    const page = await ocrPage(fadedOnDarkBed(slip), 300, ['eng']);
    expect(page.text).toContain('LANTERN GROCERS');
    expect(page.text).toMatch(/TOTAL\s+30\.50/);
    expect(page.text).toMatch(/CHANGE\s+9\.50/);
  });
});
