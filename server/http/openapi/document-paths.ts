/** The paths of documents and their downloads. */
import { DOCUMENT_SORT_FIELDS, DOCUMENT_STATUSES } from '../../../common/archive-types.ts';
import { ErrorMessage } from '../../../common/errors.ts';
import { MIME_TYPES } from '../../../shared/formats/sniff.ts';
import { SPEC_LIMITS } from '../../config.ts';
import { MAX_BULK_REPROCESS } from '../../documents/document-routes.ts';
import { schemaRef as ref, type Json } from './component-schemas.ts';
import {
  bool,
  DOCUMENT_404,
  INVALID_PARAMETER,
  int,
  JSON_TYPE,
  jsonResponse,
  limitParam,
  oneOf,
  operation,
  param,
  query,
  QUERY_ERRORS,
  RATE_HEADERS,
  REPEATED_PARAMETER,
  SPACE_NOT_FOUND,
  str,
  timestamp,
  UNKNOWN_PARAMETER,
  uuid,
  WRITE_403,
  type OperationSpec,
  type PathItems,
} from './operations.ts';

function uploadBody(): Json {
  const accepted = [...Object.values(MIME_TYPES), 'application/octet-stream'];
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          additionalProperties: false,
          properties: {
            file: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description:
                `Exactly one file: PDF, JPEG, PNG, TIFF, DOCX, DOC, PPTX, PPT, XLSX, XLS, ODT, ODS or ODP, at most ` +
                `${SPEC_LIMITS.maxUploadBytes / 1024 / 1024} MB (${SPEC_LIMITS.maxUploadBytes} bytes). The format is detected from the bytes; ` +
                'a declared part Content-Type must agree with it (none, text/plain or application/octet-stream counts as undeclared).',
            },
            space_id: uuid('Target space; the default space when omitted or empty. Needs editor access there.'),
            metadata: {
              type: 'string',
              contentMediaType: JSON_TYPE,
              contentSchema: ref('UploadMetadata'),
              description: 'The upload metadata object as a JSON string (at most 64 KiB); empty means none.',
            },
          },
        },
        encoding: { file: { contentType: accepted.join(', ') } },
      },
    },
  };
}

