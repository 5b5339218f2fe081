import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32, deflateRawSync, deflateSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '../../common/archive-types.ts';
import {
  contentTypeMatches,
  detectFormat,
  detectFormatFromHead,
  MIME_TYPES,
  type DetectedFormat,
} from '../../shared/formats/detect-format.ts';
import { checkFile } from '../../main/core/uploads/file-check.ts';
import { startHarness, type Harness } from '../helpers/archive-harness.ts';

// Office/ODF/JPEG fixtures come from LibreOffice (scripts/make-format-fixtures.ts); everything
// else, including all the malformed inputs, is built here.
const FIXTURES = resolve(import.meta.dirname, '../fixtures/formats');

let tmp = '';
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'formats-test-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

let fileCounter = 0;
function writeTmp(bytes: Uint8Array, name = `file-${++fileCounter}.bin`): string {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
}

/** Fixture bytes; fixtures too big to commit raw are stored gzipped. */
function fixtureBytes(name: string): Uint8Array {
  const raw = join(FIXTURES, name);
  // Copied into a plain Uint8Array: Buffer#slice would share memory, which tests below rely on not doing.
  return new Uint8Array(existsSync(raw) ? readFileSync(raw) : gunzipSync(readFileSync(`${raw}.gz`)));
}

const format = async (bytes: Uint8Array): Promise<FileFormat | undefined> =>
  (await detectFormat(writeTmp(bytes)))?.format;

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Deterministic pseudo-random bytes. */
function noise(length: number, seed: string): Uint8Array {
  const out = new Uint8Array(length);
  let block = createHash('sha256').update(seed).digest();
  for (let at = 0; at < length; at += block.length) {
    out.set(block.subarray(0, Math.min(block.length, length - at)), at);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

// ---- images and PDF, built in code ----

function png1x1(): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Uint8Array => {
    const head = new DataView(new ArrayBuffer(4));
    head.setUint32(0, data.length);
    const body = concat([ascii(type), data]);
    const crc = new DataView(new ArrayBuffer(4));
    crc.setUint32(0, crc32(body));
    return concat([new Uint8Array(head.buffer), body, new Uint8Array(crc.buffer)]);
  };
  const ihdr = new DataView(new ArrayBuffer(13));
  ihdr.setUint32(0, 1);
  ihdr.setUint32(4, 1);
  ihdr.setUint8(8, 8); // 1×1, 8-bit greyscale
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', new Uint8Array(ihdr.buffer)),
    chunk('IDAT', deflateSync(new Uint8Array([0, 0x80]))),
    chunk('IEND', new Uint8Array()),
  ]);
}

/** A valid 1×1 greyscale baseline TIFF, either byte order; `big` writes only a BigTIFF header. */
function tiff(littleEndian: boolean, big = false): Uint8Array {
  const bytes = new Uint8Array(8 + 2 + 8 * 12 + 4 + 1);
  const view = new DataView(bytes.buffer);
  bytes.set(ascii(littleEndian ? 'II' : 'MM'));
  view.setUint16(2, big ? 43 : 42, littleEndian);
  if (big) return bytes.subarray(0, 16);
  view.setUint32(4, 8, littleEndian);
  const pixelOffset = bytes.length - 1;
  const tags: [tag: number, type: number, value: number][] = [
    [256, 3, 1],
    [257, 3, 1],
    [258, 3, 8],
    [259, 3, 1],
    [262, 3, 1],
    [273, 4, pixelOffset],
    [278, 3, 1],
    [279, 4, 1],
  ];
  view.setUint16(8, tags.length, littleEndian);
  tags.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    view.setUint16(at, tag, littleEndian);
    view.setUint16(at + 2, type, littleEndian);
    view.setUint32(at + 4, 1, littleEndian);
    if (type === 3) view.setUint16(at + 8, value, littleEndian);
    else view.setUint32(at + 8, value, littleEndian);
  });
  bytes[pixelOffset] = 0x80;
  return bytes;
}

function pdf(prefix = ''): Uint8Array {
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>',
  ];
  let text = `${prefix}%PDF-1.4\n`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj ${body} endobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer <</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return ascii(text);
}

// ---- zip writer (stored or deflated entries) ----

