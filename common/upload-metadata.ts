import { z } from 'zod';
import { EVENT_TYPES, STATE_HINTS, type UploadMetadata } from './archive-types.ts';
import { isCalendarDate, toCalendarDate } from './dates.ts';

export const MAX_METADATA_TAGS = 5;
export const MAX_TEXT_FIELD = 500;

const text = (field: string) =>
  z.string({ error: `${field} must be a string` }).trim().min(1, { error: `${field} must not be empty` })
    .max(MAX_TEXT_FIELD, { error: `${field} must be at most ${MAX_TEXT_FIELD} characters` });

const calendarDate = (field: string) =>
  z.string({ error: `${field} must be a string` }).refine(isCalendarDate, { error: `${field} must be a date YYYY-MM-DD` });

/** The upload metadata object of the spec, validated field by field. Unknown fields are rejected (likely typos). */
export const uploadMetadataSchema = z.strictObject({
  event_type: z.enum(EVENT_TYPES, { error: `event_type must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  state_hint: z.enum(STATE_HINTS, { error: `state_hint must be one of ${STATE_HINTS.join(', ')}` }).optional(),
  amount: z.strictObject({
    value: z.number({ error: 'amount.value must be a number' }).finite({ error: 'amount.value must be a finite number' }),
    currency: z.string({ error: 'amount.currency must be a string' }).trim().regex(/^[A-Za-z]{3}$/, {
      error: 'amount.currency must be a three-letter ISO 4217 code',
    }).transform((c) => c.toUpperCase()),
  }, { error: 'amount must be an object { value, currency }' }).optional(),
  sender_name: text('sender_name').optional(),
  document_date: z.string({ error: 'document_date must be a string' })
    .refine((v) => toCalendarDate(v) !== null, { error: 'document_date must be YYYY-MM-DD or an ISO 8601 timestamp' })
    .optional(),
  due_date: calendarDate('due_date').optional(),
  paid_at: calendarDate('paid_at').optional(),
  reference_number: text('reference_number').optional(),
  tags: z.array(text('each tag').max(100, { error: 'each tag must be at most 100 characters' }), {
    error: 'tags must be an array of strings',
  }).max(MAX_METADATA_TAGS, { error: `tags may have at most ${MAX_METADATA_TAGS} entries` }).optional(),
  category: text('category').max(200, { error: 'category must be at most 200 characters' }).optional(),
  title: text('title').optional(),
}, { error: 'metadata must be a JSON object' });

export type ParsedMetadata = { ok: true; value: UploadMetadata } | { ok: false; error: string };

/** Parses the `metadata` form field (a JSON string). The error names the field that is wrong. */
export function parseUploadMetadata(raw: string): ParsedMetadata {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'Invalid metadata: not valid JSON' };
  }
  return validateUploadMetadata(json);
}

export function validateUploadMetadata(json: unknown): ParsedMetadata {
  const result = uploadMetadataSchema.safeParse(json);
  if (result.success) {
    const value = result.data;
    if (value.tags) value.tags = [...new Map(value.tags.map((t) => [t.toLowerCase(), t])).values()];
    return { ok: true, value };
  }
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return { ok: false, error: `Invalid metadata: unknown field ${issue.keys.join(', ')}` };
  return { ok: false, error: `Invalid metadata: ${issue.message}` };
}
