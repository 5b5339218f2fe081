import { z } from 'zod';
import { DOCUMENT_STATUSES, EVENT_STATES, EVENT_TYPES, FILE_FORMATS, ROLES, SCOPES } from './archive-types.ts';
import { isCalendarDate } from './dates.ts';
import { CURRENCY_DESCRIPTION, uploadMetadataSchema } from './upload-metadata.ts';

/**
 * The resources of the Document Archive Service v1 as zod schemas, the rules of docs/api.md and GET /v1/openapi.json.
 * The desktop parses every answer of a service with them (a hosted service is as untrusted as the network), and the
 * IPC contract (common/ipc.ts) sends the same shapes on to the renderer. Ids, digests and file names are checked
 * strictly: they end up in local paths and SQLite keys.
 */

/**
 * An id as the service accepts it anywhere (path, query or body): 8-4-4-4-12 hex digits in either case, of any UUID
 * version, so that "uuid" means one thing in the whole interface.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuidOf = (error: string) => z.string({ error }).regex(UUID_PATTERN, { error }).meta({ format: 'uuid' });
export const uuid = uuidOf('expected a uuid');
export const sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: 'expected a SHA-256 digest (64 lower-case hex digits)' });
export const calendarDate = z
  .string()
  .refine(isCalendarDate, { error: 'expected a date YYYY-MM-DD' })
  .meta({ format: 'date' });
export const isoTimestamp = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 timestamp' });
const count = z.number().int({ error: 'expected a whole number' }).min(0, { error: 'expected a number ≥ 0' });

/**
 * A file name as the service stores it: "without any path" (docs/api.md). Nothing that could name a directory or
 * leave one, no control characters; 255 characters like the service's own limit.
 */
export const storedFileName = z
  .string()
  .min(1, { error: 'expected a file name' })
  .max(255, { error: 'expected a file name of at most 255 characters' })
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..', {
    error: 'expected a file name without a path',
  });

export const amountSchema = z.object({
  value: z.number().finite(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'expected a three-letter currency code' })
    .describe(CURRENCY_DESCRIPTION),
});

// ---- resources ---------------------------------------------------------------------------------------------------
// The descriptions are those of GET /v1/openapi.json, which is generated from these schemas.

export const documentSchema = z
  .object({
    id: uuid,
    space_id: uuid.describe('The space the document is stored in.'),
    category_id: uuid.nullable().describe('Category of the same space; null when none.'),
    category_name: z.string().nullable().describe('Name of that category.'),
    status: z
      .enum(DOCUMENT_STATUSES)
      .describe('Processing status: pending → processing → completed | failed; a duplicate upload ends skipped.'),
    title: z
      .string()
      .describe('From metadata.title, a hand edit, the pipeline, or the file name (in that order of precedence).'),
    original_filename: storedFileName.describe(
      'The uploaded file name without any path, control, bidirectional or zero-width characters.',
    ),
    mime_type: z
      .string()
      .describe('Canonical MIME type of the detected format (by content, not by what the client declared).'),
    file_format: z.enum(FILE_FORMATS).describe('Format detected from the bytes.'),
    size_bytes: z
      .number()
      .int({ error: 'expected a whole number of bytes' })
      .min(1, { error: 'expected a size of at least 1 byte' })
      .describe('Size of the stored file.'),
    sha256: sha256Hex.describe('SHA-256 of the file, lower-case hex.'),
    page_count: count.nullable().describe('Pages, when the pipeline could count them (PDF).'),
    language: z.string().nullable().describe('Detected language, when known.'),
    sender_name: z.string().nullable().describe('Sender, from metadata or extraction.'),
    document_date: calendarDate.nullable().describe('Date the document carries (YYYY-MM-DD).'),
    tags: z.array(z.string()).describe('Tag names, sorted.'),
    duplicate_of: uuid
      .nullable()
      .describe('Set when the same file (SHA-256) was already in this space: the id of the original.'),
    // An extension of this service: a service that implements only the spec does not send it.
    possible_duplicate_of: uuid
      .nullable()
      .optional()
      .describe(
        'Another live document of the space that looks like the same ' +
          'bill (same sender, reference and amount, other bytes), or null; set on both; cleared by PATCH with null ("not a ' +
          'duplicate") or by deleting one. Always sent by this service.',
      ),
    processing_note: z.string().nullable().describe('Why something is missing (e.g. no text layer, duplicate).'),
    error: z.string().nullable().describe('Why processing failed (status failed).'),
    created_at: isoTimestamp,
    updated_at: isoTimestamp.describe('Changes on processing, hand edits, deletion and restore.'),
    processed_at: isoTimestamp.nullable().describe('When processing last finished.'),
    deleted_at: isoTimestamp.nullable().describe('Set while the document is soft-deleted.'),
  })
  .describe('A stored file plus its processed data (list and search form).');

