/**
 * The rendered-documents set: invented documents written as HTML the way senders' software prints them
 * (test/fixtures/rendered-documents/NNN-lang-kind.html beside its truth NNN-lang-kind.json), turned into the files a
 * user would have: a PDF printed by Chromium (text layer, real layout) or a scan (the page as pixels, then skewed,
 * blurred, noisy and JPEG-compressed as scripts/corpus/render-image.ts does for the generated corpus). The files and a
 * truth in the generated corpus's format go to test-results/rendered-documents/, rendered again only when a source,
 * its truth or this module changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { chromium, type Browser } from 'playwright-core';
import { browserCandidates, findBrowser } from '../../test/helpers/find-browser.ts';
import { describe, distort, encodeJpeg, type Distortion } from '../corpus/render-image.ts';
import { createRng } from '../corpus/rng.ts';

/** What a source's truth says beyond the fields: how the document reached the user. */
interface SourceTruth {
  event_type: string;
  sender_name: string | null;
  reference_number: string | null;
  amount: { value: number; currency: string } | null;
  document_date: string | null;
  due_date: string | null;
  /** A PDF as software exports it, a scan, or a photo taken on a table. */
  render?: 'pdf' | 'scan' | 'photo';
  paper?: 'a4' | 'letter' | 'receipt';
}

const CSS_PX: Record<'a4' | 'letter' | 'receipt', number> = { a4: 794, letter: 816, receipt: 302 };
/** Pixels per CSS pixel of a scan: about 250 dpi. */
const SCAN_SCALE = 2.6;
/** Each rendered source's hash (not a .json: the set's loader reads every .json as a truth). */
const MANIFEST = 'render-manifest.txt';

/** Renders every source whose output is missing or stale; returns the number rendered. */
export async function renderDocuments(sourceDir: string, outDir: string): Promise<number> {
  mkdirSync(outDir, { recursive: true });
  const self = readFileSync(import.meta.filename);
  const manifestPath = join(outDir, MANIFEST);
  const manifest: Record<string, string> = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, string>)
    : {};
  const names = readdirSync(sourceDir)
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.slice(0, -'.html'.length))
    .sort();
  const stale = names.filter((name) => manifest[name] !== sourceHash(sourceDir, name, self));
  if (stale.length === 0) return 0;
  const found = await findBrowser(browserCandidates());
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    timeout: 30_000,
  });
  try {
    for (const name of stale) {
      await renderOne(browser, sourceDir, outDir, name);
      manifest[name] = sourceHash(sourceDir, name, self);
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
    }
  } finally {
    await browser.close();
  }
  return stale.length;
}

function sourceHash(dir: string, name: string, renderer: Buffer): string {
  const hash = createHash('sha256').update(renderer);
  for (const ext of ['.html', '.json']) hash.update(readFileSync(join(dir, `${name}${ext}`)));
  return hash.digest('hex');
}

async function renderOne(browser: Browser, sourceDir: string, outDir: string, name: string): Promise<void> {
  const truth = JSON.parse(readFileSync(join(sourceDir, `${name}.json`), 'utf8')) as SourceTruth;
  const paper = truth.paper ?? 'a4';
  const render = truth.render ?? 'pdf';
  const page = await browser.newPage({
    // A till roll grows with its content: a low viewport keeps a short slip short.
    viewport: { width: CSS_PX[paper], height: paper === 'receipt' ? 200 : 1000 },
    deviceScaleFactor: render === 'pdf' ? 1 : SCAN_SCALE,
  });
  try {
    await page.goto(pathToFileURL(join(sourceDir, `${name}.html`)).href);
    // A scanned sheet has its margins (the PDF printer adds its own).
    if (render !== 'pdf')
      await page.addStyleTag({
        content:
          paper === 'receipt'
            ? 'html{padding:14px 10px}'
            : 'html{padding:46px 54px;min-height:1123px;box-sizing:border-box}',
      });
    // Evaluated in the page (a string: this file is type-checked without the DOM's types).
    const text = (await page.evaluate('document.body.innerText')) as string;
    for (const old of readdirSync(outDir).filter((f) => f.startsWith(`${name}.`))) rmSync(join(outDir, old));
    let file: string;
    let distortion: string | null = null;
    if (render === 'pdf') {
      file = `${name}.pdf`;
      const receiptHeight = Math.ceil((await page.evaluate('document.documentElement.scrollHeight')) as number) + 20;
      const pdf = await page.pdf({
        ...(paper === 'receipt'
          ? { width: '80mm', height: `${receiptHeight}px` }
          : { format: paper === 'letter' ? 'Letter' : 'A4' }),
        printBackground: true,
        margin:
          paper === 'receipt'
            ? { top: '4mm', bottom: '4mm', left: '3mm', right: '3mm' }
            : { top: '12mm', bottom: '12mm', left: '14mm', right: '14mm' },
      });
      writeFileSync(join(outDir, file), pdf);
    } else {
      file = `${name}.jpg`;
      const image = await loadImage(await page.screenshot({ fullPage: true }));
      const canvas = createCanvas(image.width, image.height);
      canvas.getContext('2d').drawImage(image, 0, 0);
      const rng = createRng(name);
      const photo = render === 'photo';
      const d: Distortion = {
        skew: (rng.next() - 0.5) * (photo ? 5 : 2.5),
        blur: photo ? 0.9 : 0.5,
        noise: photo ? 7 : 4,
        salt: 0.0004,
        rotate: 0,
        photo,
        jpegRoundTrip: null,
      };
      writeFileSync(join(outDir, file), encodeJpeg(await distort(canvas, d, rng), photo ? 70 : 82));
      distortion = describe(d);
    }
    const { render: _render, paper: _paper, ...fields } = truth;
    const corpusTruth = {
      file,
      format: render === 'pdf' ? 'pdf' : 'jpeg',
      family: render === 'pdf' ? 'pdf' : 'image',
      language: name.split('-')[1] ?? 'en',
      ...fields,
      category: null,
      einvoice: false,
      einvoice_syntax: null,
      distortion,
      text,
    };
    writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(corpusTruth, null, 2)}\n`);
  } finally {
    await page.close();
  }
}
