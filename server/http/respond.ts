import type { ServerResponse } from 'node:http';
import type { ErrorBody } from '../../common/errors.ts';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(payload);
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  extra: Partial<ErrorBody> = {},
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { success: false, error: message, ...extra } satisfies ErrorBody, headers);
}
