import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '../../common/archive-types.ts';
import { probeZipContainer } from '../../shared/formats/zip-container.ts';
import { excelSerialToIso, isDateFormat } from '../../server/pipeline/steps/office/excel-dates.ts';
import { analyzeBytes, corruptEntry, storedZip } from './pipeline-fixtures.ts';

const FORMAT_FIXTURES = resolve(import.meta.dirname, '../fixtures/formats');
const OFFICE_FIXTURES = resolve(import.meta.dirname, 'fixtures');
const OFFICE_FORMATS: readonly FileFormat[] = ['docx', 'doc', 'odt', 'xlsx', 'xls', 'ods', 'pptx', 'ppt', 'odp'];

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'office-text-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Fixture bytes; the legacy .ppt is stored gzipped. */
function fixture(folder: string, name: string): Uint8Array {
  const raw = join(folder, name);
  return new Uint8Array(existsSync(raw) ? readFileSync(raw) : gunzipSync(readFileSync(`${raw}.gz`)));
}

const lines = (text: string): string[] => text.split('\n');

describe('Office text: every format of test/fixtures/formats', () => {
  it.each(OFFICE_FORMATS)('%s yields "Format fixture" and no note', async (format) => {
    const analysis = await analyzeBytes(dir, `sample.${format}`, format, fixture(FORMAT_FIXTURES, `sample.${format}`));
    expect(analysis.content).toBe('Format fixture');
    expect(analysis.notes).toEqual([]);
  });
});

describe('Office text: structure is kept readable', () => {
  const letter = ['docx', 'doc', 'odt'] as const;
  it.each(letter)(
    '%s letter: header, paragraphs, table rows as tab-separated cells, line break, footer',
    async (format) => {
      const { content, notes } = await analyzeBytes(
        dir,
        `office.${format}`,
        format,
        fixture(OFFICE_FIXTURES, `office.${format}`),
      );
      expect(notes).toEqual([]);
      const text = lines(content);
      expect(text[0]).toBe('Muster GmbH · Hauptstraße 1 · 10115 Berlin');
      expect(text).toContain('Rechnung 2024-117');
      expect(text).toContain('Sehr geehrte Frau Müller,');
      expect(text).toContain('Beratung\t2 Std.\t240,00 €');
      expect(text).toContain('Reisekosten\t1\t35,50 €');
      // The line break inside the paragraph is a line of its own.
      expect(text).toContain('Gesamtbetrag: 275,50 €');
      expect(text).toContain('Zahlbar bis 30.04.2024');
      expect(text.at(-1)).toBe('IBAN DE02 1203 0000 0000 2020 51');
      // Reading order: header, salutation, table, total, footer.
      const order = ['Muster GmbH', 'Sehr geehrte', 'Beratung', 'Gesamtbetrag', 'Mit freundlichen', 'IBAN'].map((s) =>
        content.indexOf(s),
      );
      expect(order).toEqual([...order].sort((a, b) => a - b));
    },
  );

  it.each(['xlsx', 'xls', 'ods'] as const)(
    '%s workbook: sheets under their names, cells by tab, dates as ISO dates',
    async (format) => {
      const { content, notes, pageCount } = await analyzeBytes(
        dir,
        `office.${format}`,
        format,
        fixture(OFFICE_FIXTURES, `office.${format}`),
      );
      expect(notes).toEqual([]);
      expect(pageCount).toBeNull();
      expect(content).toBe(
        'Rechnungen\nNr\tDatum\tBetrag\n2024-117\t2024-03-12\t275.5\n\nNotizen\nÜberweisung erledigt',
      );
    },
  );

  it.each(['pptx', 'ppt', 'odp'] as const)(
    '%s slides: in order, a blank line between slides, page count = slides',
    async (format) => {
      const { content, notes, pageCount } = await analyzeBytes(
        dir,
        `office.${format}`,
        format,
        fixture(OFFICE_FIXTURES, `office.${format}`),
      );
      expect(notes).toEqual([]);
      expect(pageCount).toBe(2);
      const slides = content.split('\n\n').join('\n').split('\n');
      expect(slides).toEqual(['Quartalsbericht 2024', 'Umsatz gestiegen', 'Nächste Schritte', 'Angebot versenden']);
      expect(content.indexOf('Umsatz gestiegen')).toBeLessThan(content.indexOf('Nächste Schritte'));
      // Slides are separated by a blank line.
      expect(content).toMatch(/Umsatz gestiegen\n\nNächste Schritte/);
    },
  );
});