function zip(entries: ReadonlyArray<{ name: string; data: string | Uint8Array; deflate?: boolean }>): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data, deflate = false } of entries) {
    const content = typeof data === 'string' ? ascii(data) : data;
    const stored = deflate ? deflateRawSync(content) : content;
    const nameBytes = ascii(name);
    const fields = (view: DataView, at: number): void => {
      view.setUint16(at, 20, true); // version needed
      view.setUint16(at + 2, 0, true); // flags
      view.setUint16(at + 4, deflate ? 8 : 0, true);
      view.setUint16(at + 6, 0, true); // time
      view.setUint16(at + 8, 0x21, true); // date: 1980-01-01
      view.setUint32(at + 10, crc32(content), true);
      view.setUint32(at + 14, stored.length, true);
      view.setUint32(at + 18, content.length, true);
      view.setUint16(at + 22, nameBytes.length, true);
    };
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    fields(local, 4);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true); // version made by
    fields(central, 6);
    central.setUint32(42, offset, true);
    const localRecord = concat([new Uint8Array(local.buffer), nameBytes, stored]);
    locals.push(localRecord);
    centrals.push(concat([new Uint8Array(central.buffer), nameBytes]));
    offset += localRecord.length;
  }
  const directory = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directory.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, directory, new Uint8Array(end.buffer)]);
}

// ---- OLE compound file writer ----

const FREESECT = 0xffffffff;
const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const DIFSECT = 0xfffffffc;
const NOSTREAM = 0xffffffff;
const STORAGE = 1;
const STREAM = 2;
const ROOT = 5;

interface OleEntry {
  name: string;
  type: number;
  left?: number;
  right?: number;
  child?: number;
}

function oleEntry({ name, type, left = NOSTREAM, right = NOSTREAM, child = NOSTREAM }: OleEntry): Uint8Array {
  const bytes = new Uint8Array(128);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < name.length; i++) view.setUint16(i * 2, name.charCodeAt(i), true);
  view.setUint16(0x40, (name.length + 1) * 2, true);
  bytes[0x42] = type;
  bytes[0x43] = 1; // black
  view.setUint32(0x44, left, true);
  view.setUint32(0x48, right, true);
  view.setUint32(0x4c, child, true);
  view.setUint32(0x74, ENDOFCHAIN, true); // empty stream
  return bytes;
}

function oleHeader(o: {
  shift: 9 | 12;
  firstDir: number;
  fat: number[];
  fatCount?: number;
  firstDifat?: number;
  difatCount?: number;
}): Uint8Array {
  const bytes = new Uint8Array(2 ** o.shift); // the header occupies a whole sector
  const view = new DataView(bytes.buffer);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  view.setUint16(0x18, 0x3e, true);
  view.setUint16(0x1a, o.shift === 9 ? 3 : 4, true);
  view.setUint16(0x1c, 0xfffe, true);
  view.setUint16(0x1e, o.shift, true);
  view.setUint16(0x20, 6, true);
  view.setUint32(0x2c, o.fatCount ?? o.fat.length, true);
  view.setUint32(0x30, o.firstDir, true);
  view.setUint32(0x38, 4096, true);
  view.setUint32(0x3c, ENDOFCHAIN, true);
  view.setUint32(0x44, o.firstDifat ?? ENDOFCHAIN, true);
  view.setUint32(0x48, o.difatCount ?? 0, true);
  for (let i = 0; i < 109; i++) view.setUint32(0x4c + i * 4, o.fat[i] ?? FREESECT, true);
  return bytes;
}

/** A sector of little-endian u32 values, FREESECT where not given. */
function idSector(sectorSize: number, values: ReadonlyMap<number, number>): Uint8Array {
  const view = new DataView(new ArrayBuffer(sectorSize));
  for (let i = 0; i < sectorSize / 4; i++) view.setUint32(i * 4, values.get(i) ?? FREESECT, true);
  return new Uint8Array(view.buffer);
}

function assemble(header: Uint8Array, sectors: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const size = header.length;
  const out = new Uint8Array((Math.max(...sectors.keys()) + 2) * size);
  out.set(header);
  for (const [id, bytes] of sectors) out.set(bytes, (id + 1) * size);
  return out;
}

