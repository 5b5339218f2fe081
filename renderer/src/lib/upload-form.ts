import {
  EVENT_TYPES,
  STATE_HINTS,
  type EventType,
  type StateHint,
  type UploadMetadata,
} from '../../../common/archive-types.ts';
import { isAbsolutePath } from '../../../common/absolute-path.ts';
import { isCalendarDate, toCalendarDate } from '../../../common/dates.ts';
import { MAX_METADATA_TAGS, MAX_TEXT_FIELD, validateUploadMetadata } from '../../../common/upload-metadata.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';

/** The metadata form as the user typed it: every field a string, empty = not given. */
export interface MetadataForm {
  event_type: string;
  state_hint: string;
  amount: string;
  currency: string;
  sender_name: string;
  document_date: string;
  due_date: string;
  paid_at: string;
  reference_number: string;
  tags: string;
  category: string;
  title: string;
}

export type FormField = keyof MetadataForm;
/** A message to show next to a field (or a form): its key and the numbers it names. */
export interface FieldMessage {
  key: MessageKey;
  params?: Record<string, number>;
}
export type FormErrors = Partial<Record<FormField, FieldMessage>>;

export function emptyForm(): MetadataForm {
  return {
    event_type: '',
    state_hint: '',
    amount: '',
    currency: '',
    sender_name: '',
    document_date: '',
    due_date: '',
    paid_at: '',
    reference_number: '',
    tags: '',
    category: '',
    title: '',
  };
}

export function formFromMetadata(metadata: UploadMetadata | undefined): MetadataForm {
  const form = emptyForm();
  if (!metadata) return form;
  return {
    ...form,
    event_type: metadata.event_type ?? '',
    state_hint: metadata.state_hint ?? '',
    amount: metadata.amount ? String(metadata.amount.value) : '',
    currency: metadata.amount?.currency ?? '',
    sender_name: metadata.sender_name ?? '',
    document_date: metadata.document_date ?? '',
    due_date: metadata.due_date ?? '',
    paid_at: metadata.paid_at ?? '',
    reference_number: metadata.reference_number ?? '',
    tags: (metadata.tags ?? []).join(', '),
    category: metadata.category ?? '',
    title: metadata.title ?? '',
  };
}

export function splitTags(raw: string): string[] {
  const tags = raw
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  return [...new Map(tags.map((t) => [t.toLowerCase(), t])).values()];
}

/** "89,50", "89.50", "1.234,56" and "1,234.56" all parse; anything else is NaN. */
export function parseAmount(raw: string): number {
  const s = raw.trim().replace(/\s/g, '');
  if (!/^-?[\d.,]+$/.test(s)) return Number.NaN;
  const lastComma = s.lastIndexOf(','),
    lastDot = s.lastIndexOf('.');
  let normalised: string;
  if (lastComma > lastDot) normalised = s.replace(/\./g, '').replace(',', '.');
  else normalised = s.replace(/,/g, '');
  if ((normalised.match(/\./g) ?? []).length > 1) return Number.NaN;
  const n = Number(normalised);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** What an empty currency field stands for (its placeholder shows it), so an amount alone is enough. */
export const DEFAULT_CURRENCY = 'EUR';

/**
 * An amount of zero or less is a typing slip, except on a credit note (money coming back; the service stores it
 * negative whichever sign it was given).
 */
export function amountSignError(value: number, eventType: string): FieldMessage | null {
  return value <= 0 && eventType !== 'credit_note' ? { key: 'meta.err.amountPositive' } : null;
}

export type FormResult = { ok: true; metadata: UploadMetadata | undefined } | { ok: false; errors: FormErrors };

/**
 * Validates the form field by field with the spec's rules (the same schema the service applies), so errors show
 * next to the field instead of as one message from the service after the upload.
 */
export function validateForm(form: MetadataForm): FormResult {
  const errors: FormErrors = {};
  const metadata: UploadMetadata = {};
  const text = (field: 'sender_name' | 'reference_number' | 'category' | 'title', max = MAX_TEXT_FIELD) => {
    const value = form[field].trim();
    if (!value) return;
    if (value.length > max) errors[field] = { key: 'meta.err.tooLong', params: { max } };
    else metadata[field] = value;
  };
  if (form.event_type) {
    if ((EVENT_TYPES as readonly string[]).includes(form.event_type))
      metadata.event_type = form.event_type as EventType;
  }
  if (form.state_hint) {
    if ((STATE_HINTS as readonly string[]).includes(form.state_hint))
      metadata.state_hint = form.state_hint as StateHint;
  }
  const amountRaw = form.amount.trim(),
    currencyRaw = form.currency.trim() || DEFAULT_CURRENCY;
  if (amountRaw || form.currency.trim()) {
    const value = parseAmount(amountRaw);
    if (!amountRaw) errors.amount = { key: 'meta.err.currencyWithoutAmount' };
    else if (Number.isNaN(value)) errors.amount = { key: 'meta.err.amount' };
    else {
      const sign = amountSignError(value, form.event_type);
      if (sign) errors.amount = sign;
    }
    if (!/^[A-Za-z]{3}$/.test(currencyRaw)) errors.currency = { key: 'meta.err.currency' };
    if (!errors.amount && !errors.currency) metadata.amount = { value, currency: currencyRaw.toUpperCase() };
  }
  text('sender_name');
  text('reference_number');
  text('category', 200);
  text('title');
  if (form.document_date.trim()) {
    const v = form.document_date.trim();
    if (toCalendarDate(v) === null) errors.document_date = { key: 'meta.err.date' };
    else metadata.document_date = v;
  }
  for (const field of ['due_date', 'paid_at'] as const) {
    const v = form[field].trim();
    if (!v) continue;
    if (!isCalendarDate(v)) errors[field] = { key: 'meta.err.date' };
    else metadata[field] = v;
  }
  const tags = splitTags(form.tags);
  if (tags.length > MAX_METADATA_TAGS) errors.tags = { key: 'meta.err.tooManyTags' };
  else if (tags.some((tag) => tag.length > 100)) errors.tags = { key: 'meta.err.tagTooLong' };
  else if (tags.length > 0) metadata.tags = tags;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (Object.keys(metadata).length === 0) return { ok: true, metadata: undefined };
  // The contract's own schema is the last word; the field checks above only make its errors friendlier.
  const checked = validateUploadMetadata(metadata);
  if (!checked.ok)
    return { ok: false, errors: { title: { key: 'meta.err.tooLong', params: { max: MAX_TEXT_FIELD } } } };
  return { ok: true, metadata: checked.value };
}

/** Paths typed one per line; each must be absolute (POSIX, a Windows drive or a UNC share). */
export function parsePaths(raw: string): { ok: true; paths: string[] } | ({ ok: false } & FieldMessage) {
  const lines = raw.split(/\r?\n/).map((l) => l.trim());
  const paths: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    if (!isAbsolutePath(line)) return { ok: false, key: 'uploads.pathsAbsolute', params: { line: i + 1 } };
    paths.push(line);
  }
  if (paths.length === 0) return { ok: false, key: 'uploads.pathsRequired' };
  return { ok: true, paths };
}
