import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { grayFromRgba, type GrayImage } from '../../server/ocr/gray-image.ts';
import { recognize, shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { FONT_FAMILY } from '../pipeline/pipeline-fixtures.ts';

afterAll(async () => {
  await shutdownOcr();
});

/** Two columns of words far apart: read by column with page segmentation, across them as one block without it. */
function twoColumns(): GrayImage {
  const [width, height, size] = [1400, 520, 30];
  const context = createCanvas(width, height).getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  context.font = `${size}px ${FONT_FAMILY}`;
  const rows = ['one', 'two', 'three', 'four', 'five', 'six'];
  rows.forEach((word, i) => {
    context.fillText(`Left column ${word}`, 60, 80 + i * 60);
    context.fillText(`Right column ${word}`, 900, 80 + i * 60);
  });
  return grayFromRgba(context.getImageData(0, 0, width, height).data, width, height);
}

/** Whether every left-column line came before the first right-column line. */
function readByColumn(text: string): boolean {
  return text.lastIndexOf('Left') < text.indexOf('Right') && text.indexOf('Right') > 0;
}

describe('OCR recognizers reused for another language', () => {
  it('keep reading a page by its blocks after a model was swapped in (the result does not depend on earlier documents)', async () => {
    const page = twoColumns();
    const first = await recognize(page, ['eng'], 300);
    expect(readByColumn(first.text)).toBe(true);
    // Two recognizers are kept per thread: a third language reloads the least recently used one, and so does the
    // first language again.
    await recognize(page, ['deu'], 300);
    await recognize(page, ['fra'], 300);
    const again = await recognize(page, ['eng'], 300);
    expect(readByColumn(again.text)).toBe(true);
    expect(again.text).toBe(first.text);
  }, 120_000);
});
