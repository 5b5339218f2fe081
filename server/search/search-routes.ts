import { z } from 'zod';
import { uuidOf } from '../../common/archive-schemas.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { canRead } from '../auth/access.ts';
import { HttpError } from '../http/http-error.ts';
import { parseJsonBody } from '../http/json-body.ts';
import type { RequestContext, Route } from '../http/router.ts';
import { embeddingIndexFor } from './embedding-index.ts';
import { toFtsQuery } from './fts-query.ts';
import { hybridSearch } from './hybrid-search.ts';

export const searchRequestSchema = z
  .strictObject(
    {
      query: z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(500, { error: 'at most 500 characters' })
        .describe('Words to find; every word must match, as a prefix; diacritics and case are ignored.'),
      limit: z
        .number({ error: 'must be an integer from 1 to 100' })
        .int({ error: 'must be an integer from 1 to 100' })
        .min(1, { error: 'must be an integer from 1 to 100' })
        .max(100, { error: 'must be an integer from 1 to 100' })
        .default(20)
        .describe('Maximum hits returned.'),
      space_id: uuidOf('must be a uuid')
        .optional()
        .describe('Only documents of this space (403 when the key cannot see it).'),
    },
    { error: 'body must be a JSON object { query, limit }' },
  )
  .describe('A full-text search.');

/**
 * POST /v1/search: BM25 full text over title, text, sender and tags fused with vector similarity
 * (see hybrid-search.ts), with an HTML-safe snippet. `total_is_estimate` (always sent) says whether `total` was
 * counted or, for a query with more than RANK_WINDOW full-text matches, estimated.
 */
async function search(ctx: RequestContext) {
  const { query, limit, space_id: requestedSpace } = await parseJsonBody(ctx.req, searchRequestSchema);
  // Ids are stored lower case; uuidOf() accepts either case.
  const spaceId = requestedSpace?.toLowerCase();
  if (spaceId && !canRead(ctx.principal, spaceId)) throw new HttpError(403, ErrorMessage.spaceDenied);
  // No letters or digits: nothing to match lexically, and an embedding of punctuation means nothing either.
  if (!toFtsQuery(query))
    return { status: 200, body: { success: true, items: [], total: 0, total_is_estimate: false, limit, query } };
  const { db } = ctx.service;
  const { items, total, totalIsEstimate } = await hybridSearch(db, embeddingIndexFor(db), {
    query,
    limit,
    principal: ctx.principal,
    ...(spaceId ? { spaceId } : {}),
  });
  return { status: 200, body: { success: true, items, total, total_is_estimate: totalIsEstimate, limit, query } };
}

export const searchRoutes: Route[] = [
  { method: 'POST', path: '/v1/search', acceptsBody: true, scope: 'search', handler: search },
];