export function documentPaths(): PathItems {
  const listParams = [
    limitParam(50),
    param('Offset'),
    query(
      'sort_by',
      { ...oneOf(DOCUMENT_SORT_FIELDS), default: 'created_at' },
      'Sort field (default created_at). Titles sort as read: case and accents folded, numbers by value. Missing dates sort last; the id breaks ties.',
    ),
    query('sort_order', { ...oneOf(['desc', 'asc']), default: 'desc' }, 'Sort direction (default desc).'),
    param('SpaceFilter'),
    query('category_id', uuid(), 'Only this category.'),
    query('status', oneOf(DOCUMENT_STATUSES), 'Only this status.'),
    query(
      'created_after',
      timestamp(),
      'Only documents created strictly after it. ISO 8601: a date alone means midnight UTC, ' +
        'a time without offset is UTC.',
    ),
    query(
      'updated_after',
      timestamp(),
      'Only documents updated strictly after it (incremental sync: also catches edits, ' +
        'reprocessing, deletion and restore when combined with deleted).',
    ),
    query(
      'tag',
      str(undefined, { minLength: 1, maxLength: 100 }),
      'Only documents carrying this tag (case-insensitive).',
    ),
    query(
      'deleted',
      { ...bool(), default: false },
      'true lists only soft-deleted documents; false (default) only live ones.',
    ),
  ];
  const id = [param('DocumentId')];
  /** A write to one document: 403 where the key may not edit, 404 when the key cannot see it. */
  const documentWrite = (
    path: string,
    spec: Pick<OperationSpec, 'operationId' | 'summary' | 'description' | 'responses'>,
  ): Json =>
    operation(path, {
      ...spec,
      tag: 'Documents',
      scope: 'documents:write',
      parameters: id,
      errors: { 403: WRITE_403, ...DOCUMENT_404 },
    });
  return {
    '/v1/documents': {
      get: operation('/v1/documents', {
        operationId: 'listDocuments',
        tag: 'Documents',
        scope: 'documents:read',
        summary: 'List documents',
        description: 'A page of documents in the spaces the key can see, with optional filters.',
        parameters: listParams,
        responses: { 200: jsonResponse('A page of documents', ref('DocumentList')) },
        errors: { 400: QUERY_ERRORS, 403: [ErrorMessage.spaceDenied] },
      }),
      post: operation('/v1/documents', {
        operationId: 'uploadDocument',
        tag: 'Documents',
        scope: 'documents:write',
        summary: 'Upload a document',
        description:
          'Stores a file and queues it for processing. Counts against both the request and the upload limit; the ' +
          'RateLimit headers describe the tighter of the two. The same file (SHA-256) again in the same space is accepted: ' +
          'the new record ends with status skipped and duplicate_of set. A rejected upload leaves no file and no record.',
        requestBody: uploadBody(),
        responses: {
          202: jsonResponse(
            'Accepted; the record exists (status pending) and is processed shortly',
            ref('UploadAccepted'),
            {
              Location: { $ref: '#/components/headers/Location' },
              ...Object.fromEntries(
                ['Requests', 'Uploads'].flatMap((window) =>
                  ['Limit', 'Remaining', 'Reset'].map((part) => [
                    `RateLimit-${window}-${part}`,
                    { $ref: `#/components/headers/RateLimit-${window}-${part}` },
                  ]),
                ),
              ),
            },
          ),
        },
        errors: {
          400: [
            'Expected multipart/form-data with a file field',
            ErrorMessage.malformedMultipart,
            ErrorMessage.fileMissing,
            'Only one file per upload',
            'Too many form fields',
            'Unknown parameter <name>',
            'Unknown parameter <name>: the file goes in the field named file',
            'Invalid parameter <name>: value too long',
            REPEATED_PARAMETER,
            'Invalid parameter space_id: expected a uuid',
            'Invalid metadata: <reason>',
            ErrorMessage.unsupportedFormat,
            ErrorMessage.contentTypeMismatch,
            'Upload aborted before the body was complete',
          ],
          403: WRITE_403,
          404: [SPACE_NOT_FOUND],
          413: [ErrorMessage.fileTooLarge],
        },
      }),
    },
    '/v1/documents/{id}': {
      get: operation('/v1/documents/{id}', {
        operationId: 'getDocument',
        tag: 'Documents',
        scope: 'documents:read',
        summary: 'Get a document',
        description:
          'One document with full text, extracted data, upload metadata, tags and event ids. Soft-deleted ' +
          'documents are returned too (deleted_at set).',
        parameters: id,
        responses: { 200: jsonResponse('The document', ref('DocumentResponse')) },
        errors: DOCUMENT_404,
      }),
      patch: operation('/v1/documents/{id}', {
        operationId: 'editDocument',
        tag: 'Documents',
        scope: 'documents:write',
        summary: 'Edit a document by hand',
        description:
          'Hand edits of title, document_date, category_id and tags. Edited fields are kept by reprocessing. ' +
          'Changing tags also needs scope tags:write. Needs editor access to the space; deleted documents are 404.',
        parameters: id,
        jsonBody: ref('DocumentPatch'),
        responses: { 200: jsonResponse('The edited document', ref('DocumentResponse')) },
        errors: {
          400: [
            INVALID_PARAMETER,
            UNKNOWN_PARAMETER,
            "Invalid parameter category_id: no such category in the document's space",
          ],
          403: WRITE_403,
          ...DOCUMENT_404,
        },
      }),
      delete: documentWrite('/v1/documents/{id}', {
        operationId: 'deleteDocument',
        summary: 'Soft-delete a document',
        description:
          'Marks the document deleted (recoverable with restore). Idempotent: deleting again returns the first ' +
          'deleted_at. Hides the document from lists, search, downloads and its events from the events endpoints.',
        responses: { 200: jsonResponse('Deleted', ref('DeletedDocument')) },
      }),
    },
    '/v1/documents/{id}/restore': {
      post: documentWrite('/v1/documents/{id}/restore', {
        operationId: 'restoreDocument',
        summary: 'Restore a deleted document',
        description: 'Clears deleted_at. Idempotent: restoring a live document changes nothing and returns it.',
        responses: { 200: jsonResponse('The restored document', ref('RestoredDocument')) },
      }),
    },
    '/v1/documents/{id}/reprocess': {
      post: documentWrite('/v1/documents/{id}/reprocess', {
        operationId: 'reprocessDocument',
        summary: 'Reprocess a document',
        description:
          'Runs the pipeline again on the stored original. The id, tags, hand-edited fields and the space are ' +
          'kept; the rest is rebuilt. The document keeps its current data until the new results are written.',
        responses: {
          200: jsonResponse('Already in the pipeline; nothing queued (alreadyProcessing true)', ref('ReprocessResult')),
          202: jsonResponse('Queued (queued true)', ref('ReprocessResult')),
        },
      }),
    },
    '/v1/documents/reprocess': {
      post: operation('/v1/documents/reprocess', {
        operationId: 'reprocessDocuments',
        tag: 'Documents',
        scope: 'documents:write',
        summary: 'Reprocess several documents',
        description:
          `Queues up to ${MAX_BULK_REPROCESS} documents. Each id lands in exactly one list of the result; ` +
          'one the key may not edit is not an error of the whole request.',
        jsonBody: ref('BulkReprocessRequest'),
        responses: { 200: jsonResponse('What happened to each id', ref('BulkReprocessResult')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER] },
      }),
    },
  };
}

