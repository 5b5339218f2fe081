import type { EventType, UploadMetadata } from '../../common/archive-types.ts';
import type { Sql } from '../db/sql.ts';
import { findDocumentRow, reindexDocument, senderIdFor } from '../documents/document-rows.ts';
import { redecideEventAfterEdit, writeDocumentEvent } from './event-writer.ts';
import { addEditedFields, eventEditKey, MAIN_EVENT } from './hand-edits.ts';

/**
 * Corrections a person makes to who sent a document and what kind of document it is, shared by PATCH
 * /v1/documents/{id} and PATCH /v1/events/{id}. The caller records the edited names and refreshes the overlay.
 */

/** The sender of the document and of its main event; null clears it. */
export async function setSenderByHand(db: Sql, documentId: string, name: string | null, now: string): Promise<void> {
  const senderId = name ? await senderIdFor(db, documentId, name, now) : null;
  await db.run('UPDATE documents SET sender_id = ?, updated_at = ? WHERE id = ?', senderId, now, documentId);
  await db.run(
    `UPDATE events SET sender_id = ?, updated_at = ? WHERE document_id = ? AND purpose = '${MAIN_EVENT}'`,
    senderId,
    now,
    documentId,
  );
  await reindexDocument(db, documentId);
}

/**
 * The document's type: its main event's type, the event made when the document had none (a letter the person says is
 * an invoice). The state is decided again from the event's facts, as after PATCH /v1/events/{id}.
 */
export async function setDocumentTypeByHand(db: Sql, documentId: string, type: EventType, now: string): Promise<void> {
  const event = await db.get<{ id: string }>(
    `SELECT id FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}' ORDER BY created_at LIMIT 1`,
    documentId,
  );
  if (event) {
    await db.run('UPDATE events SET event_type = ?, updated_at = ? WHERE id = ?', type, now, event.id);
    await addEditedFields(db, documentId, [eventEditKey('event_type')]);
    await redecideEventAfterEdit(db, event.id);
    return;
  }
  const row = (await findDocumentRow(db, documentId))!;
  await writeDocumentEvent(db, documentId, {
    eventType: type,
    title: row.title,
    amount: null,
    dueDate: null,
    referenceNumber: null,
    senderName: row.sender_name,
    metadata: row.metadata ? (JSON.parse(row.metadata) as UploadMetadata) : null,
  });
  await addEditedFields(db, documentId, [eventEditKey('event_type')]);
}
