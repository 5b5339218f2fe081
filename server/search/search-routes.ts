import { z } from 'zod';
import type { SearchHit } from '../../common/archive-types.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { canRead, spaceFilter } from '../auth/access.ts';
import { DOCUMENT_SELECT, toDocument, type DocumentRow } from '../documents/document-rows.ts';
import { HttpError } from '../http/http-error.ts';
import { readJsonBody, zodMessage } from '../http/json-body.ts';
import type { RequestContext, Route } from '../http/router.ts';
import { toFtsQuery } from './fts-query.ts';

const searchSchema = z.strictObject({
  query: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(500, { error: 'at most 500 characters' }),
  limit: z.number({ error: 'must be an integer from 1 to 100' }).int({ error: 'must be an integer from 1 to 100' })
    .min(1, { error: 'must be an integer from 1 to 100' }).max(100, { error: 'must be an integer from 1 to 100' }).default(20),
  space_id: z.uuid({ error: 'must be a uuid' }).optional(),
}, { error: 'body must be a JSON object { query, limit }' });

// Markers from Unicode's private use area cannot occur in extracted text, so escaping around them is safe.
const OPEN = '\uE000', CLOSE = '\uE001';

/** POST /v1/search: BM25-ranked full text over title, text, sender and tags, with an HTML-safe snippet. */
async function search(ctx: RequestContext) {
  const parsed = searchSchema.safeParse(await readJsonBody(ctx.req));
  if (!parsed.success) throw new HttpError(400, zodMessage(parsed.error));
  const { query, limit } = parsed.data;
  // Ids are stored lower case; z.uuid() accepts either case.
  const spaceId = parsed.data.space_id?.toLowerCase();
  const match = toFtsQuery(query);
  if (!match) return { status: 200, body: { success: true, items: [], total: 0, limit, query } };
  const spaces = spaceFilter(ctx.principal, 'd.space_id');
  const where = ['documents_fts MATCH ?', 'd.deleted_at IS NULL', spaces.sql];
  const args: Array<string | number> = [match, ...spaces.params];
  if (spaceId) {
    if (!canRead(ctx.principal, spaceId)) throw new HttpError(403, ErrorMessage.spaceDenied);
    where.push('d.space_id = ?');
    args.push(spaceId);
  }
  const { db } = ctx.service;
  const hits = db.prepare(`
    SELECT d.id, bm25(documents_fts, 10.0, 1.0, 5.0, 5.0) AS rank,
      snippet(documents_fts, -1, '${OPEN}', '${CLOSE}', '…', 24) AS snippet
    FROM documents_fts JOIN documents d ON d.rowid = documents_fts.rowid
    WHERE ${where.join(' AND ')} ORDER BY rank LIMIT ?`).all(...args, limit) as Array<{ id: string; rank: number; snippet: string }>;
  const total = (db.prepare(`SELECT count(*) AS n FROM documents_fts JOIN documents d ON d.rowid = documents_fts.rowid
    WHERE ${where.join(' AND ')}`).get(...args) as { n: number }).n;
  const byId = db.prepare(`${DOCUMENT_SELECT} WHERE d.id = ?`);
  const items: SearchHit[] = hits.map((hit) => ({
    document: toDocument(byId.get(hit.id) as unknown as DocumentRow),
    // bm25() is lower-is-better and negative; flip it so a higher score means a better match.
    score: Math.round(-hit.rank * 1000) / 1000,
    snippet: highlight(hit.snippet),
  }));
  return { status: 200, body: { success: true, items, total, limit, query } };
}

function highlight(snippet: string): string {
  const escaped = snippet.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return escaped.replaceAll(OPEN, '<mark>').replaceAll(CLOSE, '</mark>');
}

export const searchRoutes: Route[] = [{ method: 'POST', path: '/v1/search', scope: 'search', handler: search }];
