import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysePageGeometry } from '../../server/ocr/deskew.ts';
import { rotate } from '../../server/ocr/gray-image.ts';
import { assertLocalPath, resolveOcrLanguages } from '../../server/ocr/tessdata.ts';
import { setOrientationDetection, shutdownOcr, workerOptions } from '../../server/ocr/tesseract-workers.ts';
import { emptyAnalysis } from '../../server/pipeline/analysis.ts';
import { OcrReport } from '../../server/pipeline/steps/ocr-report.ts';
import { analyzeBytes, encodeJpeg, encodePng, encodeTiff, textImage } from './pipeline-fixtures.ts';

let dir = '';
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'image-ocr-')); });
afterAll(async () => {
  await shutdownOcr();
  rmSync(dir, { recursive: true, force: true });
});

const LETTER = ['Stadtwerke Musterstadt', 'Abschlagsrechnung Nr. 5521', 'Betrag 86,40 EUR'];
const letter = textImage(LETTER, { size: 30 });

/** The words that must come out of an OCR'd LETTER. */
function expectLetter(content: string): void {
  expect(content).toContain('Stadtwerke Musterstadt');
  expect(content).toContain('Abschlagsrechnung');
  expect(content).toContain('5521');
  expect(content).toContain('86,40 EUR');
}

describe('OCR of image files', () => {
  it('reads a PNG, with the OCR confidence as a field', async () => {
    const analysis = await analyzeBytes(dir, 'letter.png', 'png', encodePng(letter));
    expectLetter(analysis.content);
    expect(analysis.pageCount).toBe(1);
    expect(analysis.fields.ocr_confidence).toMatchObject({ source: 'ocr' });
    expect(analysis.fields.ocr_confidence!.value).toBeGreaterThan(0.8);
    expect(analysis.notes).toEqual([]);
  });

  it('reads a JPEG', async () => {
    const analysis = await analyzeBytes(dir, 'letter.jpg', 'jpeg', encodeJpeg(letter, 85));
    expectLetter(analysis.content);
  });

  it('reads every page of a multi-page TIFF, in order', async () => {
    const second = textImage(['Seite zwei des Schreibens', 'Kundennummer 778899'], { size: 30 });
    const analysis = await analyzeBytes(dir, 'letter.tif', 'tiff', encodeTiff([letter, second]));
    expect(analysis.pageCount).toBe(2);
    const [first, next] = analysis.content.split('\n\n');
    expectLetter(first ?? '');
    expect(next).toContain('Kundennummer 778899');
  });

  it('reads a bilevel (1-bit, fax-style) TIFF', async () => {
    const analysis = await analyzeBytes(dir, 'fax.tif', 'tiff', encodeTiff([letter], 300, { bilevel: true }));
    expectLetter(analysis.content);
  });

  it.each([90, 180, 270])('reads a page turned by %i°', async (turn) => {
    const analysis = await analyzeBytes(dir, `turned-${turn}.png`, 'png', encodePng(rotate(letter, turn)));
    expectLetter(analysis.content);
  });

  it.each([180, 90])('reads a page turned by %i° without orientation detection (by OCR confidence)', async (turn) => {
    setOrientationDetection(false);
    try {
      const analysis = await analyzeBytes(dir, `no-osd-${turn}.png`, 'png', encodePng(rotate(letter, turn)));
      expectLetter(analysis.content);
    } finally {
      setOrientationDetection(true);
    }
  });

  it('reads a page skewed by 5°', async () => {
    const analysis = await analyzeBytes(dir, 'skewed.png', 'png', encodePng(rotate(letter, 5)));
    expectLetter(analysis.content);
  });

  it('uses a configured language list: one language is also the document language', async () => {
    const analysis = await analyzeBytes(dir, 'de.png', 'png', encodePng(letter), { ocrLanguages: ['deu'] });
    expectLetter(analysis.content);
    expect(analysis.language).toBe('de');
  });

  it('says so when a configured language has no OCR data, and reads with the defaults', async () => {
    const analysis = await analyzeBytes(dir, 'fr.png', 'png', encodePng(letter), { ocrLanguages: ['fra'] });
    expectLetter(analysis.content);
    expect(analysis.notes).toEqual(['No OCR data for language(s) fra; read with deu+eng.']);
    expect(analysis.language).not.toBe('fr'); // the unusable configuration is not taken as the language
  });

  it('an unreadable image ends with a note', async () => {
    const png = encodePng(letter);
    const analysis = await analyzeBytes(dir, 'broken.png', 'png', png.subarray(0, 20));
    expect(analysis.content).toBe('');
    expect(analysis.notes).toEqual(['The image could not be read: The image header is unreadable.']);
  });

  it('a truncated image is read as far as it goes, with a note', async () => {
    const png = encodePng(letter);
    const analysis = await analyzeBytes(dir, 'truncated.png', 'png', png.subarray(0, png.length - 200));
    expect(analysis.notes[0]).toBe('The image file is truncated; only part of it could be read.');
  });

  it('a blank image never reaches the OCR engine and says it has no text', async () => {
    const analysis = await analyzeBytes(dir, 'blank.png', 'png', encodePng(textImage([], { width: 400, height: 300 })));
    expect(analysis.content).toBe('');
    expect(analysis.fields.ocr_confidence).toBeUndefined();
    expect(analysis.notes).toEqual(['No text was found: OCR found no text in the image.']);
  });
});

