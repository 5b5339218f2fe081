import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shutdownOcr } from '../../server/ocr/tesseract-workers.ts';
import { needsOcr, saysClearlyMore } from '../../server/pipeline/steps/pdf-text.ts';
import { analyzeBytes, makeScannedPdf, makeTextPdf, textImage, type TextPlacement } from './pipeline-fixtures.ts';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
});
afterAll(async () => {
  await shutdownOcr();
  rmSync(dir, { recursive: true, force: true });
});

const analyzePdf = async (bytes: Uint8Array, name = 'doc.pdf') => analyzeBytes(dir, name, 'pdf', bytes);

describe('PDF text layer: reading order', () => {
  const left = [
    'The left column starts with this line',
    'and continues on its second line',
    'before ending on the third one.',
  ];
  const right = ['The right column begins up here', 'carries on with a second line', 'and closes with a third line.'];

  it('reads two columns column by column, even when the content stream is out of order', async () => {
    // Stream order: footer, right column, title, left column bottom-up, a table row's value before its label.
    const placements: TextPlacement[] = [
      { text: 'Page 1 of 1', x: 270, y: 40, size: 9 },
      ...right.map((text, i) => ({ text, x: 320, y: 700 - i * 14 })),
      { text: 'Quarterly Report', x: 50, y: 780, size: 18 },
      ...left.map((text, i) => ({ text, x: 50, y: 700 - i * 14 })).reverse(),
      { text: '1.234,56 EUR', x: 450, y: 560 },
      { text: 'Total amount', x: 50, y: 560 },
    ];
    const analysis = await analyzePdf(await makeTextPdf([placements]));
    expect(analysis.content).toBe(
      ['Quarterly Report', '', ...left, '', ...right, '', 'Total amount\t1.234,56 EUR', '', 'Page 1 of 1'].join('\n'),
    );
    expect(analysis.pageCount).toBe(1);
    expect(analysis.notes).toEqual([]);
    expect(analysis.fields.ocr_confidence).toBeUndefined();
  });

  it('keeps a letter in order: address and date block read row by row, a label and its value on one line', async () => {
    const placements: TextPlacement[] = [
      { text: 'Berlin, 12.03.2024', x: 420, y: 760 },
      { text: 'Erika Mustermann', x: 50, y: 760 },
      { text: 'Heidestraße 17', x: 50, y: 746 },
      { text: '51147 Köln', x: 50, y: 732 },
      { text: 'Rechnungsnummer:', x: 50, y: 680 },
      { text: 'RE-2024-117', x: 200, y: 680 },
      { text: 'Betrag:', x: 50, y: 666 },
      { text: '99,00 EUR', x: 200, y: 666 },
    ];
    const { content } = await analyzePdf(await makeTextPdf([placements]));
    expect(content).toBe(
      [
        'Erika Mustermann\tBerlin, 12.03.2024',
        'Heidestraße 17',
        '51147 Köln',
        '',
        'Rechnungsnummer:\tRE-2024-117',
        'Betrag:\t99,00 EUR',
      ].join('\n'),
    );
  });

  it('joins pieces of one line (kerning splits, separate words) with single spaces', async () => {
    const placements: TextPlacement[] = [
      { text: 'Sehr', x: 50, y: 700 },
      { text: 'geehrte', x: 76, y: 700 },
      { text: 'Damen', x: 118, y: 700 },
      { text: 'Zah', x: 50, y: 680 },
      { text: 'lung', x: 69.5, y: 680 },
    ];
    const { content } = await analyzePdf(await makeTextPdf([placements]));
    expect(content).toBe('Sehr geehrte Damen\nZahlung');
  });

  it('reads text set at 90° (a landscape page drawn rotated) in its own frame', async () => {
    // The text runs upwards, so its lines follow each other to the right: the leftmost line is the first.
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    ['First rotated line', 'Second rotated line', 'Third rotated line'].forEach((text, i) =>
      page.drawText(text, { x: 100 + i * 16, y: 100, size: 12, font, rotate: degrees(90) }),
    );
    page.setRotation(degrees(90));
    const { content } = await analyzePdf(await pdf.save());
    expect(content).toBe('First rotated line\nSecond rotated line\nThird rotated line');
  });

  it('separates pages by a blank line and counts them', async () => {
    // Over 20 characters a page: shorter text layers count as scans and go to OCR.
    const pages = [1, 2, 3].map((n) => [{ text: `This is the content of page ${n}`, x: 50, y: 700 }]);
    const analysis = await analyzePdf(await makeTextPdf(pages));
    expect(analysis.content).toBe(
      'This is the content of page 1\n\nThis is the content of page 2\n\nThis is the content of page 3',
    );
    expect(analysis.fields.ocr_confidence).toBeUndefined();
    expect(analysis.pageCount).toBe(3);
  });
});

