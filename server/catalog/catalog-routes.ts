import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { uuidOf } from '../../common/archive-schemas.ts';
import type { Category, KeyInfo, Role, Sender, Space, Tag } from '../../common/archive-types.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { accessTo, canRead, spaceFilter } from '../auth/access.ts';
import { inCodePointOrder } from '../db/sql-dialect.ts';
import { nowIso } from '../db/sql.ts';
import { HttpError } from '../http/http-error.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { param, parseQuery } from '../http/query.ts';
import type { RequestContext, Route } from '../http/router.ts';
import { readOcrLanguages } from './space-ocr-languages.ts';

async function listSpaces(ctx: RequestContext) {
  parseQuery(ctx.url.searchParams, {});
  const spaces = spaceFilter(ctx.principal, 'id');
  const rows = await ctx.service.db.all<{
    id: string;
    name: string;
    is_default: number;
    created_at: string;
    ocr_languages: string | null;
  }>(
    `SELECT * FROM spaces WHERE ${spaces.sql} ORDER BY is_default DESC, ${inCodePointOrder(ctx.service.db.dialect, 'name')}`,
    ...spaces.params,
  );
  const items: Space[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    is_default: r.is_default === 1,
    access: accessTo(ctx.principal, r.id) as Role,
    created_at: r.created_at,
    ocr_languages: readOcrLanguages(r.ocr_languages),
  }));
  return { status: 200, body: { success: true, items, total: items.length, limit: items.length, offset: 0 } };
}

const CATEGORY_SELECT = `SELECT c.*, (SELECT count(*) FROM documents d WHERE d.category_id = c.id AND d.deleted_at IS NULL) AS document_count
  FROM categories c`;

async function listCategories(ctx: RequestContext) {
  const q = parseQuery(ctx.url.searchParams, { space_id: { parse: param.uuid() } });
  const spaces = spaceFilter(ctx.principal, 'c.space_id');
  const where = [spaces.sql];
  const args = [...spaces.params];
  if (q.space_id) {
    if (!canRead(ctx.principal, q.space_id)) throw new HttpError(403, ErrorMessage.spaceDenied);
    where.push('c.space_id = ?');
    args.push(q.space_id);
  }
  const items = await ctx.service.db.all<Category>(
    `${CATEGORY_SELECT} WHERE ${where.join(' AND ')} ORDER BY ${inCodePointOrder(ctx.service.db.dialect, 'lower(c.name)')}`,
    ...args,
  );
  return { status: 200, body: { success: true, items, total: items.length, limit: items.length, offset: 0 } };
}

export const newCategorySchema = z
  .strictObject(
    {
      name: z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(200, { error: 'at most 200 characters' })
        .describe('Unique in the space, case-insensitive (trimmed).'),
      space_id: uuidOf('must be a uuid'),
    },
    { error: 'body must be a JSON object { name, space_id }' },
  )
  .describe('A category to create.');

async function createCategory(ctx: RequestContext) {
  const { name, space_id: requestedSpace } = await parseJsonBody(ctx.req, newCategorySchema);
  // Ids are stored lower case; uuidOf() accepts either case.
  const spaceId = requestedSpace.toLowerCase();
  const { db } = ctx.service;
  const access = accessTo(ctx.principal, spaceId);
  if (access && !(await db.get('SELECT 1 FROM spaces WHERE id = ?', spaceId)))
    throw new HttpError(404, 'Space not found');
  if (access !== 'editor') throw new HttpError(403, ErrorMessage.spaceDenied);
  if (await db.get('SELECT 1 FROM categories WHERE space_id = ? AND lower(name) = lower(?)', spaceId, name)) {
    throw new HttpError(409, ErrorMessage.categoryExists);
  }
  const id = randomUUID();
  await db.run(
    'INSERT INTO categories (id, space_id, name, created_at) VALUES (?, ?, ?, ?)',
    id,
    spaceId,
    name,
    nowIso(),
  );
  const category = (await db.get<Category>(`${CATEGORY_SELECT} WHERE c.id = ?`, id))!;
  return { status: 201, body: { success: true, category } };
}

