/**
 * A photo of a slip lying on a darker surface: tesseract's page segmentation took the surface for a picture and
 * dropped the right-aligned prices next to it. The surface is cleared before reading. The slip is invented.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { grayFromRgba, type GrayImage } from '../../server/ocr/gray-image.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import { clearSurroundings } from '../../server/ocr/page-surroundings.ts';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { FONT_FAMILY, textImage, turnedCanvas } from './pipeline-fixtures.ts';

afterAll(async () => {
  await shutdownOcr();
});

const ITEMS: ReadonlyArray<readonly [string, string]> = [
  ['Rye loaf', '3,40'],
  ['Pear tart', '12,80'],
  ['Seed rolls x4', '2,20'],
  ['Almond cake', '18,90'],
];

/**
 * The slip: light paper turned by `degrees` on a surface of shade `surface` (0-255); its prices right-aligned at
 * the paper's edge, a little below their labels, as till printers set them.
 */
function photographedSlip(surface: number, degrees = 2.5): GrayImage {
  const width = 790;
  const height = 1180;
  const context = turnedCanvas(width, height, surface, degrees);
  const paper = { x: 70, y: 40, width: 680, height: 1080 };
  const left = paper.x + 25;
  const right = paper.x + paper.width - 25;
  const centre = paper.x + paper.width / 2;
  const line = (text: string, x: number, y: number, align: 'left' | 'right' | 'center'): void => {
    context.textAlign = align;
    context.fillText(text, x, y);
  };
  context.fillStyle = '#e6e6e6';
  context.fillRect(paper.x, paper.y, paper.width, paper.height);
  context.fillStyle = '#111';
  context.font = `30px ${FONT_FAMILY}`;
  line('CORNER BAKERY', centre, paper.y + 100, 'center');
  context.font = `24px ${FONT_FAMILY}`;
  line('Mill Lane 7', centre, paper.y + 140, 'center');
  line('Receipt 4471', centre, paper.y + 300, 'center');
  ITEMS.forEach(([label, price], i) => {
    line(label, left, paper.y + 460 + i * 42, 'left');
    line(price, right, paper.y + 478 + i * 42, 'right');
  });
  line('TOTAL', left, paper.y + 680, 'left');
  line('37,30 €', right, paper.y + 700, 'right');
  return grayFromRgba(context.getImageData(0, 0, width, height).data, width, height);
}

const at = (image: GrayImage, x: number, y: number): number => image.data[y * image.width + x]!;

describe('the surface around a photographed page', () => {
  it('is painted the paper’s shade, text and paper untouched', () => {
    const photo = photographedSlip(70);
    const cleared = clearSurroundings(photo);
    for (const [x, y] of [
      [2, 2],
      [787, 1177],
      [20, 600],
      [785, 500],
    ] as const)
      expect(at(cleared, x, y)).toBeGreaterThan(200);
    let inkBefore = 0;
    let inkAfter = 0;
    for (let i = 0; i < photo.data.length; i++) {
      if (photo.data[i]! < 60) inkBefore++;
      if (cleared.data[i]! < 60) inkAfter++;
    }
    expect(inkBefore).toBeGreaterThan(1000);
    expect(inkAfter).toBe(inkBefore);
  });

  it('is left alone when there is none: a scan, a dark band at one edge, a surface as light as the paper', () => {
    const scan = textImage(['Plain page', 'Total 12,00']);
    expect(clearSurroundings(scan)).toBe(scan);
    const banded = textImage(['Letterhead band', 'Body text here', 'More text']);
    banded.data.fill(30, 0, banded.width * 40);
    expect(clearSurroundings(banded)).toBe(banded);
    const pale = photographedSlip(215);
    expect(clearSurroundings(pale)).toBe(pale);
  });

  it('lets OCR read the prices at the paper’s edge', async () => {
    const page = await ocrPage(photographedSlip(70), 200, ['eng']);
    for (const [, price] of ITEMS) expect(page.text).toContain(price);
    expect(page.text).toMatch(/37,30/);
  });
});
