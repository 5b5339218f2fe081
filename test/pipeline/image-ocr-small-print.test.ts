/**
 * Small print (a low-resolution scan or photo of a till slip, characters about 9 pixels high) is enlarged before
 * OCR: read as it is, tesseract loses the decimal points of the figures. The slip is invented.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { glyphHeight } from '../../server/ocr/glyph-height.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import { enlargeSmallPrint } from '../../server/ocr/small-print.ts';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { textImage } from './pipeline-fixtures.ts';

afterAll(async () => {
  await shutdownOcr();
});

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

describe('small print', () => {
  it('measures the height of the characters', () => {
    const small = glyphHeight(textImage(SLIP, { size: 12 }))!;
    const large = glyphHeight(textImage(SLIP, { size: 36 }))!;
    expect(small).toBeGreaterThanOrEqual(7);
    expect(small).toBeLessThanOrEqual(11);
    expect(large / small).toBeGreaterThan(2.5);
    expect(large / small).toBeLessThan(3.5);
  });

  it('enlarges small print only, and the resolution with it', () => {
    const small = textImage(SLIP, { size: 12 });
    const enlarged = enlargeSmallPrint(small, 150);
    expect(enlarged.image.width / small.width).toBeGreaterThan(2);
    expect(enlarged.dpi / 150).toBeCloseTo(enlarged.image.width / small.width, 1);
    const large = textImage(SLIP, { size: 36 });
    expect(enlargeSmallPrint(large, 300).image).toBe(large);
  });

  it('reads the figures of a slip printed small, decimal points included', async () => {
    const page = await ocrPage(textImage(SLIP, { size: 12 }), 150, ['eng']);
    expect(page.text).toMatch(/TOTAL\s+30\.50/);
    expect(page.text).toMatch(/CASH\s+40\.00/);
    expect(page.text).toMatch(/CHANGE\s+9\.50/);
    // Word boxes stay fractions of the page as given.
    expect(Math.max(...page.boxes.map((b) => b.x + b.width))).toBeLessThanOrEqual(1);
  });
});