/**
 * Tags are kept per space. A key that sees several spaces gets one entry per name (case-insensitive), counting all
 * of them, spelled as on most of its documents (ties: the spelling first used); a key of one space sees its spelling.
 */
async function listTags(ctx: RequestContext) {
  parseQuery(ctx.url.searchParams, {});
  const spaces = spaceFilter(ctx.principal, 'd.space_id');
  const items = await ctx.service.db.all<Tag>(
    `WITH per_space AS (
      SELECT t.id, t.name, count(*) AS n FROM tags t
      JOIN document_tags dt ON dt.tag_id = t.id JOIN documents d ON d.id = dt.document_id
      WHERE d.deleted_at IS NULL AND ${spaces.sql} GROUP BY t.id, t.name
    ), ranked AS (
      SELECT name, sum(n) OVER same_name AS document_count,
        row_number() OVER (PARTITION BY lower(name) ORDER BY n DESC, id) AS rank
      FROM per_space WINDOW same_name AS (PARTITION BY lower(name))
    )
    SELECT name, document_count FROM ranked WHERE rank = 1
    ORDER BY ${inCodePointOrder(ctx.service.db.dialect, 'lower(name)')}`,
    ...spaces.params,
  );
  return { status: 200, body: { success: true, items, total: items.length, limit: items.length, offset: 0 } };
}

async function listSenders(ctx: RequestContext) {
  parseQuery(ctx.url.searchParams, {});
  const spaces = spaceFilter(ctx.principal, 'd.space_id');
  // Only senders the key can see through at least one visible document. Senders are per space: a key that sees
  // several spaces may get a name once per space (each with its own id and its space_id), the oldest first.
  const items = await ctx.service.db.all<Sender>(
    `SELECT id, space_id, name, document_count, event_count FROM (SELECT s.id, s.space_id, s.name, s.created_at,
      (SELECT count(*) FROM documents d WHERE d.sender_id = s.id AND d.deleted_at IS NULL AND ${spaces.sql}) AS document_count,
      (SELECT count(*) FROM events e JOIN documents d ON d.id = e.document_id
        WHERE e.sender_id = s.id AND d.deleted_at IS NULL AND ${spaces.sql}) AS event_count
    FROM senders s) counted WHERE document_count > 0 OR event_count > 0
    ORDER BY ${inCodePointOrder(ctx.service.db.dialect, 'lower(name)')}, created_at, id`,
    ...spaces.params,
    ...spaces.params,
  );
  return { status: 200, body: { success: true, items, total: items.length, limit: items.length, offset: 0 } };
}

/** GET /v1/me: the calling key's name, role, scopes and spaces (what a client shows after "Test connection"). */
function me(ctx: RequestContext) {
  const p = ctx.principal;
  const key: KeyInfo = {
    id: p.id,
    name: p.name,
    role: p.role,
    scopes: [...p.scopes],
    spaces: p.spaces ? [...p.spaces] : null,
  };
  return { status: 200, body: { success: true, key } };
}

export const catalogRoutes: Route[] = [
  { method: 'GET', path: '/v1/spaces', acceptsQuery: true, scope: 'spaces:read', handler: listSpaces },
  { method: 'GET', path: '/v1/categories', acceptsQuery: true, scope: 'categories:read', handler: listCategories },
  { method: 'POST', path: '/v1/categories', acceptsBody: true, scope: 'categories:write', handler: createCategory },
  { method: 'GET', path: '/v1/tags', acceptsQuery: true, scope: 'tags:read', handler: listTags },
  { method: 'GET', path: '/v1/senders', acceptsQuery: true, scope: 'senders:read', handler: listSenders },
  { method: 'GET', path: '/v1/me', scope: null, handler: me },
];
