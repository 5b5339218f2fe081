import type { UploadRequest } from '../client/archive-client.ts';
import type { UploadItem } from './journal-store.ts';

/** Progress events at most every this many ms (and always the last one): a fast upload must not flood the renderer. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * The one upload of a journal row. One attempt only: the journal retries on its own schedule, with the row's state
 * committed between attempts.
 */
export function uploadRequest(
  item: UploadItem,
  signal: AbortSignal,
  now: () => number,
  onProgress: (sent: number, total: number) => void,
): UploadRequest {
  let lastProgress = 0;
  return {
    path: item.path,
    fileName: item.file_name,
    size: item.size,
    spaceId: item.space_id ?? undefined,
    metadata: item.metadata,
    signal,
    maxAttempts: 1,
    onProgress: (sent, total) => {
      const at = now();
      if (sent === total || at - lastProgress >= PROGRESS_INTERVAL_MS) {
        lastProgress = at;
        onProgress(sent, total);
      }
    },
  };
}
