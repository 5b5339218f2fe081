/**
 * A wrong answer from orientation detection does not leave a page upside down: on a page the projection profiles
 * call sideways, a turn that detection was sure of but that reads weakly is checked against the other turns. The
 * fault is injected: detection here always answers "turn by 180°", sure of it; the OCR itself is real.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { analysePageGeometry } from '../../server/ocr/deskew.ts';
import { rotate } from '../../server/ocr/gray-image.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { textImage } from './pipeline-fixtures.ts';

vi.mock('../../server/ocr/tesseract-workers.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../server/ocr/tesseract-workers.ts')>()),
  detectOrientation: async () => ({ correction: 180, confidence: 9, script: 'Latin' }),
}));

afterAll(async () => {
  await shutdownOcr();
});

/** An invented delivery note, wide lines, so that turned by a quarter it is plainly sideways. */
const NOTE = [
  'MAPLE HARDWARE SUPPLIES',
  'Delivery note 4471 of 12 March 2026',
  'Garden hose 25 m             18.90',
  'Brass tap connector           4.20',
  'Seed tray, pack of five       6.75',
  'TOTAL                        29.85',
  'Received in good order, thank you',
];

describe('orientation', () => {
  it('reads a sideways page upright when detection is sure of the wrong turn', async () => {
    const sideways = rotate(textImage(NOTE, { size: 30 }), 270);
    expect(analysePageGeometry(sideways).sideways).toBe(true);
    const page = await ocrPage(sideways, 300, ['eng']);
    expect(page.text).toContain('MAPLE HARDWARE SUPPLIES');
    expect(page.text).toMatch(/TOTAL\s+29\.85/);
    expect(page.rotation % 360).toBeCloseTo(90, 0);
  });
});
