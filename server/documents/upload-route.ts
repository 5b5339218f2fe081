import { randomUUID } from 'node:crypto';
import busboy from 'busboy';
import type { UploadAccepted, UploadMetadata } from '../../common/archive-types.ts';
import { cleanFileName } from '../../common/download-name.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { parseUploadMetadata } from '../../common/upload-metadata.ts';
import { accessTo } from '../auth/access.ts';
import { nowIso } from '../db/sql.ts';
import { transactionKeyLock } from '../db/sql-dialect.ts';
import { contentTypeMatches, detectFormat } from '../../shared/formats/detect-format.ts';
import { classifyHead, HEAD_BYTES } from '../../shared/formats/sniff.ts';
import { HttpError } from '../http/http-error.ts';
import { isStorageFull, storageFull } from '../http/storage-full.ts';
import { bodyTimedOut, watchBodyIdle } from '../http/request-body.ts';
import { UUID } from '../http/query.ts';
import type { RequestContext, Route, RouteResult } from '../http/router.ts';
import { titleFromFilename } from '../pipeline/steps/filename-title.ts';
import type { UploadHold } from '../pipeline/processor.ts';
import type { StagedFile } from '../storage/blob-store.ts';

interface ReceivedUpload {
  /** head: the file's first HEAD_BYTES bytes (fewer for a shorter file), kept as they streamed past. */
  file: (StagedFile & { filename: string; declaredType: string | undefined; head: Uint8Array }) | null;
  fields: Map<string, string>;
}

/** Room for the multipart framing and the small fields around a file of the maximum size. */
const MULTIPART_OVERHEAD = 256 * 1024;
/**
 * Why the file could not be staged: the service's disk is full (507, retried by clients), writing failed on the
 * service's side (a file-system error: 500), or the client's part broke off (400).
 */
function stagingFailure(error: unknown): Error {
  if (isStorageFull(error)) return storageFull();
  if (error instanceof Error && 'syscall' in error) return error;
  return new HttpError(400, ErrorMessage.malformedMultipart);
}

const FILE_PART_WITHOUT_NAME =
  'Invalid parameter file: send it as a file part, with a filename in its Content-Disposition';

/**
 * POST /v1/documents. The body streams to a temp file (hashed on the way, never held in memory); only when
 * everything checks out is the file moved into the store and the record written. Anything rejected leaves nothing.
 */
async function uploadDocument(ctx: RequestContext): Promise<RouteResult> {
  const { req } = ctx;
  const { limits } = ctx.service;
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(400, 'Expected multipart/form-data with a file field');
  }
  if (Number(req.headers['content-length'] ?? 0) > limits.maxUploadBytes + MULTIPART_OVERHEAD) {
    throw new HttpError(413, ErrorMessage.fileTooLarge);
  }
  // Processing holds back while this upload is received and accepted (see DocumentProcessor): on a small machine it
  // would otherwise take the CPU and the event loop the upload needs. A stalled body stops holding it back.
  const hold = ctx.service.processor.holdForUpload();
  try {
    const received = await receive(ctx, hold);
    try {
      return await accept(ctx, received);
    } finally {
      if (received.file) await ctx.service.blobs.discard(received.file.path);
    }
  } finally {
    hold();
  }
}

