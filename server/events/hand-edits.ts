import type { Amount } from '../../common/archive-types.ts';
import { jsonArrayAgg } from '../db/sql-dialect.ts';
import type { Sql } from '../db/sql.ts';

/**
 * Hand edits are remembered per document in documents.edited_fields (a JSON array of names). Document fields use
 * their name (title, document_date, category_id, tags, sender_name: the sender is shared by the document and its
 * event); the event's own fields use the prefix `event.` (v1 has at most one event per document), and `event.state`
 * marks a state a person chose by hand. Reprocessing, the sweeper and the state rules read these names so they never
 * undo a person's decision.
 */
export const EVENT_EDIT_FIELDS = ['event_type', 'amount', 'due_date', 'reference_number'] as const;
export type EventEditField = (typeof EVENT_EDIT_FIELDS)[number];

export const eventEditKey = (field: EventEditField): string => `event.${field}`;
/**
 * events.purpose of the event the `event.` names belong to. A document may also have derived events (a contract's
 * notice deadline, server/events/notice-deadline.ts) that follow the main one and are never edited by hand.
 */
export const MAIN_EVENT = 'main';
/** The event's current state was set by a person (POST /v1/events/{id}/state). */
export const HAND_SET_STATE = 'event.state';

export async function readEditedFields(db: Sql, documentId: string): Promise<Set<string>> {
  const row = (await db.get('SELECT edited_fields FROM documents WHERE id = ?', documentId)) as
    { edited_fields: string } | undefined;
  return new Set(row ? (JSON.parse(row.edited_fields) as string[]) : []);
}

/** Adds names to the document's edited fields (no updated_at change: the caller decides that). */
export async function addEditedFields(db: Sql, documentId: string, names: readonly string[]): Promise<Set<string>> {
  const edited = await readEditedFields(db, documentId);
  for (const name of names) edited.add(name);
  await db.run('UPDATE documents SET edited_fields = ? WHERE id = ?', JSON.stringify([...edited]), documentId);
  return edited;
}

/** An event row's amount: both columns, or none. */
export function amountOf(row: { amount_value: number | null; amount_currency: string | null }): Amount | null {
  return row.amount_value !== null && row.amount_currency
    ? { value: row.amount_value, currency: row.amount_currency }
    : null;
}

export interface ExtractedFieldValue {
  value: unknown;
  source: string;
  confidence: number;
}

/**
 * The extracted_data entries of hand-edited fields, with their current (edited) values: source "edit", confidence 1.
 * Keys follow extracted_data's names: category_id shows as `category` (its name), event fields without the prefix.
 */
export async function handEditOverlay(
  db: Sql,
  documentId: string,
  edited: ReadonlySet<string>,
): Promise<Record<string, ExtractedFieldValue>> {
  const out: Record<string, ExtractedFieldValue> = {};
  if (edited.size === 0) return out;
  const edit = (value: unknown): ExtractedFieldValue => ({ value, source: 'edit', confidence: 1 });
  const doc = (await db.get(
    `SELECT d.title, d.document_date, c.name AS category, s.name AS sender_name,
      (SELECT ${jsonArrayAgg(db.dialect, 't.name')} FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
        WHERE dt.document_id = d.id) AS tags
    FROM documents d LEFT JOIN categories c ON c.id = d.category_id LEFT JOIN senders s ON s.id = d.sender_id
    WHERE d.id = ?`,
    documentId,
  )) as
    | { title: string; document_date: string | null; category: string | null; sender_name: string | null; tags: string }
    | undefined;
  if (!doc) return out;
  if (edited.has('title')) out.title = edit(doc.title);
  if (edited.has('document_date')) out.document_date = edit(doc.document_date);
  if (edited.has('category_id')) out.category = edit(doc.category);
  if (edited.has('sender_name')) out.sender_name = edit(doc.sender_name);
  if (edited.has('tags')) out.tags = edit((JSON.parse(doc.tags) as string[]).sort((a, b) => a.localeCompare(b)));
  if (!EVENT_EDIT_FIELDS.some((f) => edited.has(eventEditKey(f)))) return out;
  const event = (await db.get(
    `SELECT event_type, amount_value, amount_currency, due_date, reference_number
    FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}' ORDER BY created_at LIMIT 1`,
    documentId,
  )) as
    | {
        event_type: string;
        amount_value: number | null;
        amount_currency: string | null;
        due_date: string | null;
        reference_number: string | null;
      }
    | undefined;
  if (!event) return out;
  const amount = amountOf(event);
  const values: Record<EventEditField, unknown> = {
    event_type: event.event_type,
    amount,
    due_date: event.due_date,
    reference_number: event.reference_number,
  };
  for (const field of EVENT_EDIT_FIELDS) if (edited.has(eventEditKey(field))) out[field] = edit(values[field]);
  return out;
}

/** Rewrites the document's extracted_data so every hand-edited field shows its edited value (source "edit"). */
export async function refreshEditOverlay(db: Sql, documentId: string): Promise<void> {
  const row = (await db.get('SELECT extracted_data FROM documents WHERE id = ?', documentId)) as
    { extracted_data: string } | undefined;
  if (!row) return;
  const extracted = {
    ...(JSON.parse(row.extracted_data) as Record<string, unknown>),
    ...(await handEditOverlay(db, documentId, await readEditedFields(db, documentId))),
  };
  await db.run('UPDATE documents SET extracted_data = ? WHERE id = ?', JSON.stringify(extracted), documentId);
}
