import { z } from 'zod';
import { EVENT_TYPES } from './archive-types.ts';
import { isCalendarDate } from './dates.ts';

/**
 * The fields of a hand edit of an event (PATCH /v1/events/{id}, and the desktop's events.update call): one schema, so
 * the app refuses exactly what the service would. null clears a field.
 */
const text = z.string().trim().min(1, { error: 'must not be empty' }).max(500, { error: 'at most 500 characters' });

export const eventPatchFields = {
  event_type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  amount: z.strictObject({
    value: z.number({ error: 'must be a number' }).finite({ error: 'must be a finite number' }),
    currency: z.string().trim().regex(/^[A-Za-z]{3}$/, { error: 'must be a three-letter ISO 4217 code' })
      .transform((c) => c.toUpperCase()),
  }, { error: 'must be an object { value, currency } or null' }).nullable().optional(),
  due_date: z.string().refine(isCalendarDate, { error: 'must be a date YYYY-MM-DD' }).nullable().optional(),
  reference_number: text.nullable().optional(),
  sender_name: text.nullable().optional(),
};

export const eventPatchSchema = z.strictObject(eventPatchFields,
  { error: 'body must be a JSON object { event_type?, amount?, due_date?, reference_number?, sender_name? }' });
/** What a client sends (the currency in any case; the service stores it upper case). */
export type EventPatch = z.input<typeof eventPatchSchema>;
