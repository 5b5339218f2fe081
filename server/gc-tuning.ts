import { setFlagsFromString } from 'node:v8';

let tuned = false;

/**
 * Garbage collection for a process that streams uploads: fewer full collections of the main thread's heap.
 *
 * Every upload passes through socket buffers of 64 KB (memory outside the V8 heap) that become garbage at once. With
 * V8's defaults, about 12 MB of them start a full mark of the heap, so at 100 MB/s of uploads the main thread ran
 * 72–94 major collections in 10 s, pausing requests up to 15 ms each time (docs/benchmarks.md, "Upload accept").
 * - `--external-memory-accounted-in-global-limit` (as Chromium does): that memory counts against the heap's global
 *   limit, which grows with the heap, instead of a fixed soft limit (13–32 collections).
 * - `--heap-growing-percent=300`: after each full collection the next one waits for the heap to grow to 4× what was
 *   live (a live heap of ~15 MB: at most ~45 MB of garbage more), not V8's 1.1–2× for small heaps (8 collections).
 * V8 reads both whenever it sizes its limits, so setting them at start-up takes effect; they change when collections
 * happen, never what they keep.
 */
export function tuneGarbageCollection(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--external-memory-accounted-in-global-limit');
  setFlagsFromString('--heap-growing-percent=300');
}
