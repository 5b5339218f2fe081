import type { EventType, UploadMetadata } from '../../common/archive-types.ts';
import { toCalendarDate } from '../../common/dates.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import {
  categoryIdFor,
  findDocumentRow,
  reindexDocument,
  senderIdFor,
  setDocumentTags,
} from '../documents/document-rows.ts';
import { writeDocumentEvent } from '../events/event-writer.ts';
import { CONTRACT_TERM_FIELDS, isNoticePeriod } from '../intelligence/contract-terms.ts';
import { handEditOverlay } from '../events/hand-edits.ts';
import { withLearnedFields } from '../learning/apply-learning.ts';
import type { Analysis } from './analysis.ts';
import { joinProcessingNotes, processingMessage } from '../../common/processing-messages.ts';

/**
 * Writes an analysis to its document in one transaction. Precedence per field: a hand edit (kept across
 * reprocessing), then upload metadata, then what the pipeline extracted. Tags and the space are never touched
 * by reprocessing once the document has some (see below). extracted_data shows hand-edited fields with source "edit".
 * Deferred durability: the analysis is derived from the durably stored file and metadata, and a result lost to a
 * power cut is made again by the requeued job.
 */
export async function applyAnalysis(
  db: Sql,
  documentId: string,
  extractedAnalysis: Analysis,
  firstRun: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findDocumentRow(tx, documentId);
    if (!row) return;
    // What a person taught for this sender ranks above the rules, below metadata and hand edits (picked below).
    const analysis = await withLearnedFields(tx, documentId, row.space_id, extractedAnalysis);
    const meta = row.metadata ? (JSON.parse(row.metadata) as UploadMetadata) : null;
    const edited = new Set(JSON.parse(row.edited_fields) as string[]);
    const now = nowIso();
    const pick = <T>(
      field: string,
      current: T,
      fromMeta: T | undefined | null,
      extracted: T | undefined | null,
    ): T | null => (edited.has(field) ? current : (fromMeta ?? extracted ?? null));

    const title = pick('title', row.title, meta?.title, analysis.title) ?? row.title;
    const documentDate = pick(
      'document_date',
      row.document_date,
      meta?.document_date ? toCalendarDate(meta.document_date) : null,
      fieldValue<string>(analysis, 'document_date'),
    );
    const senderName = pick(
      'sender_name',
      row.sender_name,
      meta?.sender_name,
      fieldValue<string>(analysis, 'sender_name'),
    );
    const categoryName = edited.has('category_id')
      ? null
      : (meta?.category ?? fieldValue<string>(analysis, 'category'));
    const categoryId = edited.has('category_id')
      ? row.category_id
      : categoryName
        ? await categoryIdFor(tx, row.space_id, categoryName, now)
        : row.category_id;

    const extracted = { ...analysis.fields };
    if (meta) {
      for (const [key, value] of Object.entries(meta)) extracted[key] = { value, source: 'metadata', confidence: 1 };
    }
    // A hand edit wins over both: extracted_data says why the document shows what it shows.
    Object.assign(extracted, await handEditOverlay(tx, documentId, edited));

    await tx.run(
      `UPDATE documents SET status = 'completed', title = ?, document_date = ?, sender_id = ?, category_id = ?,
      content = ?, page_count = ?, language = ?, extracted_data = ?, processing_note = ?, error = NULL,
      updated_at = ?, processed_at = ? WHERE id = ?`,
      title,
      documentDate,
      senderName ? await senderIdFor(tx, documentId, senderName, now) : null,
      categoryId,
      analysis.content,
      analysis.pageCount,
      analysis.language,
      JSON.stringify(extracted),
      joinProcessingNotes(analysis.notes),
      now,
      now,
      documentId,
    );
    // Tags belong to the person once set. A document with no tags that nobody edited gets its metadata tags, whenever
    // that is (a first run that failed must not lose them), and the suggestions of its first successful analysis
    // (the first run, or a run after a failure); at most 5 in all.
    const hasTags = (JSON.parse(row.tags_json) as string[]).length > 0;
    if (!hasTags && !edited.has('tags')) {
      const suggestions = firstRun || row.error !== null ? (fieldValue<string[]>(analysis, 'tags') ?? []) : [];
      const tags = mergeTags(meta?.tags ?? [], suggestions);
      if (tags.length > 0) await setDocumentTags(tx, documentId, tags);
    }
    const dueDate = meta?.due_date ?? fieldValue<string>(analysis, 'due_date');
    // A letter asks nothing of its reader unless it names a date; the other types always make an event.
    const extractedType = fieldValue<EventType>(analysis, 'event_type');
    const eventType = meta?.event_type ?? (extractedType === 'letter' && !dueDate ? null : extractedType);

    const noticePeriod = fieldValue<unknown>(analysis, CONTRACT_TERM_FIELDS.noticePeriod);
    await writeDocumentEvent(tx, documentId, {
      eventType,
      title,
      amount: meta?.amount ?? fieldValue(analysis, 'amount'),
      dueDate,
      referenceNumber: meta?.reference_number ?? fieldValue<string>(analysis, 'reference_number'),
      senderName,
      metadata: meta,
      contractEnd: fieldValue<string>(analysis, CONTRACT_TERM_FIELDS.end),
      noticePeriod: noticePeriod === null || isNoticePeriod(noticePeriod) ? noticePeriod : null,
    });
    await reindexDocument(tx, documentId);
  }, 'deferred');
}

export async function markSkipped(db: Sql, documentId: string): Promise<void> {
  const now = nowIso();
  await db.transaction(
    async (tx) =>
      void (await tx.run(
        "UPDATE documents SET status = 'skipped', processing_note = ?, updated_at = ?, processed_at = ? WHERE id = ?",
        processingMessage('duplicate'),
        now,
        now,
        documentId,
      )),
    'deferred',
  );
}

export async function markFailed(db: Sql, documentId: string, error: string): Promise<void> {
  const now = nowIso();
  await db.transaction(
    async (tx) =>
      void (await tx.run(
        "UPDATE documents SET status = 'failed', error = ?, updated_at = ?, processed_at = ? WHERE id = ?",
        error,
        now,
        now,
        documentId,
      )),
    'deferred',
  );
}

const MAX_TAGS = 5;

function mergeTags(first: readonly string[], then: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const tag of [...first, ...then]) if (!byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
  return [...byKey.values()].slice(0, MAX_TAGS);
}

function fieldValue<T>(analysis: Analysis, name: string): T | null {
  const field = analysis.fields[name];
  return field ? (field.value as T) : null;
}