/** Sector 0 is the FAT, sectors 1.. the directory (chained in order unless `patchFat` says otherwise). */
function ole(
  entries: readonly OleEntry[],
  o: { shift?: 9 | 12; patchFat?: (fat: Map<number, number>) => void } = {},
): Uint8Array {
  const shift = o.shift ?? 9;
  const sectorSize = 2 ** shift;
  const perSector = sectorSize / 128;
  const dirSectorCount = Math.ceil(entries.length / perSector);
  const fat = new Map<number, number>([[0, FATSECT]]);
  for (let s = 1; s <= dirSectorCount; s++) fat.set(s, s === dirSectorCount ? ENDOFCHAIN : s + 1);
  o.patchFat?.(fat);
  const sectors = new Map<number, Uint8Array>([[0, idSector(sectorSize, fat)]]);
  for (let s = 0; s < dirSectorCount; s++) {
    const dir = new Uint8Array(sectorSize);
    entries.slice(s * perSector, (s + 1) * perSector).forEach((e, i) => dir.set(oleEntry(e), i * 128));
    sectors.set(s + 1, dir);
  }
  return assemble(oleHeader({ shift, firstDir: 1, fat: [0] }), sectors);
}

/** Root whose children are `names` (streams), linked as a right-leaning chain. */
function oleWithStreams(names: readonly string[], shift: 9 | 12 = 9): Uint8Array {
  return ole(
    [
      { name: 'Root Entry', type: ROOT, child: names.length > 0 ? 1 : NOSTREAM },
      ...names.map((name, i) => ({ name, type: STREAM, right: i + 1 < names.length ? i + 2 : NOSTREAM })),
    ],
    { shift },
  );
}

// ---- tests ----

describe('detectFormat on real documents', () => {
  const cases: [file: string, format: FileFormat, extension: string][] = [
    ['sample.doc', 'doc', 'doc'],
    ['sample.xls', 'xls', 'xls'],
    ['sample.ppt', 'ppt', 'ppt'],
    ['sample.docx', 'docx', 'docx'],
    ['sample.xlsx', 'xlsx', 'xlsx'],
    ['sample.pptx', 'pptx', 'pptx'],
    ['sample.odt', 'odt', 'odt'],
    ['sample.ods', 'ods', 'ods'],
    ['sample.odp', 'odp', 'odp'],
    ['sample.jpg', 'jpeg', 'jpg'],
  ];
  it.each(cases)('%s → %s', async (file, expected, extension) => {
    const result = await detectFormat(writeTmp(fixtureBytes(file)));
    expect(result).toEqual({ format: expected, mimeType: MIME_TYPES[expected], extension });
  });
});

describe('detectFormat on images and PDF', () => {
  it('detects PNG, TIFF (both byte orders, BigTIFF) and PDF', async () => {
    expect(await detectFormat(writeTmp(png1x1()))).toEqual({ format: 'png', mimeType: 'image/png', extension: 'png' });
    expect(await format(tiff(true))).toBe('tiff');
    expect(await format(tiff(false))).toBe('tiff');
    expect(await format(tiff(true, true))).toBe('tiff');
    expect(await format(tiff(false, true))).toBe('tiff');
    expect(await detectFormat(writeTmp(pdf()))).toEqual({
      format: 'pdf',
      mimeType: 'application/pdf',
      extension: 'pdf',
    });
  });

  it('finds %PDF- at the start or after a byte order mark and white-space only, within the first 1024 bytes', async () => {
    expect(await format(pdf('\r\n'))).toBe('pdf');
    expect(await format(pdf('\uFEFF \t\f\0'))).toBe('pdf'); // the BOM as UTF-8, then PDF white-space
    expect(await format(pdf(' '.repeat(1019)))).toBe('pdf'); // marker ends exactly at byte 1024
    expect(await format(pdf(' '.repeat(1020)))).toBeUndefined();
    expect(await format(pdf('junk\n'))).toBeUndefined();
    expect(await format(pdf(' \uFEFF'))).toBeUndefined(); // a BOM counts only at the very start
  });

  // Polyglots: valid enough as a PDF for a reader, but run by the operating system as what they are first.
  it('refuses executables, scripts and markup, even with a PDF inside their first bytes', async () => {
    const dosStub = concat([
      ascii('MZ'),
      new Uint8Array(58),
      ascii('This program cannot be run in DOS mode.\r\n'),
      pdf(),
    ]);
    expect(await format(dosStub)).toBeUndefined();
    expect(await format(concat([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), pdf(' ')]))).toBeUndefined();
    expect(await format(pdf('#!/bin/sh\n# '))).toBeUndefined();
    expect(await format(ascii('#!/bin/sh\n%PDF-1.4\n'))).toBeUndefined();
    expect(await format(pdf('@echo off\r\nstart calc.exe\r\n'))).toBeUndefined(); // a batch file first
    for (const markup of [
      '<!DOCTYPE html>',
      '<html>',
      ' \r\n<script>',
      '<!-- x -->',
      '<?xml version="1.0"?>',
      '\uFEFF<svg>',
    ]) {
      expect(await format(concat([ascii(markup), pdf()])), markup).toBeUndefined();
    }
  });

  it('goes by content, not by name', async () => {
    expect(await detectFormat(writeTmp(pdf(), 'scan.png'))).toMatchObject({ format: 'pdf' });
    expect(await detectFormat(writeTmp(png1x1(), 'report.pdf'))).toMatchObject({ format: 'png' });
  });
});

