import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail, DocumentStatus } from '../../common/archive-types.ts';
import { makePdf, startHarness, testBackend, type Harness } from '../helpers/archive-harness.ts';

const LIMITS = { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 };
const BIG_PAGES = 60;

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A PDF whose text extraction takes a noticeable while (some hundred ms), so there is time to act during it. */
async function bigPdf(label: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= BIG_PAGES; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 40; line++) {
      page.drawText(`${label} page ${p} line ${line} lorem ipsum dolor sit amet`, {
        x: 40,
        y: 800 - line * 19,
        size: 10,
        font,
      });
    }
  }
  return pdf.save();
}

async function documentOf(h: Harness, id: string): Promise<ArchiveDocumentDetail> {
  const res = await h.api(`/v1/documents/${id}`);
  expect(res.status).toBe(200);
  return (await json<{ document: ArchiveDocumentDetail }>(res)).document;
}

async function waitForStatus(h: Harness, id: string, status: DocumentStatus, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const current = (await documentOf(h, id)).status;
    if (current === status) return;
    if (Date.now() > until) throw new Error(`document ${id} still ${current}, expected ${status}`);
    await sleep(5);
  }
}

async function uploadId(h: Harness, file: { bytes: Uint8Array; name: string }): Promise<string> {
  const res = await h.upload(file);
  expect(res.status).toBe(202);
  return (await json<{ id: string }>(res)).id;
}

let big: Uint8Array;
beforeAll(async () => {
  big = await bigPdf('Large');
});

// Restarts over one data directory and reads its SQLite file while no service runs; a PostgreSQL queue outlives an
// instance by design, and multi-instance.test.ts kills a worker mid-job to show that nothing is lost there.
describe.skipIf(testBackend() !== 'sqlite')('the queue survives a restart', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'archive-durability-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('work interrupted by a stop, and work never started, completes after the next start', async () => {
    const first = await startHarness({ dataDir, limits: LIMITS });
    let bigId: string;
    let smallId: string;
    try {
      bigId = await uploadId(first, { bytes: big, name: 'big.pdf' });
      // One worker: the small one waits in the queue behind the big one.
      smallId = await uploadId(first, { bytes: await makePdf('Queued behind the big one'), name: 'small.pdf' });
      await waitForStatus(first, bigId, 'processing');
    } finally {
      await first.close();
    }
    // Stopped cleanly mid-way: the interrupted job is back in the queue (not failed), its try not counted against
    // the document; the other still queued.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dataDir, 'archive.sqlite'), { readOnly: true });
    const jobs = db.prepare('SELECT document_id, state, attempts FROM jobs ORDER BY id').all() as Array<{
      document_id: string;
      state: string;
    }>;
    const statuses = db.prepare('SELECT id, status FROM documents').all() as Array<{ id: string; status: string }>;
    db.close();
    expect(jobs).toEqual([
      { document_id: bigId, state: 'queued', attempts: 0 },
      { document_id: smallId, state: 'queued', attempts: 0 },
    ]);
    expect(Object.fromEntries(statuses.map((s) => [s.id, s.status]))).toEqual({
      [bigId]: 'processing',
      [smallId]: 'pending',
    });

    const second = await startHarness({ dataDir, limits: LIMITS });
    try {
      await second.service.processor.idle();
      const bigDoc = await documentOf(second, bigId);
      expect(bigDoc).toMatchObject({ status: 'completed', page_count: BIG_PAGES, error: null });
      expect(bigDoc.content).toContain(`Large page ${BIG_PAGES} line 39`);
      const smallDoc = await documentOf(second, smallId);
      expect(smallDoc).toMatchObject({ status: 'completed' });
      expect(smallDoc.content).toContain('Queued behind the big one');
    } finally {
      await second.close();
    }
  });
});

describe('one service', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ limits: LIMITS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a corrupt PDF (valid magic bytes) ends failed with an error; the server keeps serving', async () => {
    const garbage = new TextEncoder().encode(`%PDF-1.7\n${'garbage \u0001\u00ff '.repeat(500)}`);
    const id = await uploadId(h, { bytes: garbage, name: 'corrupt.pdf' });
    await h.service.processor.idle();
    const doc = await documentOf(h, id);
    expect(doc.status).toBe('failed');
    expect(doc.error).toMatch(/^Processing failed: \S/);

    expect((await h.api('/v1/health', { key: null })).status).toBe(200);
    const next = await uploadId(h, { bytes: await makePdf('After the corrupt one'), name: 'fine.pdf' });
    await h.service.processor.idle();
    expect(await documentOf(h, next)).toMatchObject({ status: 'completed', error: null });
    const failed = await json<{ items: Array<{ id: string }> }>(await h.api('/v1/documents?status=failed'));
    expect(failed.items.map((d) => d.id)).toEqual([id]);
  });

  it('answers requests quickly while a large PDF is being processed', async () => {
    const id = await uploadId(h, { bytes: big, name: 'responsive.pdf' });
    await waitForStatus(h, id, 'processing');
    const latencies: number[] = [];
    // Only samples taken while the document is still processing count as "during".
    for (;;) {
      const started = performance.now();
      const res = await h.api('/v1/health', { key: null });
      const elapsed = performance.now() - started;
      expect(res.status).toBe(200);
      if ((await documentOf(h, id)).status !== 'processing') break;
      latencies.push(elapsed);
      await sleep(10);
    }
    // Extraction runs in a worker thread. Were it on the HTTP thread, requests would queue behind it and hardly any
    // would be answered while the document is still processing.
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(100);
    expect(sorted.at(-1)).toBeLessThan(1000); // a loaded test machine may stall one request, not all
    expect(await documentOf(h, id)).toMatchObject({ status: 'completed', page_count: BIG_PAGES });
  });
});
