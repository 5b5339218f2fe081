/**
 * pdf.js's run-time data end to end: a scan whose only page content is a JPEG 2000 image decodes in pdf.js's
 * OpenJPEG WebAssembly, which the renderer build copies beside index.html (vite.config.ts) and the preview passes as
 * wasmUrl. Without it the page renders blank. The fixture test/fixtures/formats/quadrants.jp2 is 64×64 px in four
 * colours (made once with OpenJPEG's opj_compress from a PPM; the test needs no encoder).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { e2eSession, openFirstDocument, ROOT, shoot } from './e2e-harness.ts';

/** The quadrants of the fixture, top left, top right, bottom left, bottom right (RGB). */
const QUADRANTS: Array<[number, number, number]> = [
  [220, 30, 30],
  [30, 160, 60],
  [30, 60, 200],
  [240, 200, 20],
];

/**
 * A one-page PDF whose content is only the JPX image, drawn over the whole page (pdf-lib has no JPX embedder). A raw
 * stream: pdf-lib's flateStream would replace the JPXDecode filter with its own FlateDecode.
 */
async function jpxPdf(): Promise<Uint8Array> {
  const jp2 = await readFile(join(ROOT, 'test', 'fixtures', 'formats', 'quadrants.jp2'));
  const pdf = await PDFDocument.create();
  const image = pdf.context.register(
    pdf.context.stream(jp2, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 64,
      Height: 64,
      BitsPerComponent: 8,
      ColorSpace: 'DeviceRGB',
      Filter: 'JPXDecode',
    }),
  );
  const page = pdf.addPage([320, 320]);
  const name = page.node.newXObject('Scan', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(320, 0, 0, 320, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
  pdf.setTitle('JPEG 2000 scan');
  return pdf.save();
}

const session = e2eSession('pdf-assets');

describe('pdf.js data (browser shell, Chromium)', () => {
  it('previews a JPEG 2000 scan: the page is drawn, decoded by the OpenJPEG wasm the build ships', async () => {
    const scan = join(session.dir, 'jpx-scan.pdf');
    await writeFile(scan, await jpxPdf());
    await session.desktop.app.handlers['uploads.add']({ paths: [scan] });
    const { page } = session.opened;
    const requested: string[] = [];
    // Dedicated workers' requests are reported on the page too: the worker fetches the wasm.
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await openFirstDocument(page, session.desktop.shell.url);
    const canvas = page.locator('[data-testid=pdf-viewer] canvas').first();
    await canvas.waitFor();
    // The centre of each quadrant, in canvas pixels; JPEG 2000 is lossy, so each channel within 40 of the original.
    const sample = (): Promise<number[][]> =>
      canvas.evaluate((element) => {
        const c = element as unknown as {
          width: number;
          height: number;
          getContext(
            kind: '2d',
          ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
        };
        const context = c.getContext('2d');
        if (!context) return [];
        return [
          [0.25, 0.25],
          [0.75, 0.25],
          [0.25, 0.75],
          [0.75, 0.75],
        ].map(([fx, fy]) => {
          const data = context.getImageData(Math.floor(c.width * fx!), Math.floor(c.height * fy!), 1, 1).data;
          return [data[0]!, data[1]!, data[2]!];
        });
      });
    const close = (pixels: number[][]): boolean =>
      pixels.length === 4 &&
      pixels.every((rgb, i) => rgb.every((value, channel) => Math.abs(value - QUADRANTS[i]![channel]!) <= 40));
    await expect.poll(async () => close(await sample()), { timeout: 20_000, interval: 250 }).toBe(true);
    await shoot(page, 'document-jpx');

    expect(requested.some((path) => path.endsWith('/pdfjs/wasm/openjpeg.wasm'))).toBe(true);
    // Decoded by the wasm, not the (much slower) JavaScript fallback pdf.js loads when WebAssembly is refused.
    expect(requested.some((path) => path.endsWith('openjpeg_nowasm_fallback.js'))).toBe(false);
    expect(session.opened.pageErrors).toEqual([]);
  }, 120_000);

  it('serves CMaps and standard fonts with their types, under the page CSP (connect-src self)', async () => {
    const { page } = session.opened;
    await page.goto(session.desktop.shell.url);
    const paths = [
      'pdfjs/cmaps/UniJIS-UCS2-H.bcmap',
      'pdfjs/standard_fonts/FoxitSerif.pfb',
      'pdfjs/wasm/openjpeg.wasm',
      'pdfjs/iccs/CGATS001Compat-v2-micro.icc',
    ];
    const answers = await page.evaluate(
      async (urls) =>
        Promise.all(
          urls.map(async ([path, url]) => {
            const response = await fetch(url!);
            return [
              path,
              response.status,
              response.headers.get('content-type'),
              (await response.arrayBuffer()).byteLength > 0,
            ];
          }),
        ),
      paths.map((path) => [path, new URL(path, page.url()).href]),
    );
    expect(answers).toEqual([
      ['pdfjs/cmaps/UniJIS-UCS2-H.bcmap', 200, 'application/octet-stream', true],
      ['pdfjs/standard_fonts/FoxitSerif.pfb', 200, 'application/octet-stream', true],
      ['pdfjs/wasm/openjpeg.wasm', 200, 'application/wasm', true],
      ['pdfjs/iccs/CGATS001Compat-v2-micro.icc', 200, 'application/octet-stream', true],
    ]);
  }, 60_000);
});
