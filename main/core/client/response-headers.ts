import type { Dispatcher } from 'undici';

/** Reading the service's response headers: undici gives a list for repeated ones, the first counts. */
export function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `RateLimit-*`, or with a window name our service's `RateLimit-Uploads-*` / `RateLimit-Requests-*`. */
export function rateLimitHeaders(
  headers: Dispatcher.ResponseData['headers'],
  window?: 'uploads' | 'requests',
): { limit: number; remaining: number; resetSeconds: number } | undefined {
  const prefix = window ? `ratelimit-${window}` : 'ratelimit';
  const raw = [
    header(headers, `${prefix}-limit`),
    header(headers, `${prefix}-remaining`),
    header(headers, `${prefix}-reset`),
  ];
  if (raw.some((value) => value === undefined)) return undefined;
  const [limit, remaining, resetSeconds] = raw.map(Number) as [number, number, number];
  if (![limit, remaining, resetSeconds].every((n) => Number.isFinite(n) && n >= 0)) return undefined;
  return { limit, remaining, resetSeconds };
}

/** Retry-After is seconds or an HTTP date. */
export function retryAfterMs(value: string, now: number): number | undefined {
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
