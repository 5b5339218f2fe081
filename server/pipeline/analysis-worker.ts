import { parentPort } from 'node:worker_threads';
import type { AnalysisInput } from './analysis.ts';
import { analyze } from './analyze.ts';

// Runs the CPU-heavy steps off the HTTP thread. One message in, one message out.
parentPort?.on('message', async (input: AnalysisInput) => {
  try {
    parentPort?.postMessage({ ok: true, analysis: await analyze(input) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
