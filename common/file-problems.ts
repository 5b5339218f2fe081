import { templateReader, templateWriter } from './message-templates.ts';

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
  noSupportedFiles: 'No supported files in what was dropped (PDF, images, Office documents)',
  folderNotFound: 'Folder not found: {path}',
  notAFolder: 'Not a folder: {path}',
  /** `code`: the system's error code, or its words. */
  folderUnreadable: 'Folder not readable: {path} ({code})',
} as const;

export type FileProblemKind = keyof typeof FILE_PROBLEM_TEMPLATES;

export const fileProblem = templateWriter(FILE_PROBLEM_TEMPLATES);

/** The start of the reason of an upload whose file vanished: the journal looks for it (upload-journal.ts). */
export const FILE_GONE = fileProblem('gone', { path: '' });

export interface ReadFileProblem {
  kind: FileProblemKind;
  /** '' for a problem of no one file (`noSupportedFiles`). */
  path: string;
  /** The system's own words, for `unreadable`. */
  reason?: string;
}

// A code in brackets holds none; a path may, so it ends where the bracketed code at the end begins.
const readTemplate = templateReader(FILE_PROBLEM_TEMPLATES, { patterns: { code: '[^()]*' } });

/**
 * Which of the problems above a message is, and about which path. `path`, when the caller knows the file (an upload
 * row does), settles where a path with ": " in it ends; without it the first ": " after "Cannot read " does.
 */
export function readFileProblem(message: string, path?: string): ReadFileProblem | null {
  if (path) {
    const prefix = fileProblem('unreadable', { path, reason: '' });
    if (message.startsWith(prefix)) return { kind: 'unreadable', path, reason: message.slice(prefix.length) };
  }
  const read = readTemplate(message);
  if (!read) return null;
  const { path: readPath = '', reason } = read.params;
  return reason === undefined ? { kind: read.kind, path: readPath } : { kind: read.kind, path: readPath, reason };
}
