import { z } from 'zod';
import { uuidOf } from '../../common/archive-schemas.ts';
import { DOCUMENT_SORT_FIELDS, DOCUMENT_STATUSES } from '../../common/archive-types.ts';
import { isCalendarDate } from '../../common/dates.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { canRead, canWrite, spaceFilter } from '../auth/access.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { HttpError } from '../http/http-error.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { param, parseQuery } from '../http/query.ts';
import type { RequestContext, Route } from '../http/router.ts';
import { eventPatchFields } from '../../common/event-patch.ts';
import { setDocumentTypeByHand, setSenderByHand } from '../events/document-corrections.ts';
import { afterDocumentDeleted, declareDifferentBills } from '../events/duplicate-decisions.ts';
import { refreshBillKey } from '../events/possible-duplicates.ts';
import { addEditedFields, refreshEditOverlay } from '../events/hand-edits.ts';
import { isLearnable, learnFromCorrection } from '../learning/learned-senders.ts';
import { embeddingIndexFor } from '../search/embedding-index.ts';
import { pathId, requireWrite, visibleDocument } from './document-access.ts';
import { documentListSkip, documentListTotal, type DocumentCountFilter } from './document-total.ts';
import {
  documentListOrder,
  documentSelect,
  findDocumentRow,
  reindexDocument,
  setDocumentTags,
  toDocument,
  toDocumentDetail,
  type DocumentRow,
} from './document-rows.ts';

export const MAX_BULK_REPROCESS = 50;

const LIST_QUERY = {
  limit: { parse: param.integer(1, 100), default: 50 },
  offset: { parse: param.integer(0, Number.MAX_SAFE_INTEGER), default: 0 },
  sort_by: { parse: param.oneOf(DOCUMENT_SORT_FIELDS), default: 'created_at' as const },
  sort_order: { parse: param.oneOf(['asc', 'desc'] as const), default: 'desc' as const },
  space_id: { parse: param.uuid() },
  category_id: { parse: param.uuid() },
  status: { parse: param.oneOf(DOCUMENT_STATUSES) },
  created_after: { parse: param.timestamp() },
  updated_after: { parse: param.timestamp() },
  tag: { parse: (name: string) => (raw: string) => nonEmpty(name, raw) },
  deleted: { parse: param.boolean(), default: false },
};

function nonEmpty(name: string, raw: string): string {
  if (raw.length > 100) throw new HttpError(400, `Invalid parameter ${name}: at most 100 characters`);
  return raw;
}

async function listDocuments(ctx: RequestContext) {
  const q = parseQuery(ctx.url.searchParams, LIST_QUERY);
  const where: string[] = [q.deleted ? 'd.deleted_at IS NOT NULL' : 'd.deleted_at IS NULL'];
  const args: Array<string | number> = [];
  const spaces = spaceFilter(ctx.principal, 'd.space_id');
  where.push(spaces.sql);
  args.push(...spaces.params);
  if (q.space_id) {
    if (!canRead(ctx.principal, q.space_id)) throw new HttpError(403, ErrorMessage.spaceDenied);
    where.push('d.space_id = ?');
    args.push(q.space_id);
  }
  if (q.category_id) {
    where.push('d.category_id = ?');
    args.push(q.category_id);
  }
  if (q.status) {
    where.push('d.status = ?');
    args.push(q.status);
  }
  if (q.created_after) {
    where.push('d.created_at > ?');
    args.push(q.created_after);
  }
  if (q.updated_after) {
    where.push('d.updated_at > ?');
    args.push(q.updated_after);
  }
  if (q.tag) {
    where.push(
      'd.id IN (SELECT dt.document_id FROM document_tags dt JOIN tags t ON t.id = dt.tag_id WHERE lower(t.name) = lower(?))',
    );
    args.push(q.tag);
  }
  const whereSql = where.join(' AND ');
  const order = documentListOrder(q.sort_by, q.sort_order);
  const { db } = ctx.service;
  const keyed = keyedFilter(ctx, q);
  const total = await documentListTotal(db, whereSql, args, keyed);
  const skip = q.sort_by === 'created_at' ? await documentListSkip(db, keyed, q.offset, q.sort_order === 'desc') : null;
  // The page is picked from the index alone (every list index ends in id), then only its rows are read whole, in the
  // same statement: an offset deep in the list skips index entries, not full rows with their text and tags.
  const pageWhere = skip ? `${whereSql} AND ${skip.sql}` : whereSql;
  const rows = await db.all<DocumentRow>(
    `${documentSelect(db)} WHERE d.id IN
      (SELECT d.id FROM documents d WHERE ${pageWhere} ORDER BY ${order} LIMIT ? OFFSET ?)
    ORDER BY ${order}`,
    ...args,
    ...(skip ? [skip.bound] : []),
    q.limit,
    q.offset - (skip?.skipped ?? 0),
  );
  return { status: 200, body: { success: true, items: rows.map(toDocument), total, limit: q.limit, offset: q.offset } };
}

