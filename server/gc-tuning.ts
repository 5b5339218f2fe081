import { setFlagsFromString } from 'node:v8';

let tuned = false;

/**
 * Counts Buffer memory (external to the V8 heap) in V8's global heap limit, the way Chromium does, instead of against
 * a fixed soft limit. Every upload streams through socket buffers of 64 KB that become garbage at once: with the
 * default, about 12 MB of them start a full mark of the heap, so at 100 MB/s of uploads the server's main thread ran
 * 40–70 major collections per 8 s (pauses up to 14 ms) where 12–14 do (docs/benchmarks.md, "Upload accept").
 * V8 reads the flag when it next sizes its limits, so setting it at start-up takes effect; it only changes when
 * collections happen, not what they keep.
 */
export function tuneGarbageCollection(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString('--external-memory-accounted-in-global-limit');
}