describe('detectFormat on zip containers', () => {
  it('detects minimal OOXML and ODF packages, OPC names case-insensitively', async () => {
    expect(
      await format(
        zip([
          { name: '[Content_Types].xml', data: '<Types/>' },
          { name: 'word/document.xml', data: '<w/>' },
        ]),
      ),
    ).toBe('docx');
    expect(
      await format(
        zip([
          { name: 'xl/workbook.xml', data: '<x/>', deflate: true },
          { name: '[content_types].xml', data: '<Types/>' },
        ]),
      ),
    ).toBe('xlsx');
    expect(
      await format(
        zip([
          { name: '[Content_Types].xml', data: '<Types/>' },
          { name: 'PPT/Presentation.xml', data: '<p/>' },
        ]),
      ),
    ).toBe('pptx');
    expect(
      await format(
        zip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
          { name: 'content.xml', data: '<c/>' },
        ]),
      ),
    ).toBe('odt');
    // The spec wants `mimetype` stored, but a deflated one is just as unambiguous.
    expect(
      await format(zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', deflate: true }])),
    ).toBe('ods');
  });

  it('rejects zips that are not OOXML/ODF documents', async () => {
    const plain = zip([
      { name: 'a.pdf', data: pdf() },
      { name: 'b.pdf', data: pdf() },
    ]);
    expect(await format(plain)).toBeUndefined(); // "%PDF-" sits in the first KB: still a zip
    const epub = zip([
      { name: 'mimetype', data: 'application/epub+zip' },
      { name: 'META-INF/container.xml', data: '<container/>' },
      { name: 'OEBPS/content.opf', data: '<package/>' },
    ]);
    expect(await format(epub)).toBeUndefined();
    const jar = zip([
      { name: 'META-INF/MANIFEST.MF', data: 'Manifest-Version: 1.0\n' },
      { name: 'A.class', data: new Uint8Array([0xca, 0xfe, 0xba, 0xbe]) },
    ]);
    expect(await format(jar)).toBeUndefined();
    expect(await format(zip([]))).toBeUndefined();
  });

  it('needs both [Content_Types].xml and the main part, and an exact ODF mimetype', async () => {
    expect(await format(zip([{ name: 'word/document.xml', data: '<w/>' }]))).toBeUndefined();
    expect(
      await format(
        zip([
          { name: '[Content_Types].xml', data: '<Types/>' },
          { name: 'word/styles.xml', data: '<s/>' },
        ]),
      ),
    ).toBeUndefined();
    expect(
      await format(zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text\n' }])),
    ).toBeUndefined();
    expect(
      await format(zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text-template' }])),
    ).toBeUndefined();
    expect(
      await format(zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.graphics' }])),
    ).toBeUndefined();
  });

  it('returns null for truncated or corrupt zips', async () => {
    const docx = fixtureBytes('sample.docx');
    expect(await format(docx.subarray(0, docx.length >> 1))).toBeUndefined();
    expect(await format(docx.subarray(0, docx.length - 1))).toBeUndefined();
    expect(await format(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBeUndefined();
    const badDirectory = docx.slice();
    const directoryOffset = new DataView(docx.buffer, docx.byteOffset).getUint32(docx.length - 22 + 16, true);
    badDirectory.fill(0, directoryOffset, directoryOffset + 4); // first central directory signature
    expect(await format(badDirectory)).toBeUndefined();
    expect(await format(zip([{ name: '../evil', data: 'x' }]))).toBeUndefined();
  });
});

describe('detectFormat on OLE compound files', () => {
  it('detects doc/xls/ppt by root-level stream, for 512 and 4096-byte sectors', async () => {
    expect(await format(oleWithStreams(['\u0001CompObj', 'WordDocument', '1Table']))).toBe('doc');
    expect(await format(oleWithStreams(['Workbook', '\u0005SummaryInformation']))).toBe('xls');
    expect(await format(oleWithStreams(['Book']))).toBe('xls');
    expect(await format(oleWithStreams(['Current User', 'PowerPoint Document'], 12))).toBe('ppt');
    // Spread over several directory sectors (4 entries per 512-byte sector).
    expect(await format(oleWithStreams(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'WordDocument']))).toBe('doc');
  });

  it('returns null when no known stream is at the root', async () => {
    const msg = oleWithStreams(['__substg1.0_0037001F', '__properties_version1.0', '__substg1.0_1000001F']);
    expect(await format(msg)).toBeUndefined();
    expect(await format(oleWithStreams([]))).toBeUndefined();
    // An embedded workbook (in a sub-storage) does not make the file a spreadsheet.
    const nested = ole([
      { name: 'Root Entry', type: ROOT, child: 1 },
      { name: 'ObjectPool', type: STORAGE, child: 2 },
      { name: 'Workbook', type: STREAM },
    ]);
    expect(await format(nested)).toBeUndefined();
    // A storage named like a stream does not count either.
    expect(
      await format(
        ole([
          { name: 'Root Entry', type: ROOT, child: 1 },
          { name: 'WordDocument', type: STORAGE },
        ]),
      ),
    ).toBeUndefined();
  });

  it('looks only at the root, so a .doc with an embedded workbook stays a .doc', async () => {
    const doc = ole([
      { name: 'Root Entry', type: ROOT, child: 1 },
      { name: 'ObjectPool', type: STORAGE, child: 3, right: 2 },
      { name: 'WordDocument', type: STREAM },
      { name: 'Workbook', type: STREAM },
    ]);
    expect(await format(doc)).toBe('doc');
  });

  it('follows FAT sectors listed in DIFAT sectors beyond the header’s 109', async () => {
    // First directory sector 13953 is covered by FAT sector #109, found only via DIFAT sector 1.
    const firstDir = 109 * 128 + 1;
    const sectors = new Map<number, Uint8Array>([
      [
        0,
        idSector(
          512,
          new Map([
            [0, FATSECT],
            [1, DIFSECT],
            [2, FATSECT],
            [3, ENDOFCHAIN],
          ]),
        ),
      ],
      [
        1,
        idSector(
          512,
          new Map([
            [0, 2],
            [127, ENDOFCHAIN],
          ]),
        ),
      ],
      [2, idSector(512, new Map([[firstDir % 128, 3]]))],
      [3, concat([oleEntry({ name: 'PowerPoint Document', type: STREAM }), new Uint8Array(384)])],
      [
        firstDir,
        concat([
          oleEntry({ name: 'Root Entry', type: ROOT, child: 1 }),
          oleEntry({ name: 'Current User', type: STREAM, right: 4 }),
          new Uint8Array(256),
        ]),
      ],
    ]);
    const bytes = assemble(
      oleHeader({ shift: 9, firstDir, fat: [0], fatCount: 110, firstDifat: 1, difatCount: 1 }),
      sectors,
    );
    expect(await format(bytes)).toBe('ppt');
    expect(detectFormatFromHead(bytes)).toMatchObject({ format: 'ppt' });
  });

  it('terminates on cycles in the directory chain and in the entry tree', async () => {
    const names = ['a', 'b', 'c', 'WordDocument']; // WordDocument is entry 4: the second sector
    const entries: OleEntry[] = [
      { name: 'Root Entry', type: ROOT, child: 1 },
      ...names.map((name, i) => ({ name, type: STREAM, right: i + 2 })),
    ];
    expect(await format(ole(entries))).toBe('doc');
    expect(await format(ole(entries, { patchFat: (fat) => fat.set(1, 1) }))).toBeUndefined();
    expect(await format(ole(entries, { patchFat: (fat) => fat.set(1, 0) }))).toBeUndefined(); // into the FAT
    const looping = ole([
      { name: 'Root Entry', type: ROOT, child: 1 },
      { name: 'a', type: STREAM, left: 1, right: 2 },
      { name: 'WordDocument', type: STREAM, left: 0, right: 1 },
    ]);
    expect(await format(looping)).toBe('doc');
  });

  it('returns null for truncated or malformed compound files', async () => {
    const doc = fixtureBytes('sample.doc');
    const header = new DataView(doc.buffer, doc.byteOffset, 512);
    const dirOffset = (header.getUint32(0x30, true) + 1) * 512;
    expect(await format(doc.subarray(0, dirOffset))).toBeUndefined();
    expect(await format(doc.subarray(0, 512))).toBeUndefined();
    expect(await format(doc.subarray(0, 100))).toBeUndefined();
    const badShift = doc.slice();
    badShift[0x1e] = 10;
    expect(await format(badShift)).toBeUndefined();
    const badOrder = doc.slice();
    badOrder[0x1c] = 0;
    expect(await format(badOrder)).toBeUndefined();
    const noRoot = oleWithStreams(['WordDocument']);
    noRoot[512 * 2 + 0x42] = STORAGE; // entry 0 is no longer the root
    expect(await format(noRoot)).toBeUndefined();
    const farDirectory = oleWithStreams(['WordDocument']);
    new DataView(farDirectory.buffer).setUint32(0x30, 0xfffffff0, true);
    expect(await format(farDirectory)).toBeUndefined();
  });
});

describe('detectFormat on junk', () => {
  it('returns null for empty, tiny, random and header-only inputs', async () => {
    expect(await format(new Uint8Array())).toBeUndefined();
    expect(await format(new Uint8Array([0xff]))).toBeUndefined();
    expect(await format(noise(4096, 'random'))).toBeUndefined();
    expect(await format(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
    expect(await format(png1x1().subarray(0, 7))).toBeUndefined();
    expect(await format(ascii('II*'))).toBeUndefined();
    expect(await format(ascii('%PDF'))).toBeUndefined();
    expect(await format(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBeUndefined();
    expect(await format(ascii('hello, world\n'))).toBeUndefined();
  });

  it('rejects when the file cannot be read at all', async () => {
    await expect(detectFormat(join(tmp, 'missing.bin'))).rejects.toThrow();
  });
});

describe('detectFormatFromHead', () => {
  const head = (bytes: Uint8Array): Uint8Array => bytes.subarray(0, 1024);

  it('answers from signatures for images and PDF', () => {
    expect(detectFormatFromHead(head(pdf('\n')))).toMatchObject({ format: 'pdf' });
    expect(detectFormatFromHead(head(pdf('junk\n')))).toBeNull();
    expect(detectFormatFromHead(head(concat([ascii('MZ'), pdf()])))).toBeNull();
    expect(detectFormatFromHead(head(png1x1()))).toMatchObject({ format: 'png' });
    expect(detectFormatFromHead(head(fixtureBytes('sample.jpg')))).toMatchObject({
      format: 'jpeg',
      mimeType: 'image/jpeg',
    });
    expect(detectFormatFromHead(head(tiff(false)))).toMatchObject({ format: 'tiff' });
  });

  it('needs the file for zips, even when given all of it', () => {
    expect(detectFormatFromHead(head(fixtureBytes('sample.docx')))).toBe('needs-file');
    expect(detectFormatFromHead(fixtureBytes('sample.odt'))).toBe('needs-file');
    expect(detectFormatFromHead(head(zip([{ name: 'a.pdf', data: pdf() }])))).toBe('needs-file');
  });

  it('answers OLE files when the bytes reach the directory, else needs the file', () => {
    const doc = fixtureBytes('sample.doc');
    expect(detectFormatFromHead(doc.subarray(0, 512))).toBe('needs-file');
    expect(detectFormatFromHead(doc)).toMatchObject({ format: 'doc', mimeType: 'application/msword' });
    expect(detectFormatFromHead(fixtureBytes('sample.xls'))).toMatchObject({ format: 'xls' });
    expect(detectFormatFromHead(fixtureBytes('sample.ppt'))).toMatchObject({ format: 'ppt' });
    expect(detectFormatFromHead(oleWithStreams(['__substg1.0_0037001F']))).toBeNull();
    expect(detectFormatFromHead(oleWithStreams(['a', 'b'], 12).subarray(0, 4096))).toBe('needs-file');
  });

  it('returns null for junk', () => {
    expect(detectFormatFromHead(new Uint8Array())).toBeNull();
    expect(detectFormatFromHead(new Uint8Array([0x25]))).toBeNull();
    expect(detectFormatFromHead(noise(1024, 'head'))).toBeNull();
  });
});

describe('contentTypeMatches', () => {
  const as = (f: FileFormat): DetectedFormat => ({ format: f, mimeType: MIME_TYPES[f], extension: f });

  it('accepts every canonical type, and undeclared ones', () => {
    for (const f of Object.keys(MIME_TYPES) as FileFormat[]) {
      expect(contentTypeMatches(MIME_TYPES[f], as(f))).toBe(true);
      for (const undeclared of [undefined, '', '  ', 'application/octet-stream', 'Application/Octet-Stream; name=x']) {
        expect(contentTypeMatches(undeclared, as(f))).toBe(true);
      }
    }
  });

  it('ignores case, whitespace and parameters', () => {
    expect(contentTypeMatches('Application/PDF; charset=binary', as('pdf'))).toBe(true);
    expect(contentTypeMatches('  IMAGE/PNG  ', as('png'))).toBe(true);
    expect(contentTypeMatches('application/msword;name="a.doc"', as('doc'))).toBe(true);
  });

  it('accepts the common aliases', () => {
    expect(contentTypeMatches('image/jpg', as('jpeg'))).toBe(true);
    expect(contentTypeMatches('image/pjpeg', as('jpeg'))).toBe(true);
    expect(contentTypeMatches('image/tif', as('tiff'))).toBe(true);
    expect(contentTypeMatches('image/x-tiff', as('tiff'))).toBe(true);
    expect(contentTypeMatches('application/x-pdf', as('pdf'))).toBe(true);
    for (const f of ['doc', 'xls', 'ppt'] as const) {
      expect(contentTypeMatches('application/vnd.ms-office', as(f))).toBe(true);
      expect(contentTypeMatches('application/x-tika-msoffice', as(f))).toBe(true);
    }
    for (const f of ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp'] as const) {
      expect(contentTypeMatches('application/zip', as(f))).toBe(true);
      expect(contentTypeMatches('application/x-zip-compressed', as(f))).toBe(true);
    }
  });

  it('rejects types of other formats and unrelated types', () => {
    expect(contentTypeMatches('image/png', as('pdf'))).toBe(false);
    expect(contentTypeMatches('application/pdfx', as('pdf'))).toBe(false);
    expect(contentTypeMatches('text/plain', as('pdf'))).toBe(false);
    expect(contentTypeMatches('application/zip', as('pdf'))).toBe(false);
    expect(contentTypeMatches('application/zip', as('doc'))).toBe(false);
    expect(contentTypeMatches('application/vnd.ms-office', as('docx'))).toBe(false);
    expect(contentTypeMatches('application/msword', as('docx'))).toBe(false);
    expect(contentTypeMatches('application/msword', as('xls'))).toBe(false);
    expect(contentTypeMatches(MIME_TYPES.odt, as('docx'))).toBe(false);
    expect(contentTypeMatches('image/jpg', as('png'))).toBe(false);
    expect(contentTypeMatches('application', as('pdf'))).toBe(false);
  });
});

describe('a Windows executable with "%PDF-" in its DOS stub, named setup.exe', () => {
  const polyglot = (): Uint8Array =>
    concat([ascii('MZ'), new Uint8Array(58), ascii('%PDF-1.4 in the stub\r\n'), pdf()]);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("is refused by the service with the spec's message, and nothing is stored", async () => {
    const res = await h.upload({ bytes: polyglot(), name: 'setup.exe', type: 'application/pdf' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, error: 'File content does not match any supported format' });
    expect(await h.db.get('SELECT count(*) AS n FROM documents')).toEqual({ n: 0 });
  });

  it("is refused by the desktop's pre-upload check in the same words (one detection for both)", async () => {
    expect(await checkFile(writeTmp(polyglot(), 'setup.exe'))).toEqual({
      ok: false,
      permanent: true,
      error: 'File content does not match any supported format',
    });
  });
});