function receive(ctx: RequestContext, hold: UploadHold): Promise<ReceivedUpload> {
  const { req } = ctx;
  const { blobs, limits } = ctx.service;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy reports 'limit' on reaching fileSize, not on passing it: +1 so a file of exactly the maximum is accepted.
        limits: {
          files: 1,
          fileSize: limits.maxUploadBytes + 1,
          fields: 10,
          fieldSize: 64 * 1024,
          parts: 12,
          headerPairs: 20,
        },
      });
    } catch {
      reject(new HttpError(400, ErrorMessage.malformedMultipart));
      return;
    }
    const received: ReceivedUpload = { file: null, fields: new Map() };
    const stagedPaths: string[] = [];
    let staging: Promise<void> = Promise.resolve();
    // An HttpError is the client's answer; any other error is the service's own failure (logged, 500).
    let failure: Error | null = null;
    // Declared before the handlers that call it; assigned below.
    // eslint-disable-next-line prefer-const
    let finish: (error: HttpError | null) => Promise<void>;
    const fail = (error: Error): void => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      // A part without a filename is a text field to multipart parsers (RFC 7578): name the fix, not an unknown field.
      if (name === 'file') fail(new HttpError(400, FILE_PART_WITHOUT_NAME));
      else if (info.valueTruncated) fail(new HttpError(400, `Invalid parameter ${name}: value too long`));
      else if (received.fields.has(name)) fail(new HttpError(400, `Invalid parameter ${name}: given more than once`));
      else received.fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || received.file || failure) {
        if (name !== 'file')
          fail(new HttpError(400, `Unknown parameter ${name}: the file goes in the field named file`));
        stream.resume();
        return;
      }
      fileStream = stream;
      const path = blobs.newTempPath();
      stagedPaths.push(path);
      const head = new Uint8Array(HEAD_BYTES);
      let headLength = 0;
      const keepHead = (chunk: Buffer): void => {
        const take = Math.min(chunk.length, HEAD_BYTES - headLength);
        head.set(chunk.subarray(0, take), headLength);
        headLength += take;
        if (headLength === HEAD_BYTES) stream.off('data', keepHead);
      };
      stream.on('data', keepHead);
      // Stop at once: the rest of an oversized body is only discarded, after the 413 (discardBody).
      stream.on('limit', () => void finish(new HttpError(413, ErrorMessage.fileTooLarge)));
      staging = blobs.stage(stream, path).then(
        (staged) => {
          // busboy reports a part without Content-Type as text/plain (the RFC 7578 default); no supported format is
          // text/plain, so treating it as undeclared only lets through clients that send no type at all.
          const declaredType = info.mimeType === 'text/plain' ? undefined : info.mimeType;
          received.file = {
            ...staged,
            filename: info.filename ?? '',
            declaredType,
            head: head.subarray(0, headLength),
          };
        },
        (error: unknown) => {
          fail(stagingFailure(error));
          // Answered now: the file stream is torn down, so the parser would wait for ever for it to take more.
          void finish(null);
        },
      );
    });
    parser.on('filesLimit', () => fail(new HttpError(400, 'Only one file per upload')));
    parser.on('partsLimit', () => fail(new HttpError(400, 'Too many form fields')));
    parser.on('fieldsLimit', () => fail(new HttpError(400, 'Too many form fields')));

    let settled = false;
    let fileStream: (NodeJS.ReadableStream & { destroy(error?: Error): void }) | undefined;
    finish = async (error: HttpError | null): Promise<void> => {
      if (settled) return;
      settled = true;
      // Decided before the staging settles: tearing the file stream down below must not change the reason.
      const early = failure ?? error;
      stopWatching();
      req.off('data', countBytes);
      req.unpipe(parser);
      // With an error, not without: busboy may already have ended the stream, and a pipeline whose source ended but
      // was destroyed without an error waits for an 'end' that never comes (the request would hang).
      if (early) fileStream?.destroy(early);
      await staging;
      const problem = early ?? failure;
      if (problem) {
        await Promise.all(stagedPaths.map((p) => blobs.discard(p)));
        reject(problem);
      } else resolve(received);
    };
    const countBytes = (chunk: Buffer): void => hold.received(chunk.length);
    req.on('data', countBytes);
    const stopWatching = watchBodyIdle(req, () => void finish(bodyTimedOut(req)));
    parser.on('close', () => void finish(null));
    parser.on('error', () => void finish(new HttpError(400, ErrorMessage.malformedMultipart)));
    req.on('aborted', () => void finish(new HttpError(400, 'Upload aborted before the body was complete')));
    req.pipe(parser);
  });
}

