import { z } from 'zod';
import { EVENT_TYPES } from './archive-types.ts';
import { isCalendarDate } from './dates.ts';
import { CURRENCY_DESCRIPTION } from './upload-metadata.ts';

/**
 * The fields of a hand edit of an event (PATCH /v1/events/{id}, and the desktop's events.update call): one schema, so
 * the app refuses exactly what the service would. null clears a field.
 */
const text = z.string().trim().min(1, { error: 'must not be empty' }).max(500, { error: 'at most 500 characters' });

export const eventPatchFields = {
  event_type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  amount: z
    .strictObject(
      {
        value: z.number({ error: 'must be a number' }).finite({ error: 'must be a finite number' }),
        currency: z
          .string()
          .trim()
          .regex(/^[A-Za-z]{3}$/, { error: 'must be a three-letter ISO 4217 code' })
          .transform((c) => c.toUpperCase())
          .describe(`${CURRENCY_DESCRIPTION} Any case is accepted and stored upper case.`),
      },
      { error: 'must be an object { value, currency } or null' },
    )
    .nullable()
    .optional()
    .describe('null clears it.'),
  due_date: z
    .string()
    .refine(isCalendarDate, { error: 'must be a date YYYY-MM-DD' })
    .meta({ format: 'date' })
    .nullable()
    .optional()
    .describe('Due date (payables) or end date (contract, policy, offer); null clears it.'),
  reference_number: text.nullable().optional().describe('null clears it.'),
  sender_name: text.nullable().optional().describe('The sender of the event and of its document; null clears it.'),
};

export const eventPatchSchema = z
  .strictObject(eventPatchFields, {
    error: 'body must be a JSON object { event_type?, amount?, due_date?, reference_number?, sender_name? }',
  })
  .describe(
    'Hand edits of an event. Every field is optional; each given field is remembered as edited and kept by ' +
      'reprocessing.',
  );
/** What a client sends (the currency in any case; the service stores it upper case). */
export type EventPatch = z.input<typeof eventPatchSchema>;