describe('Office text: unreadable files end with a note, never an exception', () => {
  const docx = fixture(FORMAT_FIXTURES, 'sample.docx');

  it('a DOCX whose document.xml is corrupt (still detected as DOCX by its entry names)', async () => {
    const corrupt = corruptEntry(docx, 'word/document.xml');
    expect(await probeZipContainer(writeTemp('corrupt-probe.docx', corrupt))).toBe('docx');
    const analysis = await analyzeBytes(dir, 'corrupt.docx', 'docx', corrupt);
    expect(analysis.content).toBe('');
    expect(analysis.notes.join(' ')).toMatch(/^The DOCX file could not be read \(.+\); no text was extracted\.$/);
  });

  it('a truncated DOCX (no central directory)', async () => {
    const analysis = await analyzeBytes(dir, 'truncated.docx', 'docx', docx.subarray(0, docx.length >> 1));
    expect(analysis.notes.join(' ')).toMatch(/The DOCX file could not be read/);
  });

  it.each([
    ['doc', 'sample.doc'],
    ['xls', 'sample.xls'],
    ['ppt', 'sample.ppt'],
  ] as const)('a damaged %s', async (format, name) => {
    const bytes = fixture(FORMAT_FIXTURES, name);
    const damaged = Uint8Array.from(bytes.subarray(0, 1024));
    const analysis = await analyzeBytes(dir, `damaged.${format}`, format, damaged);
    expect(analysis.content).toBe('');
    expect(analysis.notes.length).toBeGreaterThan(0);
    expect(analysis.notes.join(' ')).toMatch(new RegExp(`${format.toUpperCase()} file`));
  });

  it('an Office file without any text says so', async () => {
    const analysis = await analyzeBytes(
      dir,
      'empty.xlsx',
      'xlsx',
      storedZip([
        {
          name: '[Content_Types].xml',
          data: Buffer.from('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
        },
        {
          name: 'xl/workbook.xml',
          data: Buffer.from(
            '<workbook xmlns:r="r"><sheets><sheet name="Leer" sheetId="1" r:id="rId1"/></sheets></workbook>',
          ),
        },
        {
          name: 'xl/_rels/workbook.xml.rels',
          data: Buffer.from(
            '<Relationships><Relationship Id="rId1" Type="t/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
          ),
        },
        {
          name: 'xl/worksheets/sheet1.xml',
          data: Buffer.from('<worksheet><sheetData><row r="1"/></sheetData></worksheet>'),
        },
      ]),
    );
    expect(analysis.content).toBe('');
    expect(analysis.notes).toEqual(['No text was found: the XLSX file contains no text.']);
  });
});

describe('Office text: spreadsheet values', () => {
  it('recognises date formats and converts Excel serials', () => {
    expect(isDateFormat('dd/mm/yyyy')).toBe(true);
    expect(isDateFormat('[$-407]d. mmmm yyyy;@')).toBe(true);
    expect(isDateFormat('#,##0.00 "EUR"')).toBe(false);
    expect(isDateFormat('0.00%')).toBe(false);
    expect(isDateFormat('[Red]#,##0')).toBe(false);
    expect(excelSerialToIso(45363, false)).toBe('2024-03-12');
    expect(excelSerialToIso(45363.5, false)).toBe('2024-03-12 12:00');
    expect(excelSerialToIso(43901, true)).toBe('2024-03-12');
    expect(excelSerialToIso(59, false)).toBe('1900-02-28');
    expect(excelSerialToIso(61, false)).toBe('1900-03-01');
  });
});

function writeTemp(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}
