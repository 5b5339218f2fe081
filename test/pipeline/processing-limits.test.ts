import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail, DocumentStatus } from '../../common/archive-types.ts';
import { DocumentProcessor } from '../../server/pipeline/processor.ts';
import type { ProcessingLimits } from '../../server/pipeline/processing-limits.ts';
import { BlobStore } from '../../server/storage/blob-store.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';
import { deflatedZeros, handPdf, hugeImagePdf, pagesPdf, sharedContentPdf, textContent } from './hand-made-pdf.ts';

const LIMITS = { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 };
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function service(processing: Partial<ProcessingLimits> = {}): Promise<Harness> {
  h = await startHarness({ limits: LIMITS, processing });
  return h;
}

async function upload(harness: Harness, bytes: Uint8Array, name: string): Promise<string> {
  const res = await harness.upload({ bytes, name });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

async function documentOf(harness: Harness, id: string): Promise<ArchiveDocumentDetail> {
  return ((await (await harness.api(`/v1/documents/${id}`)).json()) as { document: ArchiveDocumentDetail }).document;
}

async function waitFor(harness: Harness, id: string, status: DocumentStatus, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = (await documentOf(harness, id)).status;
    if (current === status) return;
    if (Date.now() > until) throw new Error(`document ${id} still ${current}, expected ${status}`);
    await sleep(20);
  }
}

/** The service survived and still processes: health answers, a small document completes. */
async function expectServiceHealthy(harness: Harness): Promise<void> {
  expect((await harness.api('/v1/health', { key: null })).status).toBe(200);
  const id = await upload(harness, await makePdf('Still processing after the bomb'), 'after.pdf');
  await harness.service.processor.idle();
  expect(await documentOf(harness, id)).toMatchObject({ status: 'completed', error: null });
}

/** A long text PDF: `pages` pages sharing one content stream of 60 lines (pdf.js reads each page anew). */
const longPdf = (pages: number, label: string): Uint8Array =>
  sharedContentPdf(
    pages,
    textContent(Array.from({ length: 60 }, (_, i) => `${label} line ${i} lorem ipsum dolor sit amet`)),
  );

