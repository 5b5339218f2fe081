import type { EventState, EventType, StateHint } from '../../common/archive-types.ts';

/** What the initial state of an event is decided from. */
export interface EventFacts {
  eventType: EventType;
  hasAmount: boolean;
  dueDate: string | null;
  paidAt: string | null;
  stateHint: StateHint | null;
  /** YYYY-MM-DD the state hint was given (the upload day); an end date that passes after it expires the hint. */
  hintGivenOn?: string | null;
  today: string; // YYYY-MM-DD
}

/** Types that ask the reader to pay something. */
const PAYABLE: ReadonlySet<EventType> = new Set(['invoice', 'notice']);
/** Types that run for a while and end (their due date is the end date). */
const TERM: ReadonlySet<EventType> = new Set(['contract', 'policy', 'offer']);

/**
 * Types whose `open` means "an amount to pay": an invoice without one is needs_input, and a person may move it to
 * open only once it has one. A notice is open on its deadline alone (it may ask for an action, not a sum).
 */
export const needsAmountToOpen = (type: EventType): boolean => type === 'invoice';

/**
 * The state an event starts in (docs/events.md has the full machine). paid_at always wins: the spec creates the
 * event directly as paid. Otherwise an explicit state hint wins, then the rules per type.
 *
 * A hint is what the uploader knew on the upload day. `active` (or `open`) on a contract, policy or offer whose end
 * date had already passed that day is taken as the uploader's word (e.g. a tacitly renewed contract) and stays; an
 * end date still ahead on that day that has passed since expires it like any other term.
 */
export function initialEventState(facts: EventFacts): { state: EventState; cause: string } {
  if (facts.paidAt) return { state: 'paid', cause: 'metadata.paid_at' };
  // A credit note is owed to the reader: nothing to pay, so never open, whatever the hint says.
  if (facts.stateHint && !(facts.eventType === 'credit_note' && facts.stateHint === 'open')) {
    const running = facts.stateHint === 'active' || facts.stateHint === 'open';
    if (
      running &&
      TERM.has(facts.eventType) &&
      facts.dueDate &&
      facts.hintGivenOn &&
      facts.dueDate >= facts.hintGivenOn &&
      facts.dueDate < facts.today
    ) {
      return { state: 'expired', cause: 'end date passed' };
    }
    return { state: facts.stateHint, cause: 'metadata.state_hint' };
  }
  if (PAYABLE.has(facts.eventType)) {
    if (facts.eventType === 'invoice' && !facts.hasAmount)
      return { state: 'needs_input', cause: 'invoice without amount' };
    if (facts.eventType === 'notice' && !facts.dueDate) return { state: 'received', cause: 'notice without due date' };
    return { state: 'open', cause: 'payable with amount' };
  }
  if (TERM.has(facts.eventType)) {
    if (facts.dueDate && facts.dueDate < facts.today) return { state: 'expired', cause: 'end date passed' };
    return facts.eventType === 'offer'
      ? { state: 'open', cause: 'offer awaiting answer' }
      : { state: 'active', cause: 'in force' };
  }
  // receipt, credit_note, payslip, statement, letter: nothing to pay or to act on.
  return { state: 'received', cause: `${facts.eventType} needs no action` };
}

/** States a person or a payment put the event in; reprocessing must never undo them. */
export const SETTLED_STATES: ReadonlySet<EventState> = new Set(['paid', 'cancelled', 'archived']);

/**
 * The state an existing event takes when its facts are decided again (reprocessing, a hand edit of its fields): the
 * decided one, unless the current state is settled or was set by a person (then it stays until a person changes it).
 */
export function redecidedState(current: EventState, decided: EventState, handSet: boolean): EventState {
  return SETTLED_STATES.has(current) || handSet ? current : decided;
}

/**
 * Transitions a person (or a client acting for one) may make. Time-driven ones (active → expired) come from the
 * sweeper; reprocessing and hand edits of the event's fields may move an event anywhere its new facts point
 * (needs_input → open when an amount appears), but never out of a settled state or a state a person set.
 */
export const MANUAL_TRANSITIONS: Readonly<Record<EventState, readonly EventState[]>> = {
  received: ['open', 'cancelled', 'archived'],
  needs_input: ['open', 'paid', 'cancelled', 'archived'],
  open: ['paid', 'cancelled', 'archived'],
  paid: ['open', 'archived'],
  active: ['expired', 'cancelled', 'archived'],
  expired: ['active', 'archived'],
  cancelled: ['open', 'archived'],
  archived: ['received', 'open', 'active'],
};

export function canTransition(from: EventState, to: EventState, type?: EventType): boolean {
  return MANUAL_TRANSITIONS[from].includes(to) && !(type === 'credit_note' && to === 'open');
}
