/**
 * Builds the document-intelligence evaluation corpus in test/fixtures/corpus/: ~96 realistic fictional documents
 * (ten event types, German and English plus French, Dutch, Spanish and Italian, text PDFs, e-invoices, scans, photos, PNG/TIFF, DOCX/ODT/XLSX), each with
 * a ground-truth `<name>.json`. Deterministic: the same seed gives the same files.
 *
 *   npm run corpus                                  (all documents, into test/fixtures/corpus/)
 *   npm run corpus -- --seed 2 --out /tmp/corpus-2  (same plan, other content)
 *   npm run corpus -- --held-out                    (the held-out plan, into test-results/corpus-held-out/)
 *   npm run corpus -- --help
 *
 * Needs LibreOffice (soffice) for the Office files and the Liberation fonts for the scans.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { detectFormat } from '../shared/formats/detect-format.ts';
import { scriptArgs } from './cli-args.ts';
import { attachInvoiceXml, buildCii, buildUbl } from './corpus/einvoice.ts';
import { encodeGrayPng, encodeTiff, type GrayImage } from './corpus/encoders.ts';
import { createMeasure, layoutDocument, type Layout } from './corpus/layout.ts';
import type { Truth } from './corpus/model.ts';
import { convertWithLibreOffice, toFods, toHtml, type OfficeSource, type OfficeTarget } from './corpus/office.ts';
import { CATEGORIES, recipientsFor, sender } from './corpus/parties.ts';
import { PLAN, type PlanEntry } from './corpus/plan.ts';
import { describe, distort, encodeJpeg, renderPage, type Distortion } from './corpus/render-image.ts';
import { drawLayout, renderImagePdf, renderTextPdf, setInfo } from './corpus/render-pdf.ts';
import { HELD_OUT_PLAN, HELD_OUT_RECIPIENTS, HELD_OUT_SENDERS } from './corpus/held-out.ts';
import { createRng, type Rng } from './corpus/rng.ts';
import { makeCtx } from './corpus/templates/common.ts';
import { buildDocument } from './corpus/templates/index.ts';
import { buildMultilingual } from './corpus/templates/multilingual.ts';

const DEFAULT_OUT_DIR = resolve(import.meta.dirname, '../test/fixtures/corpus');
const DEFAULT_HELD_OUT_DIR = resolve(import.meta.dirname, '../test-results/corpus-held-out');
const DEFAULT_SEED = '2026-issue-3';
const MAX_TOTAL_BYTES = 15 * 1024 * 1024;

const EXTENSIONS: Record<PlanEntry['format'], string> = {
  pdf: 'pdf',
  einvoice: 'pdf',
  scan: 'pdf',
  jpeg: 'jpg',
  png: 'png',
  tiff: 'tif',
  docx: 'docx',
  odt: 'odt',
  xlsx: 'xlsx',
};
const FAMILY: Record<PlanEntry['format'], Truth['family']> = {
  pdf: 'text-pdf',
  einvoice: 'einvoice-pdf',
  scan: 'scanned-pdf',
  jpeg: 'image',
  png: 'image',
  tiff: 'image',
  docx: 'office',
  odt: 'office',
  xlsx: 'office',
};

const HELP = `Usage: npm run corpus [-- --seed S] [-- --out DIR] [-- --held-out]

Generates the labelled evaluation corpus (documents + ground-truth JSON). The same seed gives byte-identical files.

  --seed S    seed for the content (recipients, dates, amounts, numbers, items, wording, layout choices, scan
              distortion); the plan (event type, sender, format of each document) stays the same.
              Default: ${DEFAULT_SEED}
  --out DIR   directory to write into; its previous corpus files are removed first.
              Default: test/fixtures/corpus/ (with --held-out: test-results/corpus-held-out/)
  --held-out  the held-out plan instead (scripts/corpus/held-out.ts): senders, templates and wording the
              committed corpus does not use, in six languages (en, de, fr, nl, es, it). Never tune rules on it;
              npm run eval reports it as "generated held-out"
  --help      this text`;

function parseArgs(): { seed: string; outDir: string; heldOut: boolean } {
  const values = scriptArgs(
    { seed: { type: 'string' }, out: { type: 'string' }, 'held-out': { type: 'boolean' } },
    HELP,
  );
  const heldOut = values['held-out'] ?? false;
  return {
    seed: values.seed ?? DEFAULT_SEED,
    heldOut,
    outDir: values.out ? resolve(values.out) : heldOut ? DEFAULT_HELD_OUT_DIR : DEFAULT_OUT_DIR,
  };
}

function heldOutSender(key: string) {
  const found = HELD_OUT_SENDERS.find((s) => s.key === key);
  if (!found) throw new Error(`unknown held-out sender ${key}`);
  return found;
}

/** Empties the output directory, refusing one that holds anything but corpus files (a mistyped --out). */
function prepareOutDir(dir: string): void {
  if (existsSync(dir)) {
    const foreign = readdirSync(dir).filter((f) => !/^(doc-\d+\.[a-z]+|README\.md)$/.test(f));
    if (foreign.length)
      throw new Error(
        `${dir} holds files that are not corpus files (${foreign.slice(0, 3).join(', ')}); choose another --out`,
      );
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

function randomDate(rng: Rng, from: string, to: string): string {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  const day = rng.int(0, Math.round((b - a) / 86_400_000));
  return new Date(a + day * 86_400_000).toISOString().slice(0, 10);
}

function defaultDistortion(entry: PlanEntry, rng: Rng): Distortion {
  const sign = rng.chance(0.5) ? -1 : 1;
  const photo = entry.distortion?.photo ?? false;
  const base: Distortion = {
    skew: sign * (photo ? rng.amount(1, 3) : rng.amount(0.3, 2.5)),
    blur: rng.pick([0.5, 0.6, 0.8]),
    noise: entry.format === 'png' ? 0 : rng.pick([3, 4, 5]),
    salt: rng.pick([0.0004, 0.0008, 0.0012]),
    rotate: 0,
    photo,
    jpegRoundTrip: entry.format === 'png' ? rng.pick([55, 65]) : null,
  };
  // Grey noise does not compress; bilevel pages need it to get the specks of a real black-and-white scan.
  if (entry.format === 'tiff') base.noise = entry.greyscale ? 0 : 6;
  return { ...base, ...entry.distortion };
}

/** JFIF density, so OCR knows the resolution. */
function setJpegDpi(bytes: Uint8Array, dpi: number): Uint8Array {
  const b = Buffer.from(bytes);
  if (b[2] === 0xff && b[3] === 0xe0 && b.toString('latin1', 6, 10) === 'JFIF') {
    b[13] = 1;
    b.writeUInt16BE(dpi, 14);
    b.writeUInt16BE(dpi, 16);
  }
  return b;
}

async function main(): Promise<void> {
  const { seed, outDir, heldOut } = parseArgs();
  if (heldOut && outDir === DEFAULT_OUT_DIR)
    throw new Error('the held-out corpus must not replace the committed one; choose another --out');
  const measure = await createMeasure();
  prepareOutDir(outDir);

  const truths: Truth[] = [];
  const officeJobs: Array<{ name: string; source: OfficeSource; target: OfficeTarget; truth: Truth }> = [];

  for (const [index, entry] of (heldOut ? HELD_OUT_PLAN : PLAN).entries()) {
    const name = `doc-${String(index + 1).padStart(2, '0')}`;
    const rng = createRng(`${seed}:${index}:${entry.type}:${entry.sender}`);
    const s = heldOut ? heldOutSender(entry.sender) : sender(entry.sender);
    const recipient = heldOut ? HELD_OUT_RECIPIENTS[s.lang] : rng.pick(recipientsFor(s, entry.opts?.business ?? false));
    const [from, to] = entry.dates ?? ['2026-07-01', '2026-11-20'];
    const docDate = randomDate(rng, from, to);
    const ctx = makeCtx(rng.fork('text'), s, recipient, { variant: index, ...entry.opts }, docDate);
    const built = heldOut ? buildMultilingual(ctx, 1) : buildDocument(entry.type, ctx);
    if (built.truth.event_type !== entry.type)
      throw new Error(`${name}: template made ${built.truth.event_type}, plan says ${entry.type}`);
    const ext = EXTENSIONS[entry.format];
    const file = `${name}.${ext}`;
    const title =
      built.model.blocks.find((b) => b.kind === 'heading')?.kind === 'heading'
        ? (built.model.blocks.find((b) => b.kind === 'heading') as { text: string }).text
        : s.name;
    const info = { title, author: s.name, date: new Date(`${docDate}T09:00:00Z`) };

    const truth: Truth = {
      file,
      format: '',
      family: FAMILY[entry.format],
      language: s.lang,
      ...built.truth,
      einvoice: entry.format === 'einvoice',
      einvoice_syntax: entry.einvoice ?? null,
      pages: 1,
      distortion: null,
      text: '',
    };
    if (!CATEGORIES.includes(truth.category as never)) throw new Error(`${name}: unknown category ${truth.category}`);

    let bytes: Uint8Array | null = null;
    let layout: Layout | null = null;
    if (entry.format === 'docx' || entry.format === 'odt' || entry.format === 'xlsx') {
      const source = entry.format === 'xlsx' ? toFods(built.model, title) : toHtml(built.model, title);
      truth.text = source.text;
      officeJobs.push({ name, source, target: entry.format, truth });
    } else {
      layout = layoutDocument(built.model, measure);
      truth.text = layout.text;
      truth.pages = layout.pages.length;
    }

    if (entry.format === 'pdf') bytes = await renderTextPdf(layout!, info);
    else if (entry.format === 'einvoice') {
      if (!built.invoice || !entry.einvoice) throw new Error(`${name}: e-invoice without invoice data`);
      const pdf = await PDFDocument.create();
      setInfo(pdf, info);
      await drawLayout(pdf, layout!);
      const xml =
        entry.einvoice === 'xrechnung-ubl'
          ? buildUbl(built.invoice)
          : buildCii(built.invoice, entry.einvoice === 'xrechnung-cii' ? 'xrechnung' : 'factur-x-en16931');
      await attachInvoiceXml(pdf, xml, entry.einvoice === 'factur-x-cii' ? 'factur-x.xml' : 'xrechnung.xml', {
        title,
        author: s.name,
        date: docDate,
      });
      bytes = await pdf.save({ useObjectStreams: false });
    } else if (layout) {
      const d = defaultDistortion(entry, rng.fork('scan'));
      truth.distortion = describe(d);
      const greyTiff = entry.format === 'tiff' && entry.greyscale === true;
      const dpi =
        entry.format === 'png' || greyTiff ? 170 : built.model.paper === 'receipt' ? 220 : d.photo ? 180 : 200;
      const images: GrayImage[] = [];
      for (const page of layout.pages)
        images.push(await distort(renderPage(page, dpi), d, rng.fork(`page${images.length}`)));
      if ((entry.format === 'jpeg' || entry.format === 'png') && images.length > 1) {
        throw new Error(`${name}: ${entry.format} can hold one page, the layout has ${images.length}`);
      }
      const quality = rng.pick([62, 68, 75]);
      if (entry.format === 'scan') {
        bytes = await renderImagePdf(
          images.map((img) => ({
            jpeg: setJpegDpi(encodeJpeg(img, quality), dpi),
            widthPt: (img.width / dpi) * 72,
            heightPt: (img.height / dpi) * 72,
          })),
          info,
        );
      } else if (entry.format === 'jpeg') bytes = setJpegDpi(encodeJpeg(images[0]!, quality), dpi);
      else if (entry.format === 'png') bytes = encodeGrayPng(images[0]!, dpi);
      else bytes = encodeTiff(images.map((image) => ({ image, bilevel: !greyTiff, dpi })));
    }
    if (bytes) writeFileSync(join(outDir, file), bytes);
    truths.push(truth);
    process.stdout.write(`${file} ${entry.type} ${s.key} ${entry.format}${bytes ? ` ${bytes.length} B` : ''}\n`);
  }

  if (officeJobs.length) {
    const converted = convertWithLibreOffice(officeJobs.map(({ name, source, target }) => ({ name, source, target })));
    for (const job of officeJobs) {
      const bytes = converted.get(job.name);
      if (!bytes) throw new Error(`${job.name}: LibreOffice wrote nothing`);
      writeFileSync(join(outDir, job.truth.file), bytes);
      process.stdout.write(`${job.truth.file} ${job.target} ${bytes.length} B\n`);
    }
  }

  for (const truth of truths) {
    const detected = await detectFormat(join(outDir, truth.file));
    if (!detected) throw new Error(`${truth.file}: format not detected`);
    truth.format = detected.format;
    writeFileSync(join(outDir, truth.file.replace(/\.[a-z]+$/, '.json')), `${JSON.stringify(truth, null, 2)}\n`);
  }
  writeFileSync(join(outDir, 'README.md'), readme(truths, seed));

  const total = readdirSync(outDir).reduce((sum, f) => sum + statSync(join(outDir, f)).size, 0);
  console.log(`${truths.length} documents, ${(total / 1024 / 1024).toFixed(2)} MB in ${outDir}`);
  if (total > MAX_TOTAL_BYTES) throw new Error(`corpus is ${total} bytes, over the ${MAX_TOTAL_BYTES} byte budget`);
}

function readme(truths: Truth[], seed: string): string {
  const count = <K extends keyof Truth>(key: K): string => {
    const map = new Map<string, number>();
    for (const t of truths) map.set(String(t[key]), (map.get(String(t[key])) ?? 0) + 1);
    return [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  };
  const rows = truths.map(
    (t) =>
      `| ${t.file} | ${t.format} | ${t.family} | ${t.language} | ${t.event_type} | ${t.sender_name} | ${t.category} |`,
  );
  return `# Document intelligence corpus

Generated by \`npm run corpus\` (scripts/make-corpus.ts, seed \`${seed}\`); do not edit by hand. Evaluated by \`npm run eval\`.
All names, addresses, numbers and bank data are fictional.

Each \`doc-NN.<ext>\` has a ground truth \`doc-NN.json\`. What the fields mean here:

- sender_name: the name as printed in the letterhead (the eval ignores case and legal forms, ≥ 0.85 token overlap).
- reference_number: the document's own number (invoice, credit note, receipt/Bon, contract, policy, offer/quote) or
  the case it belongs to (tax number, file reference, "Unser Zeichen"/"Our ref", the reminded invoice, the account of
  a price-change notice); null for payslips, bank and card statements and letters without a file number.
- amount: invoice/receipt/credit note/offer total, policy premium as the schedule totals it, contract recurring fee,
  payslip net pay, statement closing balance or amount payable, notice amount demanded; null otherwise. Positive.
- document_date: the issue date. due_date: payment due date (SEPA debit date for direct debits, net date when there
  is a cash discount); end of the fixed term of contracts, policies and offers; relative terms ("within 14 days")
  count from the document date; null when none applies.
- category: one of ${CATEGORIES.join(', ')}.
- text: what is drawn, line by line in reading order (for the character error rate).
- einvoice: for these the embedded XML (factur-x.xml or xrechnung.xml) is the truth; the visible page may leave
  things out.

- Documents: ${truths.length}
- Event types: ${count('event_type')}
- Languages: ${count('language')}
- Families: ${count('family')}
- Formats: ${count('format')}
- Categories: ${count('category')}

| File | Format | Family | Lang | Type | Sender | Category |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

await main();
