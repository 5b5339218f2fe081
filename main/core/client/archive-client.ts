import { stat } from 'node:fs/promises';
import {
  bulkReprocessResponseSchema,
  categoryResponseSchema,
  categorySchema,
  deletedDocumentResponseSchema,
  documentResponseSchema,
  documentSchema,
  eventResponseSchema,
  eventSchema,
  healthResponseSchema,
  keyResponseSchema,
  listEnvelopeSchema,
  reprocessResponseSchema,
  restoredDocumentResponseSchema,
  searchResponseSchema,
  senderSchema,
  spaceSchema,
  tagSchema,
  uploadAcceptedSchema,
} from '../../../common/archive-schemas.ts';
import type {
  ArchiveDocument,
  ArchiveDocumentDetail,
  ArchiveEvent,
  ArchiveEventDetail,
  BulkReprocessResult,
  Category,
  DocumentSortField,
  DocumentStatus,
  EventState,
  EventType,
  KeyInfo,
  ListEnvelope,
  ReprocessResult,
  SearchHit,
  Sender,
  Space,
  Tag,
  UploadAccepted,
  UploadMetadata,
} from '../../../common/archive-types.ts';
import type { EventPatch } from '../../../common/event-patch.ts';
import type { DocumentUpdate } from '../../../common/ipc.ts';
import { ArchiveError } from './archive-error.ts';
import { ArchiveTransport } from './archive-transport.ts';
import { FileChangedError, multipartBody } from './multipart-body.ts';
import { header } from './response-headers.ts';
import { saveDownload, type DownloadedFile } from './save-download.ts';
import { fileProblem } from '../../../common/file-problems.ts';

// Re-exported: importers know these names from this module.
export { SPEC_CLIENT_LIMITS, type ArchiveClientOptions, type ClientEvents } from './archive-transport.ts';
export { retryAfterMs } from './response-headers.ts';
export type { DownloadedFile } from './save-download.ts';
export { toArchiveError } from './to-archive-error.ts';

export interface DocumentListQuery {
  limit?: number;
  offset?: number;
  sort_by?: DocumentSortField;
  sort_order?: 'asc' | 'desc';
  space_id?: string;
  category_id?: string;
  status?: DocumentStatus;
  created_after?: string;
  updated_after?: string;
  tag?: string;
  deleted?: boolean;
}

export interface EventListQuery {
  limit?: number;
  offset?: number;
  state?: EventState;
  event_type?: EventType;
  due_before?: string;
  due_after?: string;
  space_id?: string;
  document_id?: string;
  updated_after?: string;
}

export interface UploadRequest {
  path: string;
  /** The file name the service stores (default: the path's base name). */
  fileName: string;
  size: number;
  contentType?: string;
  spaceId?: string;
  metadata?: UploadMetadata;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** Attempts for this upload (the upload journal retries on its own schedule, so it asks for 1). */
  maxAttempts?: number;
}

/**
 * The one way the desktop talks to an Archive Service, hosted or local. Typed methods for every endpoint, one error
 * type, rate limiting that waits instead of spending requests that would come back 429, and retries with backoff for
 * what is worth retrying (those live in archive-transport.ts). A refused key pauses everything until a new one is set.
 */
