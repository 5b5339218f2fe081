import { EVENT_STATES, EVENT_TYPES } from '../../../common/archive-types.ts';
import { groupIban } from '../../../common/payment-codes.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';
import { translate, type Locale } from '../../../common/i18n/translate.ts';
import type { ExtractedField } from './format.ts';
import {
  formatDate,
  formatMoney,
  formatPercent,
  formatPeriod,
  languageName,
  PERIOD_UNITS,
  type PeriodUnit,
} from '../../../common/i18n/locale-format.ts';

/**
 * An extracted field as the Document screen shows it: its name, value and source in the UI's language and locale
 * ("Vorgangsart: Rechnung", "Betrag: 120,00 €", "Quelle: Text"), never the service's keys and codes.
 */
export interface DisplayedField {
  name: string;
  label: string;
  value: string;
  source: string;
}

const LABELS: Record<string, MessageKey> = {
  event_type: 'meta.eventType',
  state_hint: 'meta.stateHint',
  amount: 'meta.amount',
  sender_name: 'meta.sender',
  document_date: 'meta.documentDate',
  due_date: 'meta.dueDate',
  paid_at: 'meta.paidAt',
  reference_number: 'meta.reference',
  tags: 'doc.tags',
  category: 'meta.category',
  title: 'meta.title',
  language: 'doc.language',
  buyer_name: 'field.buyerName',
  ocr_confidence: 'field.ocrConfidence',
  einvoice: 'field.einvoice',
  iban: 'field.iban',
  bic: 'field.bic',
  payment_reference: 'field.paymentReference',
  contract_start: 'field.contractStart',
  contract_end: 'field.contractEnd',
  notice_period: 'field.noticePeriod',
};

const SOURCES: Record<string, MessageKey> = {
  text: 'field.source.text',
  metadata: 'field.source.metadata',
  edit: 'field.source.edit',
  filename: 'field.source.filename',
  ocr: 'field.source.ocr',
  'e-invoice': 'field.source.einvoice',
  llm: 'field.source.llm',
};

const isEventType = (v: unknown): v is (typeof EVENT_TYPES)[number] =>
  typeof v === 'string' && (EVENT_TYPES as readonly string[]).includes(v);
const isEventState = (v: unknown): v is (typeof EVENT_STATES)[number] =>
  typeof v === 'string' && (EVENT_STATES as readonly string[]).includes(v);
const isAmount = (v: unknown): v is { value: number; currency: string } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as { value?: unknown }).value === 'number' &&
  typeof (v as { currency?: unknown }).currency === 'string';
/** A length of time such as a contract's notice period: `{ count: 3, unit: 'month' }`. */
const isPeriod = (v: unknown): v is { count: number; unit: PeriodUnit } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as { count?: unknown }).count === 'number' &&
  (PERIOD_UNITS as readonly unknown[]).includes((v as { unit?: unknown }).unit);
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A field name the app has no words for, readable at least: "buyer_vat_id" → "Buyer vat id". */
export function humanFieldName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

export function fieldLabel(locale: Locale, name: string): string {
  const key = LABELS[name];
  return key ? translate(locale, key) : humanFieldName(name);
}

export function fieldSource(locale: Locale, source: string): string {
  const key = SOURCES[source];
  return key ? translate(locale, key) : source;
}

/** One value in the locale: dates, amounts, periods, event types and states, languages, shares, lists. */
export function fieldValueText(locale: Locale, name: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map((v) => fieldValueText(locale, name, v)).join(', ');
  if (isAmount(value)) return formatMoney(locale, value.value, value.currency);
  if (isPeriod(value)) return formatPeriod(locale, value.count, value.unit);
  // In groups of four as on the payment card: a narrow column wraps it between groups, not anywhere.
  if (name === 'iban' && typeof value === 'string') return groupIban(value.replace(/\s+/g, ''));
  if (name === 'event_type' && isEventType(value)) return translate(locale, `eventType.${value}`);
  if (name === 'state_hint' && isEventState(value)) return translate(locale, `eventState.${value}`);
  if (name === 'language' && typeof value === 'string')
    return value === 'und' ? translate(locale, 'field.languageUnknown') : languageName(locale, value);
  if (name === 'ocr_confidence' && typeof value === 'number') return formatPercent(locale, value);
  if (typeof value === 'string' && CALENDAR_DATE.test(value)) return formatDate(locale, value);
  if (typeof value === 'number') return value.toLocaleString(locale);
  if (typeof value === 'boolean') return translate(locale, value ? 'common.yes' : 'common.no');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function displayField(locale: Locale, field: ExtractedField): DisplayedField {
  return {
    name: field.name,
    label: fieldLabel(locale, field.name),
    value: fieldValueText(locale, field.name, field.raw),
    source: field.source === '—' ? '—' : fieldSource(locale, field.source),
  };
}
