/**
 * Bench-only server process: the real Archive Service with the rate limits raised so sustained load is not
 * throttled (the upload size limit stays at the spec's 50 MB). Started by server.bench.ts as a child so that
 * what is measured is this process, not the load generator.
 *
 * --pause-processing stops the document processor right after start (diagnostic: uploads are accepted and queued,
 * nothing is extracted, so the accept path is measured alone; `idle` would then never answer).
 *
 * Prints one JSON line { url, pid, key } when listening, then answers commands on stdin, one per line:
 *   rss   → { "rss": <bytes> }      (process.memoryUsage, for platforms without /proc)
 *   idle  → { "idle": true }        once the processing queue is empty
 *   gc    → { "major": n, "majorMs": ms, "maxMs": ms, "minor": n, "minorMs": ms }: garbage collections of this
 *           process's main thread since the last `gc` (pause time on the main thread), then starts counting again
 *   close → { "closed": true }      after a clean shutdown, then exits
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SCOPES } from '../../common/archive-types.ts';
import { startArchiveService } from '../../server/archive-service.ts';
import { createApiKey } from '../../server/auth/api-keys.ts';

/** The reply to `gc`: the main thread's collections since the previous `gc`, pause times in ms. */
export type GcCounts = { major: number; majorMs: number; maxMs: number; minor: number; minorMs: number };

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, workers: { type: 'string' }, 'pause-processing': { type: 'boolean' } },
});
if (!values['data-dir']) throw new Error('--data-dir is required');

const service = await startArchiveService({
  dataDir: values['data-dir'],
  port: 0,
  ...(values.workers ? { workers: Number(values.workers) } : {}),
  limits: { requestsPerWindow: 1_000_000_000, uploadsPerWindow: 1_000_000_000 },
  // The built-in embedder whatever the environment configures: figures that do not depend on a model service, and
  // the same vectors the seeding in server.bench.ts writes.
  embedder: { kind: 'hashed' },
});
if (values['pause-processing']) await service.processor.stop();
const { key } = await createApiKey(service.db, { name: 'bench', role: 'editor', scopes: [...SCOPES], spaces: null });
const noCollections = (): GcCounts => ({ major: 0, majorMs: 0, maxMs: 0, minor: 0, minorMs: 0 });
let gc = noCollections();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { kind } = (entry as PerformanceEntry & { detail: { kind: number } }).detail;
    // An incremental-marking step and the mark-compact that ends it are both major-GC pauses on this thread.
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) {
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
      gc.majorMs += entry.duration;
    } else {
      gc.minor++;
      gc.minorMs += entry.duration;
    }
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

const reply = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
reply({ url: service.url, pid: process.pid, key });

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'rss') reply({ rss: process.memoryUsage.rss() });
  else if (command === 'gc') {
    reply(gc);
    gc = noCollections();
  } else if (command === 'idle') {
    await service.processor.idle();
    reply({ idle: true });
  } else if (command === 'close') break;
  else if (command) reply({ error: `unknown command ${command}` });
}
// stdin closing (the bench process gone) also ends here: never leave a server behind.
await service.close();
reply({ closed: true });
process.exit(0);
