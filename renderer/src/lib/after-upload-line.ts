import { readAfterUploadSummary } from '../../../common/after-upload-summary.ts';
import { readFileProblem } from '../../../common/file-problems.ts';
import { knownMessage, type Translate } from '../../../common/i18n/known-messages.ts';

export interface AfterUploadLine {
  text: string;
  /** The journal's English, for a support request; null where the text says all. */
  detail: string | null;
  /** A warning when the folder's action left the file where it was. */
  warn: boolean;
}

/**
 * The line under an uploaded file of a watched folder: where it was moved, that it was deleted, or why it is still in
 * the folder. Nothing for a kept file (the folder's default), nor for one already gone when the action ran (a
 * repeated action after a restart finds it moved).
 */
export function afterUploadLine(summary: string | null, path: string, t: Translate): AfterUploadLine | null {
  const read = summary === null ? null : readAfterUploadSummary(summary);
  if (!read || read.kind === 'kept') return null;
  if (read.kind === 'moved') return { text: t('uploads.after.moved', read.params), detail: null, warn: false };
  if (read.kind === 'deleted') return { text: t('uploads.after.deleted'), detail: null, warn: false };
  const reason = read.params.reason!;
  if (read.kind === 'notDone' && readFileProblem(reason, path)?.kind === 'notFound') return null;
  const shown = knownMessage(reason, t, path);
  return { text: shown.text, detail: shown.detail, warn: true };
}
