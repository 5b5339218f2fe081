/** Resource types and enums of the Document Archive Service v1 (spec + docs/api.md). Runtime-neutral. */
import type { z } from 'zod';
import type * as schemas from './archive-schemas.ts';
import type { uploadMetadataSchema } from './upload-metadata.ts';

export const DOCUMENT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'skipped'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const EVENT_TYPES = [
  'invoice',
  'receipt',
  'contract',
  'policy',
  'notice',
  'payslip',
  'letter',
  'statement',
  'offer',
  'credit_note',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATES = [
  'received',
  'needs_input',
  'open',
  'paid',
  'expired',
  'cancelled',
  'archived',
  'active',
] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const STATE_HINTS = ['open', 'paid', 'active', 'expired'] as const;
export type StateHint = (typeof STATE_HINTS)[number];

export const SCOPES = [
  'documents:read',
  'documents:write',
  'search',
  'spaces:read',
  'categories:read',
  'categories:write',
  'tags:read',
  'tags:write',
  'senders:read',
  'events:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['viewer', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export const DOCUMENT_SORT_FIELDS = ['created_at', 'updated_at', 'title', 'document_date'] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];

/** Supported stored formats, by what the bytes are (not by what the client says). */
export const FILE_FORMATS = [
  'pdf',
  'jpeg',
  'png',
  'tiff',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
  'doc',
  'xls',
  'ppt',
] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

// The resources' types come from their zod schemas (common/archive-schemas.ts), the one description of their rules.
// Type-only imports: nothing of zod reaches a bundle that reads these types.
export type Amount = z.infer<typeof schemas.amountSchema>;
/** Upload metadata as the service keeps it (trimmed, currency upper case). */
export type UploadMetadata = z.output<typeof uploadMetadataSchema>;
export type ArchiveDocument = z.infer<typeof schemas.documentSchema>;
/** GET /v1/documents/:id adds the full text and the extracted data. */
export type ArchiveDocumentDetail = z.infer<typeof schemas.documentDetailSchema>;
/** One entry of extracted_data as this service writes it. */
export type ExtractedField = z.infer<typeof schemas.extractedFieldSchema>;
export type Payment = z.infer<typeof schemas.paymentSchema>;
export type EventStateChange = z.infer<typeof schemas.eventStateChangeSchema>;
export type ArchiveEvent = z.infer<typeof schemas.eventSchema>;
export type ArchiveEventDetail = z.infer<typeof schemas.eventDetailSchema>;
/** `ocr_languages`: Tesseract codes OCR may read this space's scans with (one per page, chosen by its text); null = the defaults (the six installed). */
export type Space = z.infer<typeof schemas.spaceSchema>;
export type Category = z.infer<typeof schemas.categorySchema>;
export type Tag = z.infer<typeof schemas.tagSchema>;
export type Sender = z.infer<typeof schemas.senderSchema>;
export type SearchHit = z.infer<typeof schemas.searchHitSchema>;
export type KeyInfo = z.infer<typeof schemas.keyInfoSchema>;
export type ReprocessResult = z.infer<typeof schemas.reprocessResponseSchema>;
export type BulkReprocessResult = z.infer<typeof schemas.bulkReprocessResponseSchema>;
export type UploadAccepted = z.infer<typeof schemas.uploadAcceptedSchema>;

export type ListEnvelope<T> = z.infer<ReturnType<typeof schemas.listEnvelopeSchema<z.ZodType<T>>>>;
