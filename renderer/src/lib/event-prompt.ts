import type { MessageKey } from '../../../common/i18n/messages.ts';
import type { EventView } from '../../../common/ipc.ts';

/**
 * The prompt a needs_input event shows on the Document screen: a missing amount by name, anything else as missing
 * details. Apart from event-form.ts, which brings zod and the contract's schemas: the screen loads those only when
 * a form opens.
 */
export function missingPrompt(event: EventView): MessageKey | null {
  if (event.state !== 'needs_input') return null;
  return event.amount ? 'event.detailsMissing' : 'event.amountMissing';
}

/** Types whose document's `notice` event is the last day to give notice (as main/core/library/due-items.ts reads it). */
const TERM_TYPES: ReadonlySet<string> = new Set(['contract', 'policy']);

/**
 * How the Document screen names an event and its date. The `notice` event of a contract or policy is its last day to
 * give notice, worded as the Due screen words it; any other notice is one received ("Bescheid", a reminder to pay).
 */
export function eventWording(event: EventView, events: readonly EventView[]): { type: MessageKey; date: MessageKey } {
  if (event.event_type === 'notice' && events.some((e) => TERM_TYPES.has(e.event_type)))
    return { type: 'event.noticeDeadline', date: 'due.noticeDeadline' };
  return { type: `eventType.${event.event_type}`, date: 'meta.dueDate' };
}