export class ArchiveClient extends ArchiveTransport {
  health(signal?: AbortSignal): Promise<{ success: true; status: string; version?: string | undefined }> {
    return this.call('GET', '/v1/health', { schema: healthResponseSchema, signal, maxAttempts: 1 });
  }
  me(signal?: AbortSignal): Promise<KeyInfo> {
    return this.call('GET', '/v1/me', { schema: keyResponseSchema, signal }).then((r) => r.key);
  }
  listDocuments(query: DocumentListQuery = {}, signal?: AbortSignal): Promise<ListEnvelope<ArchiveDocument>> {
    return this.call('GET', '/v1/documents', {
      schema: listEnvelopeSchema(documentSchema),
      query: { ...query },
      signal,
    });
  }
  getDocument(id: string, signal?: AbortSignal): Promise<ArchiveDocumentDetail> {
    return this.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { schema: documentResponseSchema, signal }).then(
      (r) => r.document,
    );
  }
  updateDocument(
    id: string,
    changes: Omit<DocumentUpdate, 'id'>,
    signal?: AbortSignal,
  ): Promise<ArchiveDocumentDetail> {
    return this.call('PATCH', `/v1/documents/${encodeURIComponent(id)}`, {
      schema: documentResponseSchema,
      json: changes,
      signal,
    }).then((r) => r.document);
  }
  deleteDocument(id: string, signal?: AbortSignal): Promise<{ id: string; deleted_at: string }> {
    return this.call('DELETE', `/v1/documents/${encodeURIComponent(id)}`, {
      schema: deletedDocumentResponseSchema,
      signal,
    });
  }
  restoreDocument(id: string, signal?: AbortSignal): Promise<ArchiveDocument> {
    return this.call('POST', `/v1/documents/${encodeURIComponent(id)}/restore`, {
      schema: restoredDocumentResponseSchema,
      signal,
    }).then((r) => r.document);
  }
  reprocessDocument(id: string, signal?: AbortSignal): Promise<ReprocessResult> {
    return this.call('POST', `/v1/documents/${encodeURIComponent(id)}/reprocess`, {
      schema: reprocessResponseSchema,
      signal,
    });
  }
  reprocessDocuments(documentIds: string[], signal?: AbortSignal): Promise<BulkReprocessResult> {
    return this.call('POST', '/v1/documents/reprocess', {
      schema: bulkReprocessResponseSchema,
      json: { documentIds },
      signal,
    });
  }
  listEvents(query: EventListQuery = {}, signal?: AbortSignal): Promise<ListEnvelope<ArchiveEvent>> {
    return this.call('GET', '/v1/events', { schema: listEnvelopeSchema(eventSchema), query: { ...query }, signal });
  }
  getEvent(id: string, signal?: AbortSignal): Promise<ArchiveEventDetail> {
    return this.call('GET', `/v1/events/${encodeURIComponent(id)}`, { schema: eventResponseSchema, signal }).then(
      (r) => r.event,
    );
  }
  setEventState(
    id: string,
    change: { state: EventState; cause?: string; paid_at?: string },
    signal?: AbortSignal,
  ): Promise<ArchiveEventDetail> {
    return this.call('POST', `/v1/events/${encodeURIComponent(id)}/state`, {
      schema: eventResponseSchema,
      json: change,
      signal,
    }).then((r) => r.event);
  }
  /** Hand edits of an event (PATCH /v1/events/{id}); the service decides the state again (needs_input → open with an amount). */
  updateEvent(id: string, patch: EventPatch, signal?: AbortSignal): Promise<ArchiveEventDetail> {
    return this.call('PATCH', `/v1/events/${encodeURIComponent(id)}`, {
      schema: eventResponseSchema,
      json: patch,
      signal,
    }).then((r) => r.event);
  }
  search(
    query: { query: string; limit?: number; space_id?: string },
    signal?: AbortSignal,
  ): Promise<{ items: SearchHit[]; total: number; limit: number; query: string }> {
    return this.call('POST', '/v1/search', { schema: searchResponseSchema, json: query, signal });
  }
  listCategories(spaceId?: string, signal?: AbortSignal): Promise<Category[]> {
    return this.call('GET', '/v1/categories', {
      schema: listEnvelopeSchema(categorySchema),
      query: { space_id: spaceId },
      signal,
    }).then((r) => r.items);
  }
  createCategory(name: string, spaceId: string, signal?: AbortSignal): Promise<Category> {
    return this.call('POST', '/v1/categories', {
      schema: categoryResponseSchema,
      json: { name, space_id: spaceId },
      signal,
    }).then((r) => r.category);
  }
  listSpaces(signal?: AbortSignal): Promise<Space[]> {
    return this.call('GET', '/v1/spaces', { schema: listEnvelopeSchema(spaceSchema), signal }).then((r) => r.items);
  }
  listTags(signal?: AbortSignal): Promise<Tag[]> {
    return this.call('GET', '/v1/tags', { schema: listEnvelopeSchema(tagSchema), signal }).then((r) => r.items);
  }
  listSenders(signal?: AbortSignal): Promise<Sender[]> {
    return this.call('GET', '/v1/senders', { schema: listEnvelopeSchema(senderSchema), signal }).then((r) => r.items);
  }

  /** Streams a file from disk as multipart (never whole in memory), paced by the upload limit. */
  upload(upload: UploadRequest): Promise<UploadAccepted> {
    const fields: Array<[string, string]> = [];
    if (upload.spaceId) fields.push(['space_id', upload.spaceId]);
    if (upload.metadata && Object.keys(upload.metadata).length > 0)
      fields.push(['metadata', JSON.stringify(upload.metadata)]);
    return this.send('POST', '/v1/documents', uploadAcceptedSchema, {
      signal: upload.signal,
      maxAttempts: upload.maxAttempts,
      isUpload: true,
      preflight: () => checkUploadFile(upload.path, upload.size),
      body: () =>
        multipartBody(
          fields,
          { path: upload.path, name: upload.fileName, size: upload.size, contentType: upload.contentType },
          upload.onProgress,
        ),
    });
  }

  /**
   * The download flow of the spec: the API answers 302 with a signed URL valid 60 seconds; it is fetched at once and
   * streamed to `directory` under the Content-Disposition file name (temp file + rename, so no half file remains).
   */
  async download(
    id: string,
    directory: string,
    options: { signal?: AbortSignal; fileName?: string; overwrite?: boolean } = {},
  ): Promise<DownloadedFile> {
    const location = await this.downloadUrl(id, options.signal);
    const response = await this.raw('GET', location, { signal: options.signal, authorize: false });
    if (response.statusCode !== 200) throw await this.errorOf(response);
    return saveDownload(response, id, directory, options);
  }

  /** Asks the API for the signed URL of a document's file (absolute), without fetching it. */
  async downloadUrl(id: string, signal?: AbortSignal): Promise<string> {
    const response = await this.sendRaw('GET', `/v1/documents/${encodeURIComponent(id)}/download`, {
      signal,
      expect: [302],
    });
    const location = header(response.headers, 'location');
    await response.body.dump();
    if (!location) throw new ArchiveError('The service answered the download without a Location', { status: 502 });
    return new URL(location, `${this.baseUrl}/`).href;
  }
}

/**
 * Just before an upload leaves (its tokens taken): is the file still there, a file, of the size the body announces?
 * A vanished or changed file fails here, locally, and its tokens are given back.
 */
async function checkUploadFile(path: string, size: number): Promise<void> {
  const info = await stat(path);
  if (!info.isFile()) throw Object.assign(new Error(fileProblem('notAFile', { path })), { code: 'EISDIR' });
  if (info.size !== size) throw new FileChangedError(path, size, info.size);
}
