import { isAbsolutePath } from '../../../common/absolute-path.ts';
import { readFileProblem } from '../../../common/file-problems.ts';
import type { FieldMessage } from './upload-form.ts';

/**
 * The watched-folder form's own checks, each naming the field it is about: a message under Folder path for a wrong
 * Move to sends the user to the field that is right.
 */
export type FolderField = 'path' | 'moveTo';

export interface FolderProblem {
  field: FolderField;
  message: FieldMessage;
}

/** What keeps the folder and its move target from being sent, or null. */
export function folderPathProblem(
  path: string,
  after: 'keep' | 'move' | 'delete',
  moveTo: string,
): FolderProblem | null {
  if (!path.trim()) return { field: 'path', message: { key: 'uploads.pathsRequired' } };
  // A relative folder would be read against wherever the app was started.
  if (!isAbsolutePath(path.trim())) return { field: 'path', message: { key: 'common.fullPath' } };
  if (after === 'move' && !isAbsolutePath(moveTo.trim()))
    return { field: 'moveTo', message: { key: 'common.fullPath' } };
  return null;
}

/** The field a refusal of `folders.save` is about: the move target's own problem under Move to, the rest the folder's. */
export function refusedField(message: string): FolderField {
  return readFileProblem(message)?.kind === 'moveTargetIsFolder' ? 'moveTo' : 'path';
}
