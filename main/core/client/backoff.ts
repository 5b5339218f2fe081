/**
 * Capped exponential backoff with jitter ("equal jitter"): half the step is fixed so retries never hammer at once, the
 * other half is random so many clients (or many queued files) do not retry in lockstep after an outage.
 */
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 60_000 };

export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const step = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(step / 2 + (options.random ?? Math.random)() * (step / 2));
}

/** Sleeps `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
