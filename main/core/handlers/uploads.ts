import { resolve } from 'node:path';
import { fileProblem } from '../../../common/file-problems.ts';
import { DEFAULT_IGNORE_PATTERNS } from '../../../common/settings.ts';
import { ArchiveError } from '../client/archive-error.ts';
import { statDropped } from '../uploads/dropped-files.ts';
import { createPathFilter } from '../watcher/path-filter.ts';
import { walkFiles } from '../watcher/walk.ts';
import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/** The upload queue (the journal of the running core): its items, files dropped on the app, pausing the whole queue. */
export function uploadHandlers(services: Pick<DesktopServices, 'core' | 'settings'>): HandlersOf<'uploads'> {
  const journal = () => services.core().journal;
  return {
    'uploads.list': async (query) => journal().list(query),
    'uploads.add': async ({ paths, space_id, metadata }) => {
      const files = await expandDrop(paths);
      if (files.length === 0) throw new ArchiveError(fileProblem('noSupportedFiles'), { status: 400 });
      return journal().addFiles(files, { spaceId: space_id, metadata });
    },
    'uploads.retry': async ({ id }) => journal().retry(id) ?? null,
    'uploads.pauseItem': async ({ id }) => journal().pauseItem(id) ?? null,
    'uploads.remove': async ({ id }) => journal().remove(id),
    // Paused is a setting: the core follows it, and it holds across restarts.
    'uploads.pause': async () => {
      await services.settings.update({ uploads: { paused: true } });
    },
    'uploads.resume': async () => {
      await services.settings.update({ uploads: { paused: false } });
    },
    'uploads.counts': async () => journal().counts(),
  };
}

/** Dropped paths: files as they are, folders expanded to their supported files (debris skipped, like a watched folder). */
async function expandDrop(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const raw of paths) {
    const path = resolve(raw);
    const info = await statDropped(path);
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const filter = createPathFilter({
      root: path,
      ignore: DEFAULT_IGNORE_PATTERNS,
      fileTypes: [],
      recursive: true,
      excludedDirs: [],
    });
    for await (const file of walkFiles(path, filter, () => undefined)) files.push(file.path);
  }
  return files;
}