/** One entry of extracted_data as this service writes it. */
export const extractedFieldSchema = z.object({
  value: z.unknown().describe('The extracted or given value (any JSON).'),
  source: z
    .string()
    .describe(
      '"edit" for a hand edit (PATCH of the document or its event; wins over everything), ' +
        '"metadata" for upload metadata, otherwise the pipeline step that found it ("text", "e-invoice", "filename", "ocr", "llm").',
    ),
  confidence: z.number().min(0).max(1),
});

export const documentDetailSchema = documentSchema
  .extend({
    content: z
      .string()
      .describe('Full extracted text (empty until processed, or when the format has no readable text yet).'),
    // Checked as any JSON: the spec leaves the form of extracted data open (this service's is extractedFieldSchema).
    extracted_data: z.record(z.string(), z.unknown()).describe('Extracted fields by name.'),
    // The fields are checked, but a service that echoes a field this version does not know is not refused for it.
    metadata: z.object(uploadMetadataSchema.shape).nullable().describe('The upload metadata, as stored.'),
    event_ids: z.array(uuid).describe('Events extracted from this document.'),
  })
  .describe('A document with its full text, extracted data, upload metadata and event ids.');

export const eventSchema = z
  .object({
    id: uuid,
    document_id: uuid.describe('The source document.'),
    space_id: uuid.describe('Space of the source document.'),
    event_type: z.enum(EVENT_TYPES),
    state: z.enum(EVENT_STATES).describe('See docs/api.md, "Event states".'),
    title: z.string().describe('Title of the source document.'),
    amount: amountSchema.nullable(),
    due_date: calendarDate.nullable().describe('Due date (payables) or end date (contract, policy, offer).'),
    reference_number: z.string().nullable(),
    sender_name: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .describe('Something a document asks of its reader (pay, renew, keep).');

export const paymentSchema = z.object({
  id: uuid,
  amount: amountSchema.nullable(),
  paid_at: calendarDate,
  confirmed: z
    .boolean()
    .describe('false once the payment was reversed (a change paid → open unconfirms the latest confirmed payment).'),
  source: z.enum(['metadata', 'manual']).describe('"metadata": from upload metadata paid_at.'),
  created_at: isoTimestamp,
});

export const eventStateChangeSchema = z.object({
  from: z.enum(EVENT_STATES).nullable().describe('null for the initial state.'),
  to: z.enum(EVENT_STATES),
  at: isoTimestamp,
  cause: z.string().describe('Why, e.g. "metadata.paid_at", "invoice without amount", "reprocessed: …".'),
});

export const eventDetailSchema = eventSchema
  .extend({
    document: z
      .object({
        id: uuid,
        title: z.string(),
        space_id: uuid,
        status: z.enum(DOCUMENT_STATUSES),
        original_filename: storedFileName,
      })
      .describe('The linked source document.'),
    payments: z.array(paymentSchema).describe('Ordered by paid_at.'),
    history: z.array(eventStateChangeSchema).describe('State changes, oldest first.'),
  })
  .describe('An event with its source document, payments and state history.');

export const spaceSchema = z.object({
  id: uuid,
  name: z.string(),
  is_default: z.boolean().describe('Uploads without space_id go here.'),
  access: z.enum(ROLES).describe('What the calling key may do here.'),
  created_at: isoTimestamp,
  // An extension of this service: a service that implements only the spec does not send it.
  ocr_languages: z
    .array(z.string())
    .nullable()
    .optional()
    .describe(
      'Tesseract codes (e.g. deu, eng) OCR reads this ' +
        "space's scans with (each page with one of them, chosen by its text); null = the defaults: deu, eng, fra, nld, " +
        'spa, ita. Set with the admin CLI. Always sent by this service.',
    ),
});
export const categorySchema = z.object({
  id: uuid,
  space_id: uuid,
  name: z.string(),
  document_count: count.describe('Non-deleted documents in it.'),
  created_at: isoTimestamp,
});
export const tagSchema = z.object({
  name: z.string(),
  document_count: count.describe('Visible, non-deleted documents with it.'),
});
export const senderSchema = z.object({
  id: uuid,
  space_id: uuid.describe('The space the sender is kept in (senders are per space).'),
  name: z.string(),
  document_count: count.describe('Visible, non-deleted documents from it.'),
  event_count: count.describe('Visible events from it.'),
});
export const keyInfoSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{32}$/, { error: 'expected a key id (32 hex digits)' })
    .describe('Key id (the 32 hex digits after das_).'),
  name: z.string(),
  role: z.enum(ROLES),
  scopes: z.array(z.enum(SCOPES)),
  spaces: z.array(uuid).nullable().describe('Spaces the key is restricted to; null = every space.'),
});
export const searchHitSchema = z.object({
  document: documentSchema,
  score: z
    .number()
    .describe(
      'Fused relevance of full text (BM25) and semantic similarity, higher is better ' + '(4 decimals, at most 1.9).',
    ),
  snippet: z.string().describe('HTML-escaped text around the matches, each match in <mark>…</mark>.'),
});