describe('PDF text layer: positions', () => {
  it('gives every text item as a box in fractions of the page, origin top left', async () => {
    const analysis = await analyzePdf(
      await makeTextPdf([
        [
          { text: 'Rechnung', x: 50, y: 780, size: 18 },
          { text: 'Gesamtbetrag', x: 360, y: 200 },
        ],
        [{ text: 'Seite 2', x: 270, y: 40, size: 9 }],
      ]),
    );
    expect(analysis.layout.map((l) => [l.page, l.boxes.map((b) => b.text)])).toEqual([
      [1, ['Rechnung', 'Gesamtbetrag']],
      [2, ['Seite 2']],
    ]);
    const [first] = analysis.layout;
    expect(first!.aspect).toBeCloseTo(842 / 595, 3);
    const total = first!.boxes[1]!;
    expect(total.x).toBeCloseTo(360 / 595, 3);
    // The glyphs stand on the baseline at 200 pt from the bottom and reach about one font size above it.
    expect(total.y + total.height).toBeCloseTo((842 - 200) / 842, 2);
    expect(total.height).toBeGreaterThan(8 / 842);
    expect(total.width).toBeGreaterThan(40 / 595);
    expect(first!.boxes[0]!.y).toBeLessThan(0.1);
  });
});

describe('which pages go to OCR', () => {
  it('pages with under 20 visible characters, or with mostly unreadable ones (fonts without a Unicode map)', () => {
    expect(needsOcr('')).toBe(true);
    expect(needsOcr('Seite 1 von 3  \n  ')).toBe(true);
    expect(needsOcr('Ein ganz normaler Satz mit Text.')).toBe(false);
    expect(needsOcr('\uE001\uE002\uE003'.repeat(10) + ' Ok')).toBe(true);
    expect(needsOcr('\uFFFD'.repeat(30))).toBe(true);
    expect(needsOcr(`${'Lesbarer Text '.repeat(5)}\uE001\uE002`)).toBe(false);
  });
});

describe('OCR or the text layer of a page with little text', () => {
  it("keeps a short text layer over OCR that reads a character more (one letter split in two), not over a scan's page", () => {
    expect(saysClearlyMore('Alpha text 5f2\u00a2c23', 'Alpha text 5f2e23')).toBe(false);
    expect(saysClearlyMore('Rechnung Nr. 4471 vom 3. November 2026 über 120,00 EUR', 'Seite 1')).toBe(true);
  });
});

describe('PDF without a text layer: OCR', () => {
  it('reads a scanned page (a PNG embedded with pdf-lib) and reports the OCR confidence', async () => {
    const scan = textImage(['Rechnung Nr. 4711', 'Gesamtbetrag 275,50 EUR', 'Zahlbar bis 30.04.2024'], { size: 34 });
    const analysis = await analyzePdf(await makeScannedPdf([scan]), 'scan.pdf');
    expect(analysis.content).toContain('Rechnung Nr. 4711');
    expect(analysis.content).toContain('Gesamtbetrag 275,50 EUR');
    expect(analysis.content).toContain('30.04.2024');
    expect(analysis.pageCount).toBe(1);
    const confidence = analysis.fields.ocr_confidence;
    expect(confidence?.source).toBe('ocr');
    expect(confidence?.value).toBeGreaterThan(0.8);
    expect(confidence?.value).toBeLessThanOrEqual(1);
    expect(analysis.notes).toEqual([]);
  });

  it('mixes text-layer pages and scanned pages in page order', async () => {
    const pdf = await PDFDocument.load(
      await makeTextPdf([[{ text: 'Deckblatt mit Textebene und genug Zeichen', x: 50, y: 700 }]]),
    );
    const scanned = await PDFDocument.load(
      await makeScannedPdf([textImage(['Anlage eingescannt', 'Vertragsnummer 8812'], { size: 34 })]),
    );
    const [page] = await pdf.copyPages(scanned, [0]);
    pdf.addPage(page!);
    const analysis = await analyzePdf(await pdf.save(), 'mixed.pdf');
    const [first, second] = analysis.content.split('\n\n');
    expect(first).toBe('Deckblatt mit Textebene und genug Zeichen');
    expect(second).toContain('Vertragsnummer 8812');
    expect(analysis.pageCount).toBe(2);
  });

  it('a blank page needs no OCR and the document says it has no text', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([595, 842]);
    const analysis = await analyzePdf(await pdf.save(), 'blank.pdf');
    expect(analysis.content).toBe('');
    expect(analysis.fields.ocr_confidence).toBeUndefined();
    expect(analysis.notes).toEqual([
      'No text was found: the PDF has no text layer and OCR found no text on its pages.',
    ]);
  });

  it('a damaged PDF fails with a clear reason (the document then ends failed, not silently empty)', async () => {
    const bytes = await makeTextPdf([[{ text: 'Hello', x: 50, y: 700 }]]);
    await expect(analyzePdf(Uint8Array.from(bytes.subarray(0, 40)), 'broken.pdf')).rejects.toThrow(
      /^The PDF could not be read/,
    );
  });
});
