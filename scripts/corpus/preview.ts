/** Renders corpus files to PNG previews in /tmp/corpus-preview for a visual check (development aid). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import UTIF from 'utif2';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const OUT = '/tmp/corpus-preview';
mkdirSync(OUT, { recursive: true });

function scaled(
  source: Canvas | Awaited<ReturnType<typeof loadImage>>,
  width: number,
  height: number,
  maxWidth: number,
): Canvas {
  const f = Math.min(1, maxWidth / width);
  const c = createCanvas(Math.round(width * f), Math.round(height * f));
  c.getContext('2d').drawImage(source, 0, 0, c.width, c.height);
  return c;
}

const maxWidth = Number(process.env.PREVIEW_WIDTH ?? 900);
for (const path of process.argv.slice(2)) {
  const name = basename(path);
  const bytes = readFileSync(path);
  const pages: Canvas[] = [];
  if (/\.(jpg|png)$/.test(name)) {
    const img = await loadImage(bytes);
    pages.push(scaled(img, img.width, img.height, maxWidth));
  } else if (name.endsWith('.tif')) {
    const ifds = UTIF.decode(bytes);
    for (const ifd of ifds) {
      UTIF.decodeImage(bytes, ifd);
      const rgba = UTIF.toRGBA8(ifd);
      const c = createCanvas(ifd.width, ifd.height);
      const ctx = c.getContext('2d');
      const data = ctx.createImageData(ifd.width, ifd.height);
      data.data.set(rgba);
      ctx.putImageData(data, 0, 0);
      pages.push(scaled(c, c.width, c.height, maxWidth));
    }
  } else if (name.endsWith('.pdf')) {
    const pdf = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      verbosity: 0,
      standardFontDataUrl: `${process.cwd()}/node_modules/pdfjs-dist/standard_fonts/`,
    }).promise;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const vp = page.getViewport({ scale: maxWidth / page.getViewport({ scale: 1 }).width });
      const c = createCanvas(Math.ceil(vp.width), Math.ceil(vp.height));
      await page.render({ canvas: c as never, canvasContext: c.getContext('2d') as never, viewport: vp }).promise;
      pages.push(c);
    }
  }
  pages.forEach((c, i) => writeFileSync(`${OUT}/${name}.${i + 1}.png`, c.encodeSync('png')));
  console.log(name, pages.length);
}
