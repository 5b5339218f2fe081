import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A local path built from a remote value would have left its base directory. */
export class UnsafePathError extends Error {
  constructor(base: string, parts: readonly string[]) {
    super(`Refused a file path outside ${base}: ${JSON.stringify(parts.join('/'))}`);
    this.name = 'UnsafePathError';
  }
}

/**
 * `base` joined with `parts`, refused unless the result lies strictly inside `base`. Every local path built from
 * something a service sent (a digest, an id, a file name) goes through here, so a value such as `../../.config/x`, an
 * absolute path or an empty name can never make the desktop write outside its own directories. The check is on the
 * path's text: the directories below `base` are the app's own, and no remote value can make them symlinks.
 */
export function resolveInside(base: string, ...parts: string[]): string {
  const root = resolve(base);
  if (parts.length === 0 || parts.some((part) => part === '' || part.includes('\0')))
    throw new UnsafePathError(root, parts);
  const target = resolve(root, ...parts);
  const below = relative(root, target);
  if (below === '' || below === '..' || below.startsWith(`..${sep}`) || isAbsolute(below)) {
    throw new UnsafePathError(root, parts);
  }
  return target;
}
