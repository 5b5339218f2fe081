import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysePageGeometry } from '../../server/ocr/deskew.ts';
import { rotate, type GrayImage } from '../../server/ocr/gray-image.ts';
import { probeRegion } from '../../server/ocr/probe-region.ts';
import { assertLocalPath, resolveOcrLanguages } from '../../server/ocr/tessdata.ts';
import { ocrPage } from '../../server/ocr/page-ocr.ts';
import {
  recognitionsByModel,
  setOrientationDetection,
  shutdownOcr,
  workerOptions,
} from '../../server/ocr/tesseract-workers.ts';
import { emptyAnalysis } from '../../server/pipeline/analysis.ts';
import { OcrReport } from '../../server/pipeline/steps/ocr-report.ts';
import { analyzeBytes, encodeJpeg, encodePng, encodeTiff, textImage } from './pipeline-fixtures.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'image-ocr-'));
});
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
    const analysis = await analyzeBytes(dir, 'ja.png', 'png', encodePng(letter), { ocrLanguages: ['jpn'] });
    expectLetter(analysis.content);
    expect(analysis.notes).toEqual(['No OCR data for language(s) jpn; read with one of deu, eng, fra, nld, spa, ita.']);
    expect(analysis.language).not.toBe('ja'); // the unusable configuration is not taken as the language
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

/** Invented letters, one per language: what a page in that language might say. */
const LETTERS: Record<string, string[]> = {
  deu: [
    'Sehr geehrte Frau Beispiel,',
    'wir danken Ihnen für den Auftrag und bitten Sie,',
    'den Betrag bis zum Monatsende zu überweisen.',
    'Mit freundlichen Grüßen',
  ],
  eng: [
    'Dear Ms Example,',
    'thank you for your order. We kindly ask you to',
    'pay the amount below by the end of the month.',
    'With kind regards',
  ],
  fra: [
    'Chère Madame Exemple,',
    'nous vous remercions de votre commande et vous prions',
    'de régler le montant avant la fin du mois.',
    'Veuillez agréer nos salutations',
  ],
  nld: [
    'Geachte mevrouw Voorbeeld,',
    'wij danken u voor uw bestelling en verzoeken u',
    'het bedrag voor het einde van de maand te betalen.',
    'Met vriendelijke groet',
  ],
  spa: [
    'Estimada señora Ejemplo,',
    'le agradecemos su pedido y le rogamos que pague',
    'el importe antes del final del mes.',
    'Atentamente, el equipo de la tienda',
  ],
  ita: [
    'Gentile signora Esempio,',
    'la ringraziamo per il suo ordine e la preghiamo',
    "di pagare l'importo entro la fine del mese.",
    'Cordiali saluti dalla nostra ditta',
  ],
};
const ALL = ['deu', 'eng', 'fra', 'nld', 'spa', 'ita'];

describe('OCR languages: each page read with its own model', () => {
  it.each(Object.keys(LETTERS))('a page in %s is read with that model, not with all six', async (code) => {
    const before = recognitionsByModel();
    const page = await ocrPage(textImage(LETTERS[code]!, { size: 30 }), 300, ALL);
    expect(page.model).toBe(code);
    expect(page.text).toContain(LETTERS[code]![2]!.split(' ')[1]);
    const after = recognitionsByModel();
    // Only single models read: the probe's (English) and the page's own.
    for (const [model, count] of after) {
      if (count !== (before.get(model) ?? 0)) expect(['eng', code]).toContain(model);
    }
  });

  it.each([90, 180, 270])(
    'orientation comes first: a French page turned by %i° is turned back and read in French',
    async (turn) => {
      const page = await ocrPage(rotate(textImage(LETTERS.fra!, { size: 30 }), turn), 300, ALL);
      expect(page.rotation).toBe((360 - turn) % 360);
      expect(page.model).toBe('fra');
      expect(page.text).toContain('commande');
    },
  );

  it('when the band shows no words of a language (figures), the whole page decides', async () => {
    // At 100 DPI the band is about 2.5 lines: it falls on the figures (brackets ink every row of a line), and the
    // German sentences are below it.
    const page = textImage(
      ['(4711) [0815] {2024} |17|', '[12,50] (3) {4,10} |99|', '(0049) [5521] {77} |3|', ...LETTERS.deu!],
      { size: 30 },
    );
    const result = await ocrPage(page, 100, ALL);
    expect(result.model).toBe('deu');
    expect(result.text).toContain('freundlichen');
  });

  it('the band is where the lines of text are, not a letterhead in large type', () => {
    const stack = (images: GrayImage[]): GrayImage => {
      const width = Math.max(...images.map((i) => i.width));
      const height = images.reduce((h, i) => h + i.height, 0);
      const data = new Uint8Array(width * height).fill(255);
      let top = 0;
      for (const image of images) {
        for (let y = 0; y < image.height; y++)
          data.set(image.data.subarray(y * image.width, (y + 1) * image.width), (top + y) * width);
        top += image.height;
      }
      return { width, height, data };
    };
    const letterhead = textImage(['Example Works', 'Ltd'], { size: 120 });
    const body = textImage(
      Array.from({ length: 12 }, (_, i) => `${LETTERS.eng![i % 4]!} ${i}`),
      { size: 24 },
    );
    const page = stack([letterhead, body]);
    const band = probeRegion(page, 150);
    expect(band.height).toBeLessThan(page.height / 2);
    // The band's rows are the body's rows: its data starts below the letterhead.
    expect(band.data.byteOffset - page.data.byteOffset).toBeGreaterThanOrEqual(letterhead.height * page.width);
  });

  it('a restricted language list is obeyed: a page read with Dutch only uses no other model', async () => {
    const before = recognitionsByModel();
    const page = await ocrPage(textImage(LETTERS.deu!, { size: 30 }), 300, ['nld']);
    expect(page.model).toBe('nld');
    const after = recognitionsByModel();
    expect([...after].filter(([model, count]) => count !== (before.get(model) ?? 0)).map(([model]) => model)).toEqual([
      'nld',
    ]);
  });

  it("the next page of a document starts from the previous page's model, and changes it when its text disagrees", async () => {
    const before = recognitionsByModel();
    const same = await ocrPage(textImage(LETTERS.ita!, { size: 30 }), 300, ALL, 'ita');
    expect(same.model).toBe('ita');
    expect((recognitionsByModel().get('eng') ?? 0) - (before.get('eng') ?? 0)).toBe(0); // no probe needed
    const other = await ocrPage(textImage(LETTERS.spa!, { size: 30 }), 300, ALL, 'ita');
    expect(other.model).toBe('spa');
  });

  it("gives the words' boxes as fractions of the page, top left origin, for the layout", async () => {
    const lines = ['Invoice 4711', 'Amount due 12.50 EUR', 'Payable within two weeks'];
    const analysis = await analyzeBytes(
      dir,
      'layout.png',
      'png',
      encodePng(textImage(lines, { size: 30, width: 1200, height: 800 })),
    );
    expect(analysis.layout).toHaveLength(1);
    const [layout] = analysis.layout;
    expect(layout!.page).toBe(1);
    expect(layout!.aspect).toBeCloseTo(800 / 1200, 3);
    const box = (word: string) => layout!.boxes.find((b) => b.text === word)!;
    for (const b of layout!.boxes) {
      for (const v of [b.x, b.y, b.width, b.height]) expect(v).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(1);
      expect(b.y + b.height).toBeLessThanOrEqual(1);
    }
    // textImage starts lines at x = 2 × size and steps them by 1.6 × size.
    expect(box('Invoice').x).toBeCloseTo(60 / 1200, 1);
    expect(box('Amount').y).toBeGreaterThan(box('Invoice').y);
    expect(box('Payable').y).toBeGreaterThan(box('Amount').y);
    expect(box('4711').x).toBeGreaterThan(box('Invoice').x + box('Invoice').width);
    expect(box('Amount').height).toBeCloseTo(30 / 800, 1);
  });
});