async function accept(ctx: RequestContext, received: ReceivedUpload): Promise<RouteResult> {
  const { db, blobs } = ctx.service;
  const file = received.file;
  for (const name of received.fields.keys()) {
    if (name !== 'space_id' && name !== 'metadata') throw new HttpError(400, `Unknown parameter ${name}`);
  }
  if (!file) throw new HttpError(400, ErrorMessage.fileMissing);

  const spaceId = await resolveSpace(ctx, received.fields.get('space_id'));
  let metadata: UploadMetadata | null = null;
  const rawMetadata = received.fields.get('metadata');
  if (rawMetadata !== undefined && rawMetadata.trim() !== '') {
    const parsed = parseUploadMetadata(rawMetadata);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    metadata = parsed.value;
  }

  if (file.size === 0) throw new HttpError(400, ErrorMessage.unsupportedFormat);
  // PDFs and images are told by their head, which streamed past already; only zip and OLE containers (Office) need
  // the file, as detectFormat reads it.
  const kind = classifyHead(file.head);
  const format = kind === 'zip' || kind === 'ole' ? await detectFormat(file.path) : kind;
  if (!format) throw new HttpError(400, ErrorMessage.unsupportedFormat);
  if (!contentTypeMatches(file.declaredType, format)) throw new HttpError(400, ErrorMessage.contentTypeMismatch);

  await blobs.commit(file);
  const id = randomUUID();
  const now = nowIso();
  const filename = safeFilename(file.filename, format.extension);
  const duplicateOf = await db.transaction(async (tx) => {
    // The same file uploaded at once through several instances: one becomes the original, the others its duplicates.
    const lock = transactionKeyLock(tx.dialect);
    if (lock) await tx.get(lock, `upload:${spaceId}:${file.sha256}`);
    const original = await tx.get<{ id: string }>(
      `SELECT id FROM documents WHERE sha256 = ? AND space_id = ? AND deleted_at IS NULL
      AND duplicate_of IS NULL ORDER BY created_at LIMIT 1`,
      file.sha256,
      spaceId,
    );
    await tx.run(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
      sha256, metadata, duplicate_of, uploaded_by, created_at, updated_at) VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      spaceId,
      metadata?.title ?? titleFromFilename(filename),
      filename,
      format.mimeType,
      format.format,
      file.size,
      file.sha256,
      metadata ? JSON.stringify(metadata) : null,
      original?.id ?? null,
      ctx.principal.id,
      now,
      now,
    );
    await ctx.service.processor.jobs.enqueue(id, 'process', tx);
    return original?.id ?? null;
  });
  ctx.service.processor.notify();
  const location = `/v1/documents/${id}`;
  const body: UploadAccepted = { success: true, id, status: 'pending', duplicate_of: duplicateOf, location };
  return { status: 202, body, headers: { Location: location } };
}

/** The target space: the one named, or the default. Always checked for write access. */
async function resolveSpace(ctx: RequestContext, requested: string | undefined): Promise<string> {
  const { db } = ctx.service;
  let spaceId: string;
  if (requested === undefined || requested === '') {
    spaceId = (await db.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!.id;
  } else {
    if (!UUID.test(requested)) throw new HttpError(400, 'Invalid parameter space_id: expected a uuid');
    spaceId = requested.toLowerCase();
    // A restricted key learns nothing about spaces outside its list: 403 whether or not the space exists.
    if (accessTo(ctx.principal, spaceId) && !(await db.get('SELECT 1 FROM spaces WHERE id = ?', spaceId))) {
      throw new HttpError(404, 'Space not found');
    }
  }
  if (accessTo(ctx.principal, spaceId) !== 'editor') throw new HttpError(403, ErrorMessage.spaceDenied);
  return spaceId;
}

/**
 * The client's file name without any path, control, bidirectional or zero-width characters or excess length; a
 * fallback when nothing is left. Its extension stays as sent (it is the uploader's name); downloads replace it.
 */
export function safeFilename(name: string, extension: string): string {
  return cleanFileName(name).slice(0, 255) || `upload.${extension}`;
}

export const uploadRoute: Route = {
  method: 'POST',
  path: '/v1/documents',
  scope: 'documents:write',
  upload: true,
  acceptsBody: true,
  handler: uploadDocument,
};
