import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileProblem } from '../../common/file-problems.ts';
import type { FolderListing } from '../../common/ipc.ts';
import { ArchiveError } from './client/archive-error.ts';

/** A listing is for picking by eye: a folder with more subfolders than this is better typed. */
export const MAX_LISTED_FOLDERS = 1000;

const within = (root: string, path: string): boolean => {
  const below = relative(root, path);
  return below === '' || (below !== '..' && !below.startsWith(`..${sep}`) && !isAbsolute(below));
};

/**
 * The visible folders inside `path` (default: the home folder), for a folder picker served to a page. Only the home
 * folder and what lies below it can be listed, with links resolved first, so a page learns nothing about the rest of
 * the computer; hidden folders (a leading dot) are left out.
 */
export async function listHomeFolder(home: string, path?: string): Promise<FolderListing> {
  const root = await realpath(home);
  const asked = path === undefined ? root : resolve(root, path);
  const target = await realpath(asked).catch((error: NodeJS.ErrnoException) => {
    throw new ArchiveError(
      error.code === 'ENOENT'
        ? fileProblem('folderNotFound', { path: asked })
        : fileProblem('folderUnreadable', { path: asked, code: error.code ?? error.message }),
      { status: 400 },
    );
  });
  if (!within(root, target)) throw new ArchiveError(fileProblem('outsideHome', { home: root }), { status: 403 });
  if (!(await stat(target)).isDirectory())
    throw new ArchiveError(fileProblem('notAFolder', { path: target }), { status: 400 });
  const entries = await readdir(target, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new ArchiveError(fileProblem('folderUnreadable', { path: target, code: error.code ?? error.message }), {
      status: 400,
    });
  });
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink() && (await linkedFolderInside(root, join(target, entry.name))))
      names.push(entry.name);
  }
  names.sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
  return {
    path: target,
    parent: target === root ? null : dirname(target),
    home: root,
    folders: names.slice(0, MAX_LISTED_FOLDERS).map((name) => ({ name, path: join(target, name) })),
    truncated: names.length > MAX_LISTED_FOLDERS,
  };
}

async function linkedFolderInside(root: string, link: string): Promise<boolean> {
  try {
    const target = await realpath(link);
    return within(root, target) && (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