// ---- response bodies ---------------------------------------------------------------------------------------------

const success = z.literal(true);

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    success,
    items: z.array(item),
    total: count.describe('Number of matches across all pages.'),
    limit: count.describe('The page size applied.'),
    offset: count.describe('The offset applied.'),
  });

export const healthResponseSchema = z.object({
  success,
  status: z.string().describe('"ok" while the service runs ("ready" from GET /v1/ready).'),
  version: z.string().optional().describe('Not sent by this service.'),
});
export const keyResponseSchema = z.object({ success, key: keyInfoSchema });
export const documentResponseSchema = z.object({ success, document: documentDetailSchema });
export const restoredDocumentResponseSchema = z.object({ success, document: documentSchema });
export const deletedDocumentResponseSchema = z.object({
  success,
  id: uuid,
  deleted_at: isoTimestamp.describe('When it was (first) deleted.'),
});
export const eventResponseSchema = z.object({ success, event: eventDetailSchema });
export const categoryResponseSchema = z.object({ success, category: categorySchema });
export const searchResponseSchema = z.object({
  success,
  items: z.array(searchHitSchema).describe('Best match first.'),
  total: count.describe('All matches (items holds at most limit); an estimate when total_is_estimate.'),
  limit: count.describe('The limit applied (1-100).'),
  query: z.string().describe('The query as searched (trimmed).'),
  total_is_estimate: z
    .boolean()
    .optional()
    .describe(
      'Always sent by this service. true when the query has more than ' +
        '1,000 full-text matches: total is then estimated (two significant digits) and BM25 ranked only the 1,000 most ' +
        'recent of them.',
    ),
});
export const reprocessResponseSchema = z.object({
  success,
  id: uuid,
  queued: z.boolean().describe('true when a job was queued (202).'),
  alreadyProcessing: z.boolean().describe('true when the document was already in the pipeline (200, nothing queued).'),
});
export const bulkReprocessResponseSchema = z.object({
  success,
  queued: z.array(uuid).describe('Queued, in request order.'),
  skippedPending: z.array(uuid).describe('Already in the pipeline; not queued again.'),
  denied: z.array(uuid).describe('Visible but the key may not edit the space (viewer role).'),
  notFound: z.array(uuid).describe('Missing, deleted, or in a space the key cannot see.'),
});
export const uploadAcceptedSchema = z.object({
  success,
  id: uuid.describe('Id of the new document record.'),
  status: z
    .enum(DOCUMENT_STATUSES)
    .describe('pending: the record is processed shortly (a duplicate then ends skipped).'),
  duplicate_of: uuid
    .nullable()
    .describe('When the same file is already in the space: the original (the record ends skipped).'),
  location: z.string().describe('Path of the new document, as in the Location header.'),
});

/** Every error answer: `{ success: false, error }`, and on 429 the seconds to wait. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('What went wrong, one sentence (see docs/api.md for every message).'),
  retryAfter: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Only on 429: seconds to wait (same as the Retry-After header).'),
});

/** "items.3.sha256: expected a SHA-256 digest (…)"; the first few issues, so one bad page cannot flood a log line. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const shown = error.issues
    .slice(0, max)
    .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
