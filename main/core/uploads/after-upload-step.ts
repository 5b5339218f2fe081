import { afterUploadSummary } from '../../../common/after-upload-summary.ts';
import { errorMessage } from '../../../common/errors.ts';
import type { WatchedFolder } from '../../../common/settings.ts';
import type { AfterUploadResult, UploadedFile } from '../watcher/after-upload.ts';
import type { UploadItem } from './journal-store.ts';

/**
 * Runs a watched folder's after-upload action for an accepted item and sums it up for the row: a failed action is
 * recorded, never thrown, as the upload itself succeeded.
 */
export async function runAfterUploadAction(
  afterUpload: (folder: WatchedFolder, file: UploadedFile) => Promise<AfterUploadResult>,
  folder: WatchedFolder,
  item: UploadItem,
  log: (line: string) => void,
): Promise<{ summary: string; lastError: string | null }> {
  try {
    const result = await afterUpload(folder, {
      path: item.path,
      relativePath: item.relative_path,
      size: item.size,
      mtimeMs: item.mtime_ms,
    });
    const summary =
      result.outcome !== 'done'
        ? afterUploadSummary('notDone', { action: result.action, reason: result.message })
        : result.action === 'move'
          ? afterUploadSummary('moved', { destination: result.destination })
          : afterUploadSummary(result.action === 'delete' ? 'deleted' : 'kept');
    if (result.action !== 'keep') log(`${summary}: ${item.path}`);
    return { summary, lastError: null };
  } catch (error) {
    const lastError = errorMessage(error);
    log(`after-upload action failed: ${item.path}: ${lastError}`);
    return {
      summary: afterUploadSummary('failed', { action: folder.after_upload.action, reason: lastError }),
      lastError,
    };
  }
}
