import type { Role } from '../../common/archive-types.ts';
import type { ApiKeyPrincipal } from './api-keys.ts';

/** Space access of a key: none, read (viewer) or write (editor). */
export function accessTo(principal: ApiKeyPrincipal, spaceId: string): Role | null {
  if (principal.spaces && !principal.spaces.has(spaceId)) return null;
  return principal.role;
}

export const canRead = (principal: ApiKeyPrincipal, spaceId: string): boolean => accessTo(principal, spaceId) !== null;
export const canWrite = (principal: ApiKeyPrincipal, spaceId: string): boolean =>
  accessTo(principal, spaceId) === 'editor';

/** SQL fragment + params restricting a `space_id` column to the key's spaces. */
export function spaceFilter(principal: ApiKeyPrincipal, column: string): { sql: string; params: string[] } {
  if (!principal.spaces) return { sql: '1 = 1', params: [] };
  const ids = [...principal.spaces];
  if (ids.length === 0) return { sql: '0 = 1', params: [] };
  return { sql: `${column} IN (${ids.map(() => '?').join(', ')})`, params: ids };
}