describe('page geometry (projection profiles)', () => {
  const page = textImage(
    [
      'A line of text for the profile',
      'and a second line of text here',
      'with a third line to be sure',
      'and a fourth one at the end',
    ],
    { size: 24 },
  );

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
      for (const code of ['eng', 'deu', 'fra', 'nld', 'spa', 'ita', 'osd'])
        expect(existsSync(join(options.langPath!, `${code}.traineddata.gz`))).toBe(true);
    }
    expect(() => assertLocalPath('https://cdn.example/tessdata')).toThrow();
    expect(() => assertLocalPath('//host/share')).toThrow();
  });

  it('resolves language lists: defaults the six languages, German first; unknown codes reported', () => {
    const six = ['deu', 'eng', 'fra', 'nld', 'spa', 'ita'];
    expect(resolveOcrLanguages(undefined)).toEqual({ languages: six, unavailable: [] });
    expect(resolveOcrLanguages(['ENG', 'eng'])).toEqual({ languages: ['eng'], unavailable: [] });
    expect(resolveOcrLanguages(['xyz'])).toEqual({ languages: six, unavailable: ['xyz'] });
  });
});

describe('OCR report', () => {
  /** One page as OCR returned it. */
  const page =
    (text: string, confidence: number, script = 'Latin') =>
    async () => ({
      text,
      confidence,
      rotation: 0,
      script,
      model: 'eng',
      aspect: 1.41,
      boxes: [],
    });

  it('weights confidence by text, flags weak pages and failures', async () => {
    const report = new OcrReport({ languages: ['deu', 'eng'], unavailable: [] });
    await report.readPage(1, page('a'.repeat(300), 0.9));
    await report.readPage(2, page('b'.repeat(100), 0.4));
    await report.readPage(3, () => Promise.reject(new Error('OCR of a page timed out after 300 s')));
    const analysis = emptyAnalysis();
    report.apply(analysis);
    expect(analysis.fields.ocr_confidence).toEqual({ value: 0.78, source: 'ocr', confidence: 1 });
    expect(analysis.notes).toEqual([
      'OCR confidence is low on page 2; the text there may contain errors.',
      'OCR failed on page 3: OCR of a page timed out after 300 s',
    ]);
  });

  it('a low overall confidence and a script no language covers are noted', async () => {
    const report = new OcrReport({ languages: ['deu', 'eng'], unavailable: [] });
    await report.readPage(1, page('Привет мир', 0.35, 'Cyrillic'));
    const analysis = emptyAnalysis();
    report.apply(analysis);
    expect(analysis.notes).toEqual([
      'OCR confidence is low (35%); the text may contain errors.',
      'The scan appears to be in Cyrillic script, which the installed OCR languages do not cover.',
    ]);
  });

  it('a script guess on a page the installed models read with confidence is not noted (the guess was wrong)', async () => {
    const report = new OcrReport({ languages: ['eng'], unavailable: [] });
    await report.readPage(
      1,
      page('CORNER KIOSK Newspaper 2.40 Coffee 3.10 TOTAL 5.50 CASH 10.00 CHANGE 4.50', 0.84, 'Arabic'),
    );
    const analysis = emptyAnalysis();
    report.apply(analysis);
    expect(analysis.notes).toEqual([]);
  });
});