/** The list's filters as the counts of documentListTotal key them, or null when it has any other filter. */
function keyedFilter(
  ctx: RequestContext,
  q: ReturnType<typeof parseQuery<typeof LIST_QUERY>>,
): DocumentCountFilter | null {
  if (q.category_id || q.created_after || q.updated_after || q.tag) return null;
  const spaces = q.space_id ? [q.space_id] : ctx.principal.spaces ? [...ctx.principal.spaces] : null;
  return { deleted: q.deleted, spaces, ...(q.status ? { status: q.status } : {}) };
}

export const documentPatchSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(500).optional().describe('New title (trimmed).'),
    document_date: z
      .string()
      .refine(isCalendarDate, { error: 'must be a date YYYY-MM-DD' })
      .meta({ format: 'date' })
      .nullable()
      .optional()
      .describe('YYYY-MM-DD; null clears it.'),
    category_id: uuidOf('must be a uuid')
      .nullable()
      .optional()
      .describe("A category of the document's space; null clears it."),
    tags: z
      .array(z.string().trim().min(1).max(100))
      .max(50)
      .optional()
      .describe('Replaces all tags (needs scope tags:write).'),
    sender_name: eventPatchFields.sender_name.describe(
      'The sender of the document and of its event; null clears it. Later ' +
        'documents of the same sender in the space get it (learning from corrections).',
    ),
    event_type: eventPatchFields.event_type.describe(
      "The document's type: the type of its event, or a new event of this type " + 'when it has none.',
    ),
    possible_duplicate_of: z
      .null()
      .optional()
      .describe(
        'null: this document is not the same bill as the documents its ' +
          'possible_duplicate_of named; neither is flagged for the other again.',
      ),
  })
  .describe('Hand edits. Every field is optional; each given field is remembered as edited and kept by reprocessing.');

/**
 * PATCH: hand edits. Each edited field is remembered so reprocessing keeps it, and extracted_data shows it with
 * source "edit"; a corrected sender, category or tags is learned for the sender's later documents. The event's own
 * fields (amount, due date, …) are edited with PATCH /v1/events/{id}.
 */
async function patchDocument(ctx: RequestContext) {
  const row = await visibleDocument(ctx, { includeDeleted: false });
  requireWrite(ctx, row.space_id);
  const patch = await parseJsonBody(ctx.req, documentPatchSchema);
  // Ids are stored lower case; uuidOf() accepts either case.
  if (patch.category_id) patch.category_id = patch.category_id.toLowerCase();
  if (patch.tags && !ctx.principal.scopes.has('tags:write')) throw new HttpError(403, ErrorMessage.insufficientScope);
  const { db } = ctx.service;
  if (patch.category_id) {
    const category = await db.get<{ space_id: string }>(
      'SELECT space_id FROM categories WHERE id = ?',
      patch.category_id,
    );
    if (!category || category.space_id !== row.space_id) {
      throw new HttpError(400, "Invalid parameter category_id: no such category in the document's space");
    }
  }
  // Nothing given, nothing edited: updated_at stays, so synced clients do not fetch the document again.
  const given = Object.values(patch).some((value) => value !== undefined);
  if (given) await applyDocumentPatch(db, row.id, patch);
  return {
    status: 200,
    body: { success: true, document: await toDocumentDetail(db, (await findDocumentRow(db, row.id))!) },
  };
}

/** One hand edit in one transaction: the fields, what is remembered as edited, the index and what is learned. */
async function applyDocumentPatch(db: Sql, id: string, patch: z.output<typeof documentPatchSchema>): Promise<void> {
  await db.transaction(async (tx) => {
    const edited: string[] = [];
    for (const field of ['title', 'document_date', 'category_id'] as const) {
      if (patch[field] === undefined) continue;
      await tx.run(`UPDATE documents SET ${field} = ? WHERE id = ?`, patch[field], id);
      edited.push(field);
    }
    if (patch.tags) {
      await setDocumentTags(tx, id, [...new Map(patch.tags.map((t) => [t.toLowerCase(), t])).values()]);
      edited.push('tags');
    }
    const now = nowIso();
    if (patch.sender_name !== undefined) {
      await setSenderByHand(tx, id, patch.sender_name, now);
      edited.push('sender_name');
    }
    if (patch.event_type !== undefined) await setDocumentTypeByHand(tx, id, patch.event_type, now);
    if (patch.possible_duplicate_of === null) await declareDifferentBills(tx, id, now);
    // Added to the list as it is now, not as it was read before the body arrived: an event edit that finished
    // meanwhile recorded its own names there.
    await addEditedFields(tx, id, edited);
    await tx.run('UPDATE documents SET updated_at = ? WHERE id = ?', now, id);
    await refreshEditOverlay(tx, id);
    await refreshBillKey(tx, id, now);
    await reindexDocument(tx, id);
    await learnFromCorrection(tx, id, edited.filter(isLearnable), now);
  });
  // A new title or new tags change what the document is about; a failed embedding leaves full text intact.
  await embeddingIndexFor(db)
    .index(id)
    .catch(() => undefined);
}

