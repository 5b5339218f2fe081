import { ErrorMessage } from '../../common/errors.ts';
import { canRead, canWrite } from '../auth/access.ts';
import { HttpError } from '../http/http-error.ts';
import { UUID } from '../http/query.ts';
import type { RequestContext } from '../http/router.ts';
import { findDocumentRow, type DocumentRow } from './document-rows.ts';

/** Validates a path id as a uuid (400 naming the parameter otherwise). */
export function pathId(ctx: RequestContext, name = 'id'): string {
  const id = ctx.params[name] ?? '';
  if (!UUID.test(id)) throw new HttpError(400, `Invalid parameter ${name}: expected a uuid`);
  return id.toLowerCase();
}

/**
 * The document behind `:id` if the key may see it. A document in a space the key cannot see is
 * indistinguishable from a missing one (404), so ids of other spaces leak nothing.
 */
export async function visibleDocument(ctx: RequestContext, options: { includeDeleted: boolean }): Promise<DocumentRow> {
  const row = await findDocumentRow(ctx.service.db, pathId(ctx));
  if (!row || !canRead(ctx.principal, row.space_id) || (row.deleted_at && !options.includeDeleted)) {
    throw new HttpError(404, ErrorMessage.documentNotFound);
  }
  return row;
}

/** 403 unless the key may write (editor role) in the space. */
export function requireWrite(ctx: RequestContext, spaceId: string): void {
  if (!canWrite(ctx.principal, spaceId)) throw new HttpError(403, ErrorMessage.spaceDenied);
}
