import { z } from 'zod';
import {
  DOCUMENT_STATUSES, EVENT_STATES, EVENT_TYPES, FILE_FORMATS, ROLES, SCOPES,
} from './archive-types.ts';
import { isCalendarDate } from './dates.ts';
import { uploadMetadataSchema } from './upload-metadata.ts';

/**
 * The resources of the Document Archive Service v1 as zod schemas, the rules of docs/api.md and GET /v1/openapi.json.
 * The desktop parses every answer of a service with them (a hosted service is as untrusted as the network), and the
 * IPC contract (common/ipc.ts) sends the same shapes on to the renderer. Ids, digests and file names are checked
 * strictly: they end up in local paths and SQLite keys.
 */

export const uuid = z.uuid({ error: 'expected a uuid' });
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, { error: 'expected a SHA-256 digest (64 lower-case hex digits)' });
export const calendarDate = z.string().refine(isCalendarDate, { error: 'expected a date YYYY-MM-DD' });
export const isoTimestamp = z.iso.datetime({ offset: true, error: 'expected an ISO 8601 timestamp' });
const count = z.number().int({ error: 'expected a whole number' }).min(0, { error: 'expected a number ≥ 0' });

/**
 * A file name as the service stores it: "without any path" (docs/api.md). Nothing that could name a directory or
 * leave one, no control characters; 255 characters like the service's own limit.
 */
export const storedFileName = z.string()
  .min(1, { error: 'expected a file name' })
  .max(255, { error: 'expected a file name of at most 255 characters' })
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..', {
    error: 'expected a file name without a path',
  });

export const amountSchema = z.object({
  value: z.number().finite(),
  currency: z.string().regex(/^[A-Z]{3}$/, { error: 'expected a three-letter currency code' }),
});

// ---- resources ---------------------------------------------------------------------------------------------------

export const documentSchema = z.object({
  id: uuid, space_id: uuid, category_id: uuid.nullable(), category_name: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES), title: z.string(), original_filename: storedFileName, mime_type: z.string(),
  file_format: z.enum(FILE_FORMATS),
  size_bytes: z.number().int({ error: 'expected a whole number of bytes' }).min(1, { error: 'expected a size of at least 1 byte' }),
  sha256: sha256Hex, page_count: count.nullable(),
  language: z.string().nullable(), sender_name: z.string().nullable(), document_date: calendarDate.nullable(),
  tags: z.array(z.string()), duplicate_of: uuid.nullable(), processing_note: z.string().nullable(),
  error: z.string().nullable(), created_at: isoTimestamp, updated_at: isoTimestamp, processed_at: isoTimestamp.nullable(),
  deleted_at: isoTimestamp.nullable(),
});

export const documentDetailSchema = documentSchema.extend({
  content: z.string(),
  extracted_data: z.record(z.string(), z.unknown()),
  // The fields are checked, but a service that echoes a field this version does not know is not refused for it.
  metadata: z.object(uploadMetadataSchema.shape).nullable(),
  event_ids: z.array(uuid),
});

export const eventSchema = z.object({
  id: uuid, document_id: uuid, space_id: uuid, event_type: z.enum(EVENT_TYPES),
  state: z.enum(EVENT_STATES), title: z.string(), amount: amountSchema.nullable(), due_date: calendarDate.nullable(),
  reference_number: z.string().nullable(), sender_name: z.string().nullable(), created_at: isoTimestamp, updated_at: isoTimestamp,
});

export const paymentSchema = z.object({
  id: uuid, amount: amountSchema.nullable(), paid_at: calendarDate, confirmed: z.boolean(),
  source: z.enum(['metadata', 'manual']), created_at: isoTimestamp,
});

export const eventStateChangeSchema = z.object({
  from: z.enum(EVENT_STATES).nullable(), to: z.enum(EVENT_STATES), at: isoTimestamp, cause: z.string(),
});

export const eventDetailSchema = eventSchema.extend({
  document: z.object({
    id: uuid, title: z.string(), space_id: uuid, status: z.enum(DOCUMENT_STATUSES), original_filename: storedFileName,
  }),
  payments: z.array(paymentSchema),
  history: z.array(eventStateChangeSchema),
});

export const spaceSchema = z.object({
  id: uuid, name: z.string(), is_default: z.boolean(), access: z.enum(ROLES), created_at: isoTimestamp,
  // An extension of this service: a service that implements only the spec does not send it.
  ocr_languages: z.array(z.string()).nullable().optional(),
});
export const categorySchema = z.object({ id: uuid, space_id: uuid, name: z.string(), document_count: count, created_at: isoTimestamp });
export const tagSchema = z.object({ name: z.string(), document_count: count });
export const senderSchema = z.object({ id: uuid, space_id: uuid, name: z.string(), document_count: count, event_count: count });
export const keyInfoSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/, { error: 'expected a key id (32 hex digits)' }), name: z.string(), role: z.enum(ROLES),
  scopes: z.array(z.enum(SCOPES)), spaces: z.array(uuid).nullable(),
});
export const searchHitSchema = z.object({ document: documentSchema, score: z.number(), snippet: z.string() });

// ---- response bodies ---------------------------------------------------------------------------------------------

const success = z.literal(true);

export const listEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({ success, items: z.array(item), total: count, limit: count, offset: count });

export const healthResponseSchema = z.object({ success, status: z.string(), version: z.string().optional() });
export const keyResponseSchema = z.object({ success, key: keyInfoSchema });
export const documentResponseSchema = z.object({ success, document: documentDetailSchema });
export const restoredDocumentResponseSchema = z.object({ success, document: documentSchema });
export const deletedDocumentResponseSchema = z.object({ success, id: uuid, deleted_at: isoTimestamp });
export const eventResponseSchema = z.object({ success, event: eventDetailSchema });
export const categoryResponseSchema = z.object({ success, category: categorySchema });
export const searchResponseSchema = z.object({
  success, items: z.array(searchHitSchema), total: count, limit: count, query: z.string(),
  total_is_estimate: z.boolean().optional(),
});
export const reprocessResponseSchema = z.object({ success, id: uuid, queued: z.boolean(), alreadyProcessing: z.boolean() });
export const bulkReprocessResponseSchema = z.object({
  success, queued: z.array(uuid), skippedPending: z.array(uuid), denied: z.array(uuid), notFound: z.array(uuid),
});
export const uploadAcceptedSchema = z.object({
  success, id: uuid, status: z.enum(DOCUMENT_STATUSES), duplicate_of: uuid.nullable(), location: z.string(),
});

/** "items.3.sha256: expected a SHA-256 digest (…)"; the first few issues, so one bad page cannot flood a log line. */
export function describeIssues(error: z.ZodError, max = 3): string {
  const shown = error.issues.slice(0, max).map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const more = error.issues.length - shown.length;
  return shown.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
