/**
 * Paper that is not white and print that is not black, as on till slips. A scan of grey thermal paper, slightly
 * skewed: straightening it uncovers the corners; painted white, they made tesseract's threshold fall between them
 * and the paper, so the whole page read as black. Faded print on white: no pixel darker than mid-grey, so the page
 * was taken for blank. The slips are invented.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { grayFromRgba, hasInk, paperShade, rotate, type GrayImage } from '../../server/ocr/gray-image.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { FONT_FAMILY, textImage, turnedCanvas } from './pipeline-fixtures.ts';

afterAll(async () => {
  await shutdownOcr();
});

const PAPER = 140;
/** Faded thermal print: not much darker than the paper. */
const PRINT = 95;
/** The paper's grain: a sum of three uniform offsets of up to ±12 levels (a fixed pseudo-random sequence). */
const GRAIN = 8;
const LINES = [
  'HILLSIDE HARDWARE',
  'Wood screws 4x40   6.20',
  'Wall plugs x50   3.15',
  'TOTAL   9.35',
  'CASH 20.00',
  'CHANGE 10.65',
];

/** The paper's grain as a sequence of offsets, the same for the same seed. */
function grainFrom(seed: number): () => number {
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  return () => (random() + random() + random() - 1.5) * GRAIN;
}

/** A till slip's long strip of grainy grey paper to the image's edges, faded print, turned by `degrees`. */
function greySlip(degrees: number): GrayImage {
  const width = 620;
  const height = 1800;
  const context = turnedCanvas(width, height, PAPER, degrees);
  context.fillStyle = `rgb(${PRINT},${PRINT},${PRINT})`;
  context.font = `22px ${FONT_FAMILY}`;
  for (let block = 0; block < 4; block++)
    LINES.forEach((line, i) => context.fillText(line, 40, 150 + block * 420 + i * 60));
  const slip = grayFromRgba(context.getImageData(0, 0, width, height).data, width, height);
  const grain = grainFrom(7);
  for (let i = 0; i < slip.data.length; i++) slip.data[i] = Math.max(0, Math.min(255, slip.data[i]! + grain()));
  return slip;
}

describe('straightening a page of grey paper', () => {
  it('fills the uncovered corners of grey paper with its shade, not white', () => {
    const slip = greySlip(0);
    expect(Math.abs(paperShade(slip) - PAPER)).toBeLessThanOrEqual(GRAIN);
    const turned = rotate(slip, 2);
    expect(turned.width).toBeGreaterThan(slip.width);
    expect(turned.data[0]).toBe(paperShade(slip));
    expect(turned.data[turned.data.length - 1]).toBe(paperShade(slip));
    // Light paper keeps white corners.
    const light = { ...slip, data: slip.data.map((value) => Math.min(255, value + 80)) };
    expect(paperShade(light)).toBeGreaterThan(255 - 48);
    expect(rotate(light, 2).data[0]).toBe(255);
  });

  it('reads the skewed slip', async () => {
    const page = await ocrPage(greySlip(1), 200, ['eng']);
    expect(page.text).toContain('HILLSIDE HARDWARE');
    expect(page.text).toMatch(/TOTAL\s+9\.35/);
  });
});

/** `image` with every pixel's darkness scaled by `share` (0.3: black print becomes grey 179). */
function faded(image: GrayImage, share: number): GrayImage {
  return { ...image, data: image.data.map((value) => 255 - Math.round((255 - value) * share)) };
}

describe('faded print', () => {
  const slip = textImage(['CORNER KIOSK', 'Newspaper   2.40', 'Coffee   3.10', 'TOTAL   5.50']);

  it('counts as ink, while grain on a blank page does not', () => {
    expect(hasInk(faded(slip, 0.3))).toBe(true);
    expect(hasInk(greyBlank())).toBe(false);
    expect(hasInk(textImage([], { width: 400, height: 300 }))).toBe(false);
  });

  it('is read', async () => {
    const page = await ocrPage(faded(slip, 0.3), 200, ['eng']);
    expect(page.text).toContain('CORNER KIOSK');
    expect(page.text).toMatch(/TOTAL\s+5\.50/);
  });
});

/** Blank grey paper with the grain of greySlip. */
function greyBlank(): GrayImage {
  const slip = greySlip(0);
  const grain = grainFrom(11);
  return { ...slip, data: slip.data.map(() => PAPER + Math.round(grain())) };
}