describe('decompression bombs fail their own document, with the reason', () => {
  let flateBomb: Uint8Array;
  beforeAll(async () => {
    flateBomb = await deflatedZeros(1024 * MiB);
  });

  it('a 1 MB PDF whose content stream inflates to 1 GiB fails as too large (default limits)', async () => {
    const harness = await service();
    const pdf = sharedContentPdf(1, flateBomb, '<< /Filter /FlateDecode >>');
    expect(pdf.length).toBeLessThan(2 * MiB);
    const id = await upload(harness, pdf, 'bomb.pdf');
    await harness.service.processor.idle();
    const doc = await documentOf(harness, id);
    expect(doc.status).toBe('failed');
    expect(doc.error).toBe(
      'Processing failed: PDF too large to process: a compressed stream (object 4) inflates to more than 256 MB ' +
        '(the limit per stream).',
    );
    await expectServiceHealthy(harness);
  });

  it('streams under the per-stream limit still count against the limit per document', async () => {
    const harness = await service({ maxStreamBytes: 8 * MiB, maxDecodedBytes: 20 * MiB });
    const sixMiB = await deflatedZeros(6 * MiB);
    // Four pages, each with its own 6 MiB (inflated) content stream: 24 MiB in all.
    const pdf = handPdf([
      { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
      { dict: '<< /Type /Pages /Count 4 /Kids [3 0 R 5 0 R 7 0 R 9 0 R] >>' },
      ...[0, 1, 2, 3].flatMap((i) => [
        { dict: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${4 + i * 2} 0 R >>` },
        { dict: '<< /Filter /FlateDecode >>', stream: sixMiB },
      ]),
    ]);
    const id = await upload(harness, pdf, 'many-streams.pdf');
    await harness.service.processor.idle();
    expect(await documentOf(harness, id)).toMatchObject({
      status: 'failed',
      error:
        'Processing failed: PDF too large to process: its compressed streams inflate to more than 20 MB together (the limit per document).',
    });
  });

  it('a 14000×14000 image is left out (pdf.js maxImageSize) with a note, the document completes', async () => {
    const harness = await service();
    const pdf = await hugeImagePdf(14_000, 14_000);
    expect(pdf.length).toBeLessThan(400 * 1024);
    const id = await upload(harness, pdf, 'huge-image.pdf');
    await harness.service.processor.idle();
    const doc = await documentOf(harness, id);
    expect(doc.status).toBe('completed');
    expect(doc.processing_note).toBe(
      'An image larger than 50 megapixels (14000×14000) was left out; text in it was not read.',
    );
  });

  it('a bomb the stream check cannot measure (ASCIIHex before Flate) is stopped by the memory limit', async () => {
    const harness = await service({ memoryMb: 400 });
    const hex = Buffer.from(`${Buffer.from(await deflatedZeros(768 * MiB)).toString('hex')}>`, 'latin1');
    const pdf = sharedContentPdf(1, new Uint8Array(hex), '<< /Filter [/ASCIIHexDecode /FlateDecode] >>');
    const id = await upload(harness, pdf, 'hex-bomb.pdf');
    await harness.service.processor.idle();
    expect(await documentOf(harness, id)).toMatchObject({
      status: 'failed',
      error: 'Processing failed: Too large to process: it needed more than 400 MB of memory (the limit per document).',
    });
    // Not retried: a limit is the document's own.
    const job = harness.sqlite.prepare('SELECT state, attempts FROM jobs WHERE document_id = ?').get(id);
    expect(job).toEqual({ state: 'failed', attempts: 1 });
    await expectServiceHealthy(harness);
  });
});

describe('pages and time', () => {
  it('reads the first maxPages pages of a PDF and says so', async () => {
    const harness = await service({ maxPages: 5 });
    const id = await upload(
      harness,
      pagesPdf(Array.from({ length: 8 }, (_, i) => `Text of page number ${i + 1} here`)),
      'eight.pdf',
    );
    await harness.service.processor.idle();
    const doc = await documentOf(harness, id);
    expect(doc).toMatchObject({ status: 'completed', page_count: 8 });
    expect(doc.content).toContain('Text of page number 5 here');
    expect(doc.content).not.toContain('page number 6');
    expect(doc.processing_note).toContain('Only the first 5 of 8 pages were read (the limit per document).');
  });

  it('a job over its time limit is stopped and its document fails with the reason', async () => {
    const harness = await service({ jobTimeoutMs: 1000 });
    const id = await upload(harness, longPdf(1500, 'Slow'), 'slow.pdf');
    await harness.service.processor.idle();
    expect(await documentOf(harness, id)).toMatchObject({
      status: 'failed',
      error: 'Processing failed: Processing took longer than 1 s (the limit per document).',
    });
    await expectServiceHealthy(harness);
  });

  it('a small document uploaded after a huge one completes while the huge one is still processing (one worker)', async () => {
    const harness = await service({ longJobMs: 300 });
    const huge = await upload(harness, longPdf(2000, 'Huge'), 'huge.pdf');
    await waitFor(harness, huge, 'processing');
    const small = await upload(harness, await makePdf('The small one'), 'small.pdf');
    await waitFor(harness, small, 'completed');
    expect((await documentOf(harness, huge)).status).toBe('processing');
    expect((await documentOf(harness, small)).content).toContain('The small one');
  });
});

describe('interrupted jobs are counted', () => {
  /** Uploads a document with processing stopped, then leaves its job as a crash mid-run does: running, try counted. */
  async function crashedMidRun(harness: Harness, attempts: number): Promise<string> {
    await harness.service.processor.stop();
    const id = await upload(harness, await makePdf('Interrupted'), 'interrupted.pdf');
    harness.sqlite.prepare("UPDATE jobs SET state = 'running', attempts = ? WHERE document_id = ?").run(attempts, id);
    harness.sqlite.prepare("UPDATE documents SET status = 'processing' WHERE id = ?").run(id);
    return id;
  }

  let processor: DocumentProcessor | undefined;
  afterAll(async () => {
    await processor?.stop();
  });

  it('a job interrupted fewer than maxAttempts times runs again', async () => {
    const harness = await service();
    const id = await crashedMidRun(harness, 2);
    processor = new DocumentProcessor(harness.service.db, new BlobStore(harness.dataDir), {
      workers: 1,
      log: () => undefined,
    });
    await processor.start();
    await processor.idle();
    await processor.stop();
    expect(await documentOf(harness, id)).toMatchObject({ status: 'completed', error: null });
  });

  it('after maxAttempts interrupted tries the document fails with the reason, and is not run again', async () => {
    const harness = await service();
    const id = await crashedMidRun(harness, 3);
    processor = new DocumentProcessor(harness.service.db, new BlobStore(harness.dataDir), {
      workers: 1,
      log: () => undefined,
    });
    await processor.start();
    await processor.idle();
    await processor.stop();
    expect(await documentOf(harness, id)).toMatchObject({
      status: 'failed',
      error: 'Processing failed: it was interrupted 3 times (the service stopped during it); not tried again',
    });
    const job = harness.sqlite.prepare('SELECT state FROM jobs WHERE document_id = ?').get(id);
    expect(job).toEqual({ state: 'failed' });
  });
});
