import { EVENT_TYPES, type EventType } from '../../../common/archive-types.ts';

/**
 * The document's type: the value of its extracted `event_type`, whatever set it (metadata, rules, a hand edit). Apart
 * from the edit form (document-edit.ts) so that the Document screen shows it without loading zod.
 */
export function documentType(doc: { extracted_data: Record<string, unknown> }): EventType | null {
  const field = doc.extracted_data.event_type as { value?: unknown } | undefined;
  const value = field && typeof field === 'object' ? field.value : undefined;
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value) ? (value as EventType) : null;
}