async function deleteDocument(ctx: RequestContext) {
  const row = await visibleDocument(ctx, { includeDeleted: true });
  requireWrite(ctx, row.space_id);
  const now = nowIso();
  const { db } = ctx.service;
  if (!row.deleted_at) {
    await db.transaction(async (tx) => {
      await tx.run('UPDATE documents SET deleted_at = ?, updated_at = ? WHERE id = ?', now, now, row.id);
      await afterDocumentDeleted(tx, row.id, now);
    });
  }
  return { status: 200, body: { success: true, id: row.id, deleted_at: row.deleted_at ?? now } };
}

async function restoreDocument(ctx: RequestContext) {
  const row = await visibleDocument(ctx, { includeDeleted: true });
  requireWrite(ctx, row.space_id);
  const { db } = ctx.service;
  if (row.deleted_at)
    await db.run('UPDATE documents SET deleted_at = NULL, updated_at = ? WHERE id = ?', nowIso(), row.id);
  return { status: 200, body: { success: true, document: toDocument((await findDocumentRow(db, row.id))!) } };
}

async function reprocessOne(ctx: RequestContext) {
  const row = await visibleDocument(ctx, { includeDeleted: false });
  requireWrite(ctx, row.space_id);
  const queued = await queueReprocess(ctx, row);
  return { status: queued ? 202 : 200, body: { success: true, id: row.id, queued, alreadyProcessing: !queued } };
}

/** Duplicates (status skipped) have no analysis of their own; reprocessing them would only skip them again. */
async function queueReprocess(ctx: RequestContext, row: DocumentRow): Promise<boolean> {
  const kind = row.duplicate_of ? 'process' : 'reprocess';
  const queued = await ctx.service.processor.jobs.enqueue(row.id, kind);
  if (queued) ctx.service.processor.notify();
  return queued;
}

export const bulkReprocessRequestSchema = z
  .strictObject(
    {
      documentIds: z
        .array(uuidOf('every entry must be a uuid'), { error: 'documentIds must be an array of uuids' })
        .min(1, { error: `documentIds must have 1 to ${MAX_BULK_REPROCESS} entries` })
        .max(MAX_BULK_REPROCESS, { error: `documentIds must have 1 to ${MAX_BULK_REPROCESS} entries` })
        .describe(`1 to ${MAX_BULK_REPROCESS} document ids; repeated ids count once.`),
    },
    { error: 'body must be a JSON object { documentIds }' },
  )
  .describe('Documents to reprocess.');

async function reprocessBulk(ctx: RequestContext) {
  const { documentIds } = await parseJsonBody(ctx.req, bulkReprocessRequestSchema);
  const result = {
    success: true as const,
    queued: [] as string[],
    skippedPending: [] as string[],
    denied: [] as string[],
    notFound: [] as string[],
  };
  for (const id of new Set(documentIds.map((i) => i.toLowerCase()))) {
    const row = await findDocumentRow(ctx.service.db, id);
    if (!row || row.deleted_at || !canRead(ctx.principal, row.space_id)) result.notFound.push(id);
    else if (!canWrite(ctx.principal, row.space_id)) result.denied.push(id);
    else if (await queueReprocess(ctx, row)) result.queued.push(id);
    else result.skippedPending.push(id);
  }
  return { status: 200, body: result };
}

export const documentRoutes: Route[] = [
  { method: 'GET', path: '/v1/documents', acceptsQuery: true, scope: 'documents:read', handler: listDocuments },
  {
    method: 'GET',
    path: '/v1/documents/:id',
    scope: 'documents:read',
    handler: async (ctx) => ({
      status: 200,
      body: {
        success: true,
        document: await toDocumentDetail(ctx.service.db, await visibleDocument(ctx, { includeDeleted: true })),
      },
    }),
  },
  { method: 'PATCH', path: '/v1/documents/:id', acceptsBody: true, scope: 'documents:write', handler: patchDocument },
  { method: 'DELETE', path: '/v1/documents/:id', scope: 'documents:write', handler: deleteDocument },
  { method: 'POST', path: '/v1/documents/:id/restore', scope: 'documents:write', handler: restoreDocument },
  {
    method: 'POST',
    path: '/v1/documents/reprocess',
    acceptsBody: true,
    scope: 'documents:write',
    handler: reprocessBulk,
  },
  { method: 'POST', path: '/v1/documents/:id/reprocess', scope: 'documents:write', handler: reprocessOne },
];

export { pathId };
