import { EventEmitter } from 'node:events';
import type { WatchedFolder } from '../../common/settings.ts';
import type { FolderStatus } from './watcher/folder-watcher.ts';

/**
 * The folders being watched and the newest status of each: the journal looks up an item's folder here (its
 * after-upload action), the watcher reports here, and the app forwards each report to the shells.
 */
export class WatchedFolders extends EventEmitter<{ status: [status: FolderStatus] }> {
  private current: WatchedFolder[];
  private readonly statuses = new Map<string, FolderStatus>();

  constructor(folders: WatchedFolder[]) {
    super();
    this.current = folders;
  }

  get list(): WatchedFolder[] {
    return this.current;
  }

  replace(folders: WatchedFolder[]): void {
    this.current = folders;
  }

  byId(id: string): WatchedFolder | undefined {
    return this.current.find((folder) => folder.id === id);
  }

  report(status: FolderStatus): void {
    this.statuses.set(status.folderId, status);
    this.emit('status', status);
  }

  latestStatuses(): FolderStatus[] {
    return [...this.statuses.values()];
  }
}
