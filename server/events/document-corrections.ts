import type { EventType, UploadMetadata } from '../../common/archive-types.ts';
import type { Database } from '../db/database.ts';
import { findDocumentRow, reindexDocument, senderIdFor } from '../documents/document-rows.ts';
import { redecideEventAfterEdit, writeDocumentEvent } from './event-writer.ts';
import { addEditedFields, eventEditKey, MAIN_EVENT } from './hand-edits.ts';

/**
 * Corrections a person makes to who sent a document and what kind of document it is, shared by PATCH
 * /v1/documents/{id} and PATCH /v1/events/{id}. The caller records the edited names and refreshes the overlay.
 */

/** The sender of the document and of its main event; null clears it. */
export function setSenderByHand(db: Database, documentId: string, name: string | null, now: string): void {
  const senderId = name ? senderIdFor(db, documentId, name, now) : null;
  db.prepare('UPDATE documents SET sender_id = ?, updated_at = ? WHERE id = ?').run(senderId, now, documentId);
  db.prepare(`UPDATE events SET sender_id = ?, updated_at = ? WHERE document_id = ? AND purpose = '${MAIN_EVENT}'`).run(
    senderId,
    now,
    documentId,
  );
  reindexDocument(db, documentId);
}

/**
 * The document's type: its main event's type, the event made when the document had none (a letter the person says is
 * an invoice). The state is decided again from the event's facts, as after PATCH /v1/events/{id}.
 */
export function setDocumentTypeByHand(db: Database, documentId: string, type: EventType, now: string): void {
  const event = db
    .prepare(`SELECT id FROM events WHERE document_id = ? AND purpose = '${MAIN_EVENT}' ORDER BY created_at LIMIT 1`)
    .get(documentId) as { id: string } | undefined;
  if (event) {
    db.prepare('UPDATE events SET event_type = ?, updated_at = ? WHERE id = ?').run(type, now, event.id);
    addEditedFields(db, documentId, [eventEditKey('event_type')]);
    redecideEventAfterEdit(db, event.id);
    return;
  }
  const row = findDocumentRow(db, documentId)!;
  writeDocumentEvent(db, documentId, {
    eventType: type,
    title: row.title,
    amount: null,
    dueDate: null,
    referenceNumber: null,
    senderName: row.sender_name,
    metadata: row.metadata ? (JSON.parse(row.metadata) as UploadMetadata) : null,
  });
  addEditedFields(db, documentId, [eventEditKey('event_type')]);
}
