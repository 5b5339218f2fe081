import { z } from 'zod';
import { holdsOnlyStorableText } from './storable-text.ts';
import { EVENT_TYPES, STATE_HINTS, type UploadMetadata } from './archive-types.ts';
import { isCalendarDate, toCalendarDate } from './dates.ts';

export const MAX_METADATA_TAGS = 5;
export const MAX_TEXT_FIELD = 500;
export const CURRENCY_DESCRIPTION = 'Three-letter ISO 4217 code, upper case.';

const text = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(MAX_TEXT_FIELD, { error: `${field} must be at most ${MAX_TEXT_FIELD} characters` });

const calendarDate = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(isCalendarDate, { error: `${field} must be a date YYYY-MM-DD` })
    .meta({ format: 'date' });

/**
 * The upload metadata object of the spec, validated field by field. Unknown fields are rejected (likely typos).
 * The descriptions are those of GET /v1/openapi.json.
 */
export const uploadMetadataSchema = z
  .strictObject(
    {
      event_type: z
        .enum(EVENT_TYPES, { error: `event_type must be one of ${EVENT_TYPES.join(', ')}` })
        .optional()
        .describe('Creates an event of this type.'),
      state_hint: z
        .enum(STATE_HINTS, { error: `state_hint must be one of ${STATE_HINTS.join(', ')}` })
        .optional()
        .describe('Initial event state (paid_at wins over it).'),
      amount: z
        .strictObject(
          {
            value: z
              .number({ error: 'amount.value must be a number' })
              .finite({ error: 'amount.value must be a finite number' }),
            currency: z
              .string({ error: 'amount.currency must be a string' })
              .trim()
              .regex(/^[A-Za-z]{3}$/, {
                error: 'amount.currency must be a three-letter ISO 4217 code',
              })
              .overwrite((c) => c.toUpperCase())
              .describe(`${CURRENCY_DESCRIPTION} Any case is accepted and stored upper case.`),
          },
          { error: 'amount must be an object { value, currency }' },
        )
        .optional()
        .describe('Amount of the event; creates an event (invoice unless event_type says otherwise).'),
      sender_name: text('sender_name').optional().describe('Free text; trimmed.'),
      document_date: z
        .string({ error: 'document_date must be a string' })
        .refine((v) => toCalendarDate(v) !== null, {
          error: 'document_date must be YYYY-MM-DD or an ISO 8601 timestamp',
        })
        .optional()
        .describe('YYYY-MM-DD or an ISO 8601 timestamp (stored as its calendar date, UTC).'),
      due_date: calendarDate('due_date').optional().describe('YYYY-MM-DD; creates an event.'),
      paid_at: calendarDate('paid_at')
        .optional()
        .describe('YYYY-MM-DD; the event starts in state paid with a confirmed payment record.'),
      reference_number: text('reference_number').optional().describe('Free text; trimmed.'),
      tags: z
        .array(text('each tag').max(100, { error: 'each tag must be at most 100 characters' }), {
          error: 'tags must be an array of strings',
        })
        .max(MAX_METADATA_TAGS, { error: `tags may have at most ${MAX_METADATA_TAGS} entries` })
        .optional()
        .describe(`At most ${MAX_METADATA_TAGS} tags; duplicates (case-insensitive) are dropped.`),
      category: text('category')
        .max(200, { error: 'category must be at most 200 characters' })
        .optional()
        .describe('A category name of the target space; created there when missing (case-insensitive match).'),
      title: text('title').optional().describe('Overrides the document title.'),
    },
    { error: 'metadata must be a JSON object' },
  )
  .describe('Optional upload metadata. Its values take precedence over extracted values; unknown fields are rejected.');

export type ParsedMetadata = { ok: true; value: UploadMetadata } | { ok: false; error: string };

/** Parses the `metadata` form field (a JSON string). The error names the field that is wrong. */
export function parseUploadMetadata(raw: string): ParsedMetadata {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'Invalid metadata: not valid JSON' };
  }
  if (!holdsOnlyStorableText(json))
    return { ok: false, error: 'Invalid metadata: a string holds a NUL or a lone surrogate' };
  return validateUploadMetadata(json);
}

export function validateUploadMetadata(json: unknown): ParsedMetadata {
  const result = uploadMetadataSchema.safeParse(json);
  if (result.success) {
    const value = result.data;
    if (value.tags) value.tags = [...new Map(value.tags.map((t) => [t.toLowerCase(), t])).values()];
    // Money owed to the reader is a credit note, stored negative; any other document with a sum of zero or less would
    // lower what is due as if it were a bill (or open one for nothing).
    if (value.amount && value.amount.value <= 0 && value.event_type !== 'credit_note') {
      return {
        ok: false,
        error: 'Invalid metadata: amount.value must be greater than 0 unless event_type is credit_note',
      };
    }
    if (value.amount && value.event_type === 'credit_note') value.amount.value = -Math.abs(value.amount.value);
    return { ok: true, value };
  }
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys')
    return { ok: false, error: `Invalid metadata: unknown field ${issue.keys.join(', ')}` };
  return { ok: false, error: `Invalid metadata: ${issue.message}` };
}
