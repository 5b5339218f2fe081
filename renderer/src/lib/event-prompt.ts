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