describe('page geometry (projection profiles)', () => {
  const page = textImage(['A line of text for the profile', 'and a second line of text here', 'with a third line to be sure',
    'and a fourth one at the end'], { size: 24 });

  it.each([0, 3, -5, 8.5])('finds a skew of %f°', (angle) => {
    const geometry = analysePageGeometry(rotate(page, angle));
    expect(geometry.sideways).toBe(false);
    expect(Math.abs(geometry.skew - angle)).toBeLessThanOrEqual(0.3);
  });

  it.each([90, 270, 94])('tells a page turned by %f° is sideways', (angle) => {
    const geometry = analysePageGeometry(rotate(page, angle));
    expect(geometry.sideways).toBe(true);
    expect(Math.abs(geometry.skew - (angle % 90 > 45 ? (angle % 90) - 90 : angle % 90))).toBeLessThanOrEqual(0.3);
  });
});

describe('OCR runs offline', () => {
  it('reads language data from a local directory filled from the npm packages, with no cache and no URL', async () => {
    for (const legacy of [false, true]) {
      const options = await workerOptions(legacy);
      expect(isAbsolute(options.langPath!)).toBe(true);
      expect(options.langPath).not.toMatch(/^[a-z]+:\/\//i);
      expect(options.cacheMethod).toBe('none');
      for (const code of ['eng', 'deu', 'osd']) expect(existsSync(join(options.langPath!, `${code}.traineddata.gz`))).toBe(true);
    }
    expect(() => assertLocalPath('https://cdn.example/tessdata')).toThrow();
    expect(() => assertLocalPath('//host/share')).toThrow();
  });

  it('resolves language lists: defaults German then English, unknown codes reported', () => {
    expect(resolveOcrLanguages(undefined)).toEqual({ languages: ['deu', 'eng'], unavailable: [] });
    expect(resolveOcrLanguages(['ENG', 'eng'])).toEqual({ languages: ['eng'], unavailable: [] });
    expect(resolveOcrLanguages(['xyz'])).toEqual({ languages: ['deu', 'eng'], unavailable: ['xyz'] });
  });
});

describe('OCR report', () => {
  it('weights confidence by text, flags weak pages and failures', async () => {
    const report = new OcrReport({ languages: ['deu', 'eng'], unavailable: [] });
    const page = (text: string, confidence: number) => async () => ({ text, confidence, rotation: 0, script: 'Latin' });
    await report.readPage(1, page('a'.repeat(300), 0.9));
    await report.readPage(2, page('b'.repeat(100), 0.4));
    await report.readPage(3, () => Promise.reject(new Error('OCR of a page timed out after 300 s')));
    const analysis = emptyAnalysis();
    report.apply(analysis, 'page');
    expect(analysis.fields.ocr_confidence).toEqual({ value: 0.78, source: 'ocr', confidence: 1 });
    expect(analysis.notes).toEqual([
      'OCR confidence is low on page 2; the text there may contain errors.',
      'OCR failed on page 3: OCR of a page timed out after 300 s',
    ]);
  });

  it('a low overall confidence and a script no language covers are noted', async () => {
    const report = new OcrReport({ languages: ['deu', 'eng'], unavailable: [] });
    await report.readPage(1, async () => ({ text: 'Привет мир', confidence: 0.35, rotation: 0, script: 'Cyrillic' }));
    const analysis = emptyAnalysis();
    report.apply(analysis, 'page');
    expect(analysis.notes).toEqual([
      'OCR confidence is low (35%); the text may contain errors.',
      'The scan appears to be in Cyrillic script, which the installed OCR languages do not cover.',
    ]);
  });
});
