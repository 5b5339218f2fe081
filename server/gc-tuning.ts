import { setFlagsFromString } from 'node:v8';

/**
 * Garbage collection for a process that streams uploads: short pauses of the main thread.
 *
 * Every upload passes through socket buffers of 64 KB (memory outside the V8 heap) that become garbage at once. With
 * V8's defaults, about 12 MB of them start a full mark of the heap, so steady uploads mean frequent major collections,
 * each pausing the requests in flight (figures in docs/benchmarks.md, "Upload accept: garbage collection").
 *
 * Start-up flags (V8 sizes the young generation once, when the process starts): the server's npm script passes them,
 * and the benchmark starts its server with them. `--max-semi-space-size=4`: a young generation of 4 MB instead of up
 * to 16, so the buffers die in frequent, cheap scavenges before they can reach the old generation and ask for a full
 * collection.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/**
 * Run-time flags, set by startArchiveService (V8 reads them whenever it sizes its limits; they change when
 * collections happen, never what they keep):
 * - `--external-memory-accounted-in-global-limit` (as Chromium does): buffer memory counts against the heap's global
 *   limit, which grows with the heap, instead of a fixed soft limit.
 * - `--heap-growing-percent=300`: after a full collection the next waits for the heap to grow to 4× what was live (a
 *   live heap of ~15 MB: at most ~45 MB of garbage more), not V8's 1.1–2× for small heaps.
 * With the start-up flag as well, steady uploads cause almost no major collection. Setting a flag again (a second
 * service in the process) changes nothing.
 */
export function tuneGarbageCollection(): void {
  setFlagsFromString('--external-memory-accounted-in-global-limit');
  setFlagsFromString('--heap-growing-percent=300');
}
