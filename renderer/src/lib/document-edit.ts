import { documentUpdateSchema, type CallInput, type CallOutput, type DocumentView } from '../../../common/ipc.ts';
import { documentType } from './document-type.ts';
import type { FieldMessage } from './upload-form.ts';

/**
 * Correcting documents: the Document screen's edit form and the library's bulk edit, turned into bodies of
 * `documents.update` (PATCH /v1/documents/{id}). Only fields that differ are sent: each one sent becomes a hand edit
 * the service keeps across reprocessing and learns from, so an untouched field must stay the extraction's. The
 * contract's schema decides what is valid (the service's rules); its issues become messages next to the fields.
 */

type Detail = CallOutput<'documents.get'>;
export type DocumentPatch = CallInput<'documents.update'>;

export interface DocumentForm {
  title: string;
  sender_name: string;
  document_date: string;
  category_id: string;
  /** '' while the document has no type (the service cannot clear one, only set it). */
  event_type: string;
  tags: string[];
}

export type DocumentFormField = keyof DocumentForm;
export type DocumentFormErrors = Partial<Record<DocumentFormField, FieldMessage>>;
export type PatchResult =
  { ok: true; patch: DocumentPatch; changed: boolean } | { ok: false; errors: DocumentFormErrors };

export const MAX_DOCUMENT_TAGS = 50;

export function formFromDocument(doc: Detail): DocumentForm {
  return {
    title: doc.title,
    sender_name: doc.sender_name ?? '',
    document_date: doc.document_date ?? '',
    category_id: doc.category_id ?? '',
    event_type: documentType(doc) ?? '',
    tags: [...doc.tags],
  };
}

/** Tag names as the service keeps them: trimmed, none twice (case-insensitive), the first spelling kept. */
export function normalTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}

const sameTags = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().every((tag, i) => tag === [...b].sort()[i]);

/** The Document screen's form: the fields that changed, validated. */
export function documentPatch(doc: Detail, form: DocumentForm): PatchResult {
  const raw: Record<string, unknown> = { id: doc.id };
  const title = form.title.trim();
  if (title !== doc.title) raw.title = title;
  const sender = form.sender_name.trim();
  if (sender !== (doc.sender_name ?? '')) raw.sender_name = sender || null;
  const date = form.document_date.trim();
  if (date !== (doc.document_date ?? '')) raw.document_date = date || null;
  if (form.category_id !== (doc.category_id ?? '')) raw.category_id = form.category_id || null;
  if (form.event_type && form.event_type !== (documentType(doc) ?? '')) raw.event_type = form.event_type;
  const tags = normalTags(form.tags);
  if (!sameTags(tags, doc.tags)) raw.tags = tags;
  return checked(raw);
}

/**
 * The bulk edit's form: a field left empty changes nothing (`keep`); tags are added and removed, not replaced, so each
 * document keeps the ones it has.
 */
export interface BulkForm {
  sender_name: string;
  document_date: string;
  /** '' keeps each document's; CLEAR removes it. */
  category_id: string;
  event_type: string;
  add_tags: string[];
  remove_tags: string[];
}

export const CLEAR = '-';

export function emptyBulkForm(): BulkForm {
  return { sender_name: '', document_date: '', category_id: '', event_type: '', add_tags: [], remove_tags: [] };
}

/** Whether the bulk form asks for any change at all. */
export function bulkChanges(form: BulkForm): boolean {
  return !!(
    form.sender_name.trim() ||
    form.document_date.trim() ||
    form.category_id ||
    form.event_type ||
    normalTags(form.add_tags).length ||
    normalTags(form.remove_tags).length
  );
}

/** One document's body of a bulk edit; `changed: false` when the document already is as asked. */
export function bulkPatch(
  doc: Pick<DocumentView, 'id' | 'sender_name' | 'document_date' | 'category_id' | 'tags'>,
  form: BulkForm,
): PatchResult {
  const raw: Record<string, unknown> = { id: doc.id };
  const sender = form.sender_name.trim();
  if (sender && sender !== doc.sender_name) raw.sender_name = sender;
  const date = form.document_date.trim();
  if (date && date !== doc.document_date) raw.document_date = date;
  if (
    form.category_id === CLEAR ? doc.category_id !== null : form.category_id && form.category_id !== doc.category_id
  ) {
    raw.category_id = form.category_id === CLEAR ? null : form.category_id;
  }
  if (form.event_type) raw.event_type = form.event_type;
  const removed = new Set(normalTags(form.remove_tags).map((tag) => tag.toLowerCase()));
  const tags = normalTags([...doc.tags, ...form.add_tags]).filter((tag) => !removed.has(tag.toLowerCase()));
  if (!sameTags(tags, doc.tags)) raw.tags = tags;
  return checked(raw);
}

function checked(raw: Record<string, unknown>): PatchResult {
  const parsed = documentUpdateSchema.safeParse(raw);
  if (parsed.success) return { ok: true, patch: parsed.data, changed: Object.keys(raw).length > 1 };
  const errors: DocumentFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (
      field === 'title' ||
      field === 'sender_name' ||
      field === 'document_date' ||
      field === 'category_id' ||
      field === 'event_type' ||
      field === 'tags'
    )
      errors[field] ??= messageFor(field, issue.path.length > 1, issue.code === 'too_small');
  }
  if (Object.keys(errors).length === 0) errors.title = { key: 'event.err.invalid' };
  return { ok: false, errors };
}

/** `empty`: the schema's minimum was missed, which for a title means there is none (it is trimmed first). */
function messageFor(field: DocumentFormField, oneTag: boolean, empty: boolean): FieldMessage {
  switch (field) {
    case 'title':
      return empty ? { key: 'docEdit.err.titleRequired' } : { key: 'docEdit.err.titleTooLong' };
    case 'sender_name':
      return { key: 'meta.err.tooLong', params: { max: 500 } };
    case 'document_date':
      return { key: 'meta.err.date' };
    case 'category_id':
      return { key: 'docEdit.err.category' };
    case 'event_type':
      return { key: 'event.err.type' };
    case 'tags':
      return oneTag
        ? { key: 'meta.err.tagTooLong' }
        : { key: 'docEdit.err.tooManyTags', params: { max: MAX_DOCUMENT_TAGS } };
  }
}
