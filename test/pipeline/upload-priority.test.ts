import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentProcessor } from '../../server/pipeline/processor.ts';
import { BlobStore } from '../../server/storage/blob-store.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

const LIMITS = { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function uploadPdf(h: Harness, text: string): Promise<string> {
  const res = await h.upload({ bytes: await makePdf(text), name: `${text}.pdf` });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

const statusOf = (h: Harness, id: string): string =>
  (h.sqlite.prepare('SELECT status FROM documents WHERE id = ?').get(id) as { status: string }).status;

async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The processor on its own, with short periods. The service's own processor is stopped, so uploads only queue
 * their jobs and this one takes them.
 */
describe('processing holds back for uploads', () => {
  let h: Harness;
  let processor: DocumentProcessor;
  beforeAll(async () => {
    h = await startHarness({ limits: LIMITS });
    await h.service.processor.stop();
    processor = new DocumentProcessor(h.service.db, new BlobStore(h.dataDir), {
      workers: 1,
      log: () => undefined,
      uploadGraceMs: 150,
      maxHoldMs: 1500,
    });
  });
  afterAll(async () => {
    await processor.stop();
    await h.close();
  });

  it('claims no job while an upload is in flight, nor during the grace period after it', async () => {
    const release = processor.holdForUpload();
    const id = await uploadPdf(h, 'held back');
    await processor.start();
    await sleep(400);
    expect(statusOf(h, id)).toBe('pending');
    release();
    release(); // twice is harmless
    expect(statusOf(h, id)).toBe('pending'); // grace period
    await within(15_000, processor.idle());
    expect(statusOf(h, id)).toBe('completed');
  });

  it('writes a finished analysis only once the uploads are done', async () => {
    const id = await uploadPdf(h, 'written later');
    processor.notify();
    // The claim is a transaction of its own, done a moment after notify().
    await vi.waitFor(() => expect(statusOf(h, id)).toBe('processing'), { timeout: 5000, interval: 5 });
    const release = processor.holdForUpload();
    // Long enough for the worker to finish a one-page PDF; its result must wait.
    for (let waited = 0; waited < 1200; waited += 100) {
      await sleep(100);
      expect(statusOf(h, id)).toBe('processing');
    }
    release();
    await within(15_000, processor.idle());
    expect(statusOf(h, id)).toBe('completed');
  });

  it('lets a job through after maxHoldMs, so endless uploads cannot stop processing', async () => {
    const release = processor.holdForUpload();
    try {
      const id = await uploadPdf(h, 'overdue');
      processor.notify();
      expect(statusOf(h, id)).toBe('pending');
      const started = performance.now();
      await within(15_000, processor.idle());
      expect(statusOf(h, id)).toBe('completed');
      expect(performance.now() - started).toBeGreaterThan(1000);
    } finally {
      release();
    }
  });
});

describe("the upload route holds the service's processor", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ limits: LIMITS });
  });
  afterAll(async () => {
    await h.close();
  });

  it('while a body is still arriving, a queued job waits; both are processed once it is in', async () => {
    const { processor } = h.service;
    const release = processor.holdForUpload();
    const queued = await uploadPdf(h, 'queued first');
    expect(statusOf(h, queued)).toBe('pending');

    // A second upload whose body stalls half-way.
    const file = Buffer.from(await makePdf('slow upload'));
    const boundary = 'priority-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${h.url}/v1/documents`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${h.adminKey}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': head.length + file.length + tail.length,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(Buffer.concat([head, file.subarray(0, file.length >> 1)]));
      setTimeout(() => req.end(Buffer.concat([file.subarray(file.length >> 1), tail])), 900);
    });
    await sleep(100);
    release(); // only the stalled upload holds processing now
    await sleep(600); // more than the grace period
    expect(statusOf(h, queued)).toBe('pending');

    const slow = await answered;
    expect(slow.status, slow.body).toBe(202);
    // A bound that stops a hung processor, not a speed target: the full suite on two cores took over 20 s here once.
    await within(60_000, processor.idle());
    expect(statusOf(h, queued)).toBe('completed');
    expect(statusOf(h, (JSON.parse(slow.body) as { id: string }).id)).toBe('completed');
  }, 90_000);
});
