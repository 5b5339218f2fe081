import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileProblem } from '../../../common/file-problems.ts';
import type { CallParsedInput } from '../../../common/ipc.ts';
import { watchedFolderSchema, type WatchedFolder } from '../../../common/settings.ts';
import { ArchiveError } from '../client/archive-error.ts';
import { listHomeFolder } from '../folder-browser.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/**
 * Watched folders, kept in the settings (the core's watcher follows them), and the system's folder picker that
 * chooses them, or the listing of the home folder a page picks from where the shell has no picker.
 */
export function folderHandlers(
  services: Pick<DesktopServices, 'core' | 'settings' | 'pickFolder' | 'homeDir'>,
): HandlersOf<'folders' | 'dialogs'> {
  const { settings } = services;
  return {
    'folders.list': async () => ({ folders: [...settings.get().folders], statuses: services.core().status().folders }),
    'folders.save': async (input) => saveFolder(settings, input),
    'folders.remove': async ({ id }) => {
      const folders = settings.get().folders;
      if (!folders.some((f) => f.id === id)) return false;
      await settings.update({ folders: folders.filter((f) => f.id !== id) });
      return true;
    },
    'folders.rescan': async ({ id }) => {
      await services.core().watcher.rescan(id);
    },
    'folders.browse': async ({ path }) => listHomeFolder(services.homeDir, path),

    'dialogs.pickFolder': async ({ title }) => {
      const pickFolder = services.pickFolder;
      if (!pickFolder) return { path: null, supported: false };
      return { path: await pickFolder(title), supported: true };
    },
  };
}

/** Adds or replaces a folder once it exists, is a folder, is not watched already and does not move files into itself. */
async function saveFolder(settings: SettingsStore, input: CallParsedInput<'folders.save'>): Promise<WatchedFolder> {
  const folder = watchedFolderSchema.parse({ ...input, id: input.id ?? randomUUID(), path: resolve(input.path) });
  const info = await stat(folder.path).catch(() => null);
  if (!info) throw new ArchiveError(fileProblem('folderNotFound', { path: folder.path }), { status: 400 });
  if (!info.isDirectory()) throw new ArchiveError(fileProblem('notAFolder', { path: folder.path }), { status: 400 });
  if (folder.after_upload.action === 'move' && resolve(folder.after_upload.to) === folder.path) {
    throw new ArchiveError(fileProblem('moveTargetIsFolder'), { status: 400 });
  }
  const others = settings.get().folders.filter((f) => f.id !== folder.id);
  if (others.some((f) => f.path === folder.path))
    throw new ArchiveError(fileProblem('folderWatched', { path: folder.path }), { status: 400 });
  await settings.update({ folders: [...others, folder] });
  return folder;
}
