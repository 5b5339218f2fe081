import { createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { downloadFileName } from '../../common/download-name.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { canRead } from '../auth/access.ts';
import { findActiveKey } from '../auth/api-keys.ts';
import { HttpError } from '../http/http-error.ts';
import { BlobNotFoundError } from '../storage/blob-storage.ts';
import { UUID } from '../http/query.ts';
import type { RequestContext, Route, RouteResult } from '../http/router.ts';
import { pathId, visibleDocument } from './document-access.ts';
import { findDocumentRow } from './document-rows.ts';

/** HMAC over document id, expiry and key id: a link is bound to one document, one moment and one key. */
export function signDownload(secret: Buffer, documentId: string, expires: number, keyId: string): string {
  return createHmac('sha256', secret).update(`${documentId}\n${expires}\n${keyId}`).digest('base64url');
}

/** GET /v1/document/:id/download (and the /v1/documents alias): 302 to a signed URL valid 60 seconds. */
async function redirectToSignedUrl(ctx: RequestContext): Promise<RouteResult> {
  const row = await visibleDocument(ctx, { includeDeleted: false });
  const { downloadSecret, limits, now } = ctx.service;
  const expires = Math.floor(now() / 1000) + limits.downloadUrlTtlSeconds;
  const signature = signDownload(downloadSecret, row.id, expires, ctx.principal.id);
  const location =
    (ctx.service.presignedDownloads
      ? await ctx.service.blobs.presignedDownloadUrl(row.sha256, {
          contentDisposition: downloadDisposition(row),
          contentType: row.mime_type,
          ttlSeconds: limits.downloadUrlTtlSeconds,
        })
      : null) ?? `/v1/files/${row.id}?expires=${expires}&key_id=${ctx.principal.id}&signature=${signature}`;
  ctx.res.writeHead(302, { ...ctx.headers, Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  ctx.res.end();
  return 'sent';
}

/**
 * GET /v1/files/:id?expires&key_id&signature: the signed URL itself. Needs no Authorization header (that is the point
 * of it), but the signing key must still be valid and still see the document. Expired or tampered: 403.
 */
async function serveSignedFile(ctx: RequestContext): Promise<RouteResult> {
  const id = pathId(ctx);
  const { downloadSecret, now, db, blobs } = ctx.service;
  const keyId = signingKeyId(downloadSecret, id, ctx.url.searchParams);
  const valid = keyId !== null && Number(ctx.url.searchParams.get('expires')) >= Math.floor(now() / 1000);
  const key = valid ? await findActiveKey(db, keyId) : null;
  if (!valid || !key) throw new HttpError(403, ErrorMessage.invalidDownloadSignature);
  const row = await findDocumentRow(db, id);
  if (!row || row.deleted_at || !canRead(key, row.space_id)) throw new HttpError(404, ErrorMessage.documentNotFound);

  const stream = await blobs.openRead(row.sha256).catch((error: unknown) => {
    if (error instanceof BlobNotFoundError) throw new HttpError(500, 'Stored file is missing');
    throw error;
  });
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'Content-Type': row.mime_type,
    'Content-Length': row.size_bytes,
    'Content-Disposition': downloadDisposition(row),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    ETag: `"${row.sha256}"`,
  });
  await pipeline(stream, ctx.res).catch(() => undefined); // the client may hang up mid-download; nothing to clean
  return 'sent';
}

/** Named after the detected format, never the uploader's extension: the browser or OS decides by it how to open. */
const downloadDisposition = (row: { original_filename: string; mime_type: string }): string =>
  contentDisposition(downloadFileName(row.original_filename, row.mime_type));

/** The id of the key a link was signed for, when the signature is this archive's (expired or not); else null. */
function signingKeyId(secret: Buffer, documentId: string, query: URLSearchParams): string | null {
  const expires = Number(query.get('expires'));
  const keyId = query.get('key_id') ?? '';
  const presented = Buffer.from(query.get('signature') ?? '', 'base64url');
  const expected = Buffer.from(signDownload(secret, documentId, expires, keyId), 'base64url');
  const valid =
    Number.isInteger(expires) && presented.length === expected.length && timingSafeEqual(presented, expected);
  return valid ? keyId : null;
}

/**
 * A file fetch counts against the key that signed its link, like the redirect that made it: previews then share
 * neither the budget of every key-less client behind the same address nor what guessing keys spent of it.
 */
function signedFileCountedAs({ url, params, service }: Parameters<NonNullable<Route['countedAs']>>[0]): string | null {
  const id = (params.id ?? '').toLowerCase();
  return UUID.test(id) ? signingKeyId(service.downloadSecret, id, url.searchParams) : null;
}

/** RFC 6266 with an RFC 5987 `filename*` for names that are not plain ASCII; the quoted fallback stays ASCII. */
export function contentDisposition(filename: string): string {
  const fallback = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return fallback === filename
    ? `attachment; filename="${fallback}"`
    : `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export const downloadRoutes: Route[] = [
  { method: 'GET', path: '/v1/document/:id/download', scope: 'documents:read', handler: redirectToSignedUrl },
  { method: 'GET', path: '/v1/documents/:id/download', scope: 'documents:read', handler: redirectToSignedUrl },
  {
    method: 'GET',
    path: '/v1/files/:id',
    scope: null,
    public: true,
    acceptsQuery: true, // expires, key_id, signature: checked by the signature
    countedAs: signedFileCountedAs,
    handler: serveSignedFile,
  },
];
