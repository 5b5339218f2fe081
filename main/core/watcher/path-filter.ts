import path from 'node:path';
import { SUPPORTED_EXTENSIONS } from '../../../common/settings.ts';

/**
 * A base-name glob: `*` any run of characters (dots included), `?` one character, everything else literal.
 * Case-insensitive, because the debris we skip comes in every spelling (THUMBS.DB, Desktop.ini) and Windows and macOS
 * file systems do not distinguish them either.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

export type EntryKind = 'file' | 'dir' | 'unknown';

export type PathFilterOptions = {
  /** The watched folder, resolved. */
  root: string;
  ignore: readonly string[];
  /** Lower-case extensions without the dot; empty = every supported type. */
  fileTypes: readonly string[];
  recursive: boolean;
  /** Absolute folders whose content is never taken (move targets of after-upload actions). */
  excludedDirs: readonly string[];
};

export type PathFilter = {
  /** True when the entry must not be taken (a file) or entered (a directory). The root itself is never ignored. */
  ignores(absolutePath: string, kind: EntryKind): boolean;
};

const isOutside = (rel: string): boolean => rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);

const isInside = (parent: string, child: string): boolean => !isOutside(path.relative(parent, child));

export function createPathFilter(options: PathFilterOptions): PathFilter {
  const patterns = options.ignore.map(globToRegExp);
  const types = new Set(
    (options.fileTypes.length > 0 ? options.fileTypes : SUPPORTED_EXTENSIONS).map((t) => t.toLowerCase()),
  );
  // Only move targets below the root can ever contain our entries.
  const excluded = options.excludedDirs.filter((dir) => isInside(options.root, dir) && dir !== options.root);
  return {
    ignores(absolutePath, kind) {
      const rel = path.relative(options.root, absolutePath);
      if (rel === '') return false;
      if (isOutside(rel)) return true;
      if (excluded.some((dir) => isInside(dir, absolutePath))) return true;
      const parts = rel.split(path.sep);
      // Patterns apply to every component: a dot folder (.git, .Trash-1000) is debris as much as a dot file.
      if (parts.some((part) => patterns.some((re) => re.test(part)))) return true;
      if (kind === 'dir') return !options.recursive;
      if (kind === 'file') {
        if (!options.recursive && parts.length > 1) return true;
        return !types.has(path.extname(absolutePath).slice(1).toLowerCase());
      }
      return false;
    },
  };
}