export function downloadPaths(): PathItems {
  const redirect = (path: string, operationId: string, summary: string): Json =>
    operation(path, {
      operationId,
      tag: 'Downloads',
      scope: 'documents:read',
      summary,
      description:
        `302 to a signed URL (GET /v1/files/{id}) valid ${SPEC_LIMITS.downloadUrlTtlSeconds} seconds. ` +
        'Clients must follow the redirect; the signed URL needs no Authorization header.',
      parameters: [param('DocumentId')],
      responses: {
        302: {
          description: 'Redirect to the signed URL (no body)',
          headers: {
            ...RATE_HEADERS,
            Location: {
              description: '/v1/files/{id}?expires=<unix seconds>&key_id=<key id>&signature=<base64url HMAC-SHA256>',
              schema: str(),
            },
          },
        },
      },
      errors: DOCUMENT_404,
    });
  return {
    '/v1/document/{id}/download': {
      get: redirect('/v1/document/{id}/download', 'downloadDocument', 'Download a document'),
    },
    '/v1/documents/{id}/download': {
      get: redirect('/v1/documents/{id}/download', 'downloadDocumentAlias', 'Download a document (alias)'),
    },
    '/v1/files/{id}': {
      get: operation('/v1/files/{id}', {
        operationId: 'getSignedFile',
        tag: 'Downloads',
        scope: null,
        public: true,
        summary: 'The signed download URL',
        description:
          'The stored file, when the signature is valid, not expired, and the signing key is still active and can ' +
          "still see the document. Content-Type is the document's mime_type. Counted against the signing key's request " +
          "budget; a link whose signature is not valid counts against the client IP's key-less budget.",
        parameters: [
          param('DocumentId'),
          query('expires', int(undefined, { minimum: 0 }), 'Unix time (seconds) the link expires.', true),
          query('key_id', str(undefined, { pattern: '^[0-9a-f]{32}$' }), 'Id of the key the link was made for.', true),
          query(
            'signature',
            str(undefined, { pattern: '^[A-Za-z0-9_-]+$' }),
            'base64url HMAC-SHA256 of id, expires and key_id.',
            true,
          ),
        ],
        responses: {
          200: {
            description: 'The file',
            headers: {
              ...RATE_HEADERS,
              'Content-Disposition': {
                description:
                  'attachment; filename="<ASCII fallback>" (+ filename*=UTF-8\'\'<RFC 5987> for non-ASCII names); the name carries the extension of the detected format',
                schema: str(),
              },
              'Content-Length': { description: 'size_bytes', schema: int() },
              ETag: { description: 'The SHA-256 of the file, quoted.', schema: str() },
            },
            content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        },
        errors: { 403: [ErrorMessage.invalidDownloadSignature], ...DOCUMENT_404, 500: ['Stored file is missing'] },
      }),
    },
  };
}
