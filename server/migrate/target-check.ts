import type { Sql } from '../db/sql.ts';
import { quoteIdentifier, type SourceArchive } from './source-archive.ts';
import type { TablePlan } from './table-plan.ts';

export class DifferentArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DifferentArchiveError';
  }
}

/** The setting that signs download links (server/archive-service.ts): an archive's links are valid only with it. */
const DOWNLOAD_SECRET = 'download_secret';

/**
 * Decides whether the target database may receive the source archive: 'fresh' (a new database, whose schema
 * migration made a default space of its own, removed here so the source's takes its place) or 'same' (this archive,
 * copied in part or whole before: the copy resumes). A database holding another archive is refused: merging two
 * archives would clash on the default space, the download secret (links of one would stop working) and names.
 */
export async function prepareTarget(target: Sql, source: SourceArchive, plan: TablePlan): Promise<'fresh' | 'same'> {
  const sourceSecret = source.setting(DOWNLOAD_SECRET);
  const targetSecret = (
    await target.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', DOWNLOAD_SECRET)
  )?.value;
  if (sourceSecret !== null && targetSecret !== undefined && sourceSecret !== targetSecret) {
    throw refusal('its download secret differs from the source archive’s');
  }
  const sourceSpace = source.defaultSpaceId();
  const targetSpace = (await target.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))?.id ?? null;
  if (targetSpace !== null && targetSpace === sourceSpace) return 'same';
  const used = await tablesInUse(target, plan, targetSpace);
  if (used.length > 0) {
    throw refusal(
      targetSpace === null
        ? `it has rows in ${used.join(', ')}`
        : `its default space is ${targetSpace}, the source's is ${sourceSpace}, and it has rows in ${used.join(', ')}`,
    );
  }
  if (targetSpace !== null) await target.run('DELETE FROM spaces WHERE id = ?', targetSpace);
  return 'fresh';
}

/** Tables of the plan with rows, not counting the default space a new database starts with. */
async function tablesInUse(target: Sql, plan: TablePlan, newDatabaseSpace: string | null): Promise<string[]> {
  const used: string[] = [];
  for (const { table } of plan.copies) {
    const skip = table === 'spaces' && newDatabaseSpace !== null;
    const row = await target.get(
      `SELECT 1 AS used FROM ${quoteIdentifier(table)}${skip ? ' WHERE id <> ?' : ''} LIMIT 1`,
      ...(skip ? [newDatabaseSpace] : []),
    );
    if (row) used.push(table);
  }
  return used;
}

function refusal(why: string): DifferentArchiveError {
  return new DifferentArchiveError(
    `The target database already holds a different archive (${why}). Archives are not merged: migrate into a new, ` +
      'empty database',
  );
}
