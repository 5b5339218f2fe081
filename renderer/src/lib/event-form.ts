import { eventUpdateSchema, type CallInput, type EventView } from '../../../common/ipc.ts';
import { amountSignError, DEFAULT_CURRENCY, parseAmount, type FieldMessage } from './upload-form.ts';

/**
 * The Events tab's edit form: what the user typed (every field a string, empty = none), turned into the body of
 * `events.update`. Only fields that differ from the event are sent: each field sent becomes a hand edit the service
 * keeps across reprocessing, so an untouched field must stay the extraction's. The contract's own schema decides what
 * is valid (the same rules as the service); its issues are mapped to messages next to the fields.
 */
export interface EventForm {
  event_type: string;
  amount: string;
  currency: string;
  due_date: string;
  reference_number: string;
}

export type EventFormField = keyof EventForm;
export type EventFormErrors = Partial<Record<EventFormField, FieldMessage>>;
export type EventPatchInput = CallInput<'events.update'>;
export type EventFormResult =
  { ok: true; patch: EventPatchInput; changed: boolean } | { ok: false; errors: EventFormErrors };

/** A needs_input event without an amount is asked for one; the currency starts filled in so one field is enough. */
export function formFromEvent(event: EventView): EventForm {
  return {
    event_type: event.event_type,
    amount: event.amount ? String(event.amount.value) : '',
    currency: event.amount?.currency ?? DEFAULT_CURRENCY,
    due_date: event.due_date ?? '',
    reference_number: event.reference_number ?? '',
  };
}

export function validateEventForm(event: EventView, form: EventForm): EventFormResult {
  const errors: EventFormErrors = {};
  const raw: Record<string, unknown> = { id: event.id };

  if (form.event_type !== event.event_type) raw.event_type = form.event_type;

  const amountRaw = form.amount.trim(),
    currencyRaw = form.currency.trim();
  if (amountRaw) {
    const value = parseAmount(amountRaw);
    if (Number.isNaN(value)) errors.amount = { key: 'meta.err.amount' };
    else {
      const sign = amountSignError(value, form.event_type);
      if (sign) errors.amount = sign;
    }
    if (!currencyRaw) errors.currency = { key: 'meta.err.amountWithoutCurrency' };
    const next = { value, currency: currencyRaw };
    if (!event.amount || event.amount.value !== value || event.amount.currency !== currencyRaw.toUpperCase())
      raw.amount = next;
  } else if (event.amount) {
    raw.amount = null; // emptied: the amount is cleared (a currency alone means nothing)
  }

  const due = form.due_date.trim();
  if (due !== (event.due_date ?? '')) raw.due_date = due || null;
  const reference = form.reference_number.trim();
  if (reference !== (event.reference_number ?? '')) raw.reference_number = reference || null;

  const parsed = eventUpdateSchema.safeParse(raw);
  if (parsed.success && Object.keys(errors).length === 0)
    return { ok: true, patch: parsed.data, changed: Object.keys(raw).length > 1 };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      if (field && !errors[field]) errors[field] = messageFor(field);
    }
    // An issue the fields above cannot name still blocks the save, on the first field.
    if (Object.keys(errors).length === 0) errors.event_type = { key: 'event.err.invalid' };
  }
  return { ok: false, errors };
}

function fieldOf(path: readonly PropertyKey[]): EventFormField | null {
  const [first, second] = path;
  if (first === 'amount') return second === 'currency' ? 'currency' : 'amount';
  if (first === 'event_type' || first === 'due_date' || first === 'reference_number') return first;
  return null;
}

function messageFor(field: EventFormField): FieldMessage {
  switch (field) {
    case 'amount':
      return { key: 'meta.err.amount' };
    case 'currency':
      return { key: 'meta.err.currency' };
    case 'due_date':
      return { key: 'meta.err.date' };
    case 'reference_number':
      return { key: 'meta.err.tooLong', params: { max: 500 } };
    case 'event_type':
      return { key: 'event.err.type' };
  }
}
