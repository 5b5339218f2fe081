import { templateReader, templateWriter, type ReadMessage } from './message-templates.ts';

/**
 * The app's own reasons for refusing or failing a file, worded once. Main writes them in English (logs, the upload
 * journal's last error, the errors of uploads.add); the UI reads them back to show them in its language
 * (common/i18n/known-messages.ts, `fileProblem.<kind>`), with the English original as the detail.
 */
export const FILE_PROBLEM_TEMPLATES = {
  notFound: 'File not found: {path}',
  gone: 'File no longer exists: {path}',
  notAFile: 'Not a file: {path}',
  /** `reason`: the system's words ("EACCES: permission denied, open …"). */
  unreadable: 'Cannot read {path}: {reason}',
  changedWhileRead: 'File changed while it was read: {path}',
  changedBeforeUpload: 'File changed before it was uploaded: {path}',
  changedWhileUploading: 'File changed while uploading: {path} (expected {expected} bytes, read {read})',
  noSupportedFiles: 'No supported files in what was dropped (PDF, images, Office documents)',
  folderNotFound: 'Folder not found: {path}',
  notAFolder: 'Not a folder: {path}',
  /** `code`: the system's error code, or its words. */
  folderUnreadable: 'Folder not readable: {path} ({code})',
  folderWatched: 'This folder is already watched: {path}',
  moveTargetIsFolder: 'The move target must not be the watched folder itself',
  /** A document's file from the service that is none of the formats the app shows or opens. */
  unsupportedFormat: 'The file of document {id} is in no supported format; it is not shown or opened',
  /** A watched folder's after-upload action left the file alone, or could not be done (`reason`: the system's words). */
  changedSinceUpload: 'File changed since it was uploaded, left in place: {path}',
  cannotDelete: 'Cannot delete {path}: {reason}',
  cannotMove: 'Cannot move {path} to {folder}: {reason}',
  /** The folder picker served to a page lists the home folder and below only (main/core/folder-browser.ts). */
  outsideHome: 'Only folders inside your home folder ({home}) can be browsed',
} as const;

export type FileProblemKind = keyof typeof FILE_PROBLEM_TEMPLATES;

export const fileProblem = templateWriter(FILE_PROBLEM_TEMPLATES);

/** The start of the reason of an upload whose file vanished: the journal looks for it (upload-journal.ts). */
export const FILE_GONE = fileProblem('gone', { path: '' });

// A code in brackets holds none; a path may, so it ends where the bracketed code at the end begins.
const readTemplate = templateReader(FILE_PROBLEM_TEMPLATES, {
  patterns: { code: '[^()]*', expected: '\\d+', read: '\\d+' },
});

/**
 * Which of the problems above a message is, with its values (`path`, an unreadable file's `reason`…). `path`, when
 * the caller knows the file (an upload row does), settles where a path with ": " in it ends; without it the first
 * ": " after "Cannot read " does.
 */
export const readFileProblem = (message: string, path?: string): ReadMessage<FileProblemKind> | null =>
  readTemplate(message, path === undefined ? undefined : { path });
