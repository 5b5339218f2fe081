/** Resource types and enums of the Document Archive Service v1 (spec + docs/api.md). Runtime-neutral. */

export const DOCUMENT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'skipped'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const EVENT_TYPES = [
  'invoice', 'receipt', 'contract', 'policy', 'notice', 'payslip', 'letter', 'statement', 'offer', 'credit_note',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATES = ['received', 'needs_input', 'open', 'paid', 'expired', 'cancelled', 'archived', 'active'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const STATE_HINTS = ['open', 'paid', 'active', 'expired'] as const;
export type StateHint = (typeof STATE_HINTS)[number];

export const SCOPES = [
  'documents:read', 'documents:write', 'search', 'spaces:read', 'categories:read', 'categories:write',
  'tags:read', 'tags:write', 'senders:read', 'events:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['viewer', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export const DOCUMENT_SORT_FIELDS = ['created_at', 'updated_at', 'title', 'document_date'] as const;
export type DocumentSortField = (typeof DOCUMENT_SORT_FIELDS)[number];

/** Supported stored formats, by what the bytes are (not by what the client says). */
export const FILE_FORMATS = [
  'pdf', 'jpeg', 'png', 'tiff', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt',
] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export interface Amount { value: number; currency: string }

export interface UploadMetadata {
  event_type?: EventType;
  state_hint?: StateHint;
  amount?: Amount;
  sender_name?: string;
  document_date?: string;
  due_date?: string;
  paid_at?: string;
  reference_number?: string;
  tags?: string[];
  category?: string;
  title?: string;
}

export interface ArchiveDocument {
  id: string;
  space_id: string;
  category_id: string | null;
  category_name: string | null;
  status: DocumentStatus;
  title: string;
  original_filename: string;
  mime_type: string;
  file_format: FileFormat;
  size_bytes: number;
  sha256: string;
  page_count: number | null;
  language: string | null;
  sender_name: string | null;
  document_date: string | null;
  tags: string[];
  duplicate_of: string | null;
  processing_note: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  deleted_at: string | null;
}

/** GET /v1/documents/:id adds the full text and the extracted data. */
export interface ArchiveDocumentDetail extends ArchiveDocument {
  content: string;
  extracted_data: Record<string, unknown>;
  metadata: UploadMetadata | null;
  event_ids: string[];
}

export interface Payment {
  id: string;
  amount: Amount | null;
  paid_at: string;
  confirmed: boolean;
  source: 'metadata' | 'manual';
  created_at: string;
}

export interface EventStateChange { from: EventState | null; to: EventState; at: string; cause: string }

export interface ArchiveEvent {
  id: string;
  document_id: string;
  space_id: string;
  event_type: EventType;
  state: EventState;
  title: string;
  amount: Amount | null;
  due_date: string | null;
  reference_number: string | null;
  sender_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface ArchiveEventDetail extends ArchiveEvent {
  document: { id: string; title: string; space_id: string; status: DocumentStatus; original_filename: string };
  payments: Payment[];
  history: EventStateChange[];
}

export interface Space {
  id: string; name: string; is_default: boolean; access: Role; created_at: string;
  /** Tesseract codes OCR reads this space's scans with, in order; null = the defaults (German and English). */
  ocr_languages: string[] | null;
}
export interface Category { id: string; space_id: string; name: string; document_count: number; created_at: string }
export interface Tag { name: string; document_count: number }
export interface Sender { id: string; name: string; document_count: number; event_count: number }

export interface ListEnvelope<T> { success: true; items: T[]; total: number; limit: number; offset: number }

export interface SearchHit { document: ArchiveDocument; score: number; snippet: string }

export interface KeyInfo { id: string; name: string; role: Role; scopes: Scope[]; spaces: string[] | null }

export interface ReprocessResult { success: true; id: string; queued: boolean; alreadyProcessing: boolean }
export interface BulkReprocessResult {
  success: true; queued: string[]; skippedPending: string[]; denied: string[]; notFound: string[];
}

export interface UploadAccepted {
  success: true; id: string; status: DocumentStatus; duplicate_of: string | null; location: string;
}
