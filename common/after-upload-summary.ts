import { templateReader, templateWriter, type ReadMessage } from './message-templates.ts';

/**
 * What a watched folder's after-upload action did with an uploaded file, as the upload queue's row records it
 * (`after_upload`) and the Uploads screen shows it in the UI's language. `reason` is one of the file problems
 * (common/file-problems.ts): why nothing was done, or why the action failed.
 */
export const AFTER_UPLOAD_TEMPLATES = {
  kept: 'kept',
  deleted: 'deleted',
  moved: 'moved to {destination}',
  failed: '{action} failed: {reason}',
  notDone: '{action}: {reason}',
} as const;

export type AfterUploadKind = keyof typeof AFTER_UPLOAD_TEMPLATES;

export const afterUploadSummary = templateWriter(AFTER_UPLOAD_TEMPLATES);

export const readAfterUploadSummary: (summary: string) => ReadMessage<AfterUploadKind> | null = templateReader(
  AFTER_UPLOAD_TEMPLATES,
  { patterns: { action: 'keep|move|delete' } },
);
