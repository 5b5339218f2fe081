import type { WatchedFolder } from '../../../common/settings.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';
import type { Params } from '../../../common/i18n/translate.ts';

export interface Line {
  key: MessageKey;
  params: Params;
}

/** What step 3 of the welcome guide says happens to a new file of the folder: its after-upload action decides. */
export function folderLine(folder: Pick<WatchedFolder, 'path' | 'after_upload'>): Line {
  const action = folder.after_upload;
  switch (action.action) {
    case 'keep':
      return { key: 'welcome.step3Keep', params: { path: folder.path } };
    case 'move':
      return { key: 'welcome.step3Move', params: { path: folder.path, to: action.to } };
    case 'delete':
      return { key: 'welcome.step3Delete', params: { path: folder.path } };
  }
}

/** Where the files end up: the hosted service's URL, or the local archive's directory when the app knows it. */
export function destinationLine(
  mode: 'local' | 'hosted',
  baseUrl: string,
  archiveDir: string | null | undefined,
): Line {
  if (mode === 'hosted') return { key: 'welcome.step3Hosted', params: { url: baseUrl } };
  return archiveDir
    ? { key: 'welcome.step3LocalAt', params: { path: archiveDir } }
    : { key: 'welcome.step3Local', params: {} };
}
