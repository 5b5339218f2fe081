import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisInput } from '../../server/pipeline/analysis.ts';
import { AnalysisProcessLost, WorkerPool } from '../../server/pipeline/worker-pool.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { sharedContentPdf, textContent } from './hand-made-pdf.ts';

/** Analysis processes inherit the environment: this makes each one spend `ms` starting, before any of its code. */
async function slowStart(dir: string, ms: number): Promise<string> {
  const file = join(dir, `slow-start-${ms}.mjs`);
  await writeFile(file, `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});\n`);
  return `--import=${file}`;
}

let dir: string;
let input: AnalysisInput;
let pool: WorkerPool | undefined;
const savedNodeOptions = process.env.NODE_OPTIONS;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'worker-pool-'));
  const filePath = join(dir, 'small.pdf');
  await writeFile(filePath, await makePdf('A small document with its text layer'));
  input = {
    documentId: 'doc-1',
    filePath,
    format: 'pdf',
    originalFilename: 'small.pdf',
    categories: [],
    today: '2026-11-26',
  };
});

afterEach(async () => {
  await pool?.close();
  pool = undefined;
  if (savedNodeOptions === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = savedNodeOptions;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a job’s time limit counts the job, not the start of its process', () => {
  it('a process that takes longer to start than the limit still completes a small document', async () => {
    // The limit leaves the small document itself room on a busy machine (it failed once at 1 s during a CI run with
    // other work beside it); the start is still twice the limit.
    process.env.NODE_OPTIONS = await slowStart(dir, 5000);
    pool = new WorkerPool({ idleProcesses: 1, memoryMb: 1024, jobTimeoutMs: 2500 });
    const started = Date.now();
    const analysis = await pool.run(input).result;
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    expect(analysis.content).toContain('A small document');
  });

  it('a process that never gets ready fails its job as lost (retried), not as over the document’s limit', async () => {
    process.env.NODE_OPTIONS = await slowStart(dir, 5000);
    pool = new WorkerPool({ idleProcesses: 1, memoryMb: 1024, jobTimeoutMs: 60_000, startLimitMs: 1000 });
    const result = pool.run(input).result;
    await expect(result).rejects.toThrow(AnalysisProcessLost);
    await expect(result).rejects.toThrow('the analysis process did not start within 1 s');
  });

  it('after a job over its limit is killed, the next job gets a fresh process and its full time', async () => {
    pool = new WorkerPool({ idleProcesses: 1, memoryMb: 1024, jobTimeoutMs: 1000 });
    const longDocument = join(dir, 'long.pdf');
    const lines = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long document, lorem ipsum dolor sit amet`);
    await writeFile(longDocument, sharedContentPdf(1500, textContent(lines)));
    await expect(pool.run({ ...input, filePath: longDocument }).result).rejects.toThrow(
      'Processing took longer than 1 s (the limit per document).',
    );
    process.env.NODE_OPTIONS = await slowStart(dir, 3000); // the killed process's successor starts slowly
    const analysis = await pool.run(input).result;
    expect(analysis.content).toContain('A small document');
  });
});
