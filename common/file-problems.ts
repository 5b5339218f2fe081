/**
 * The app's own reasons for refusing or failing a file, worded once. Main writes them in English (logs, the upload
 * journal's last error, the errors of uploads.add); the UI reads them back to show them in its language
 * (renderer/src/lib/service-messages.ts), with the English original as the detail.
 */

/** The start of the reason of an upload whose file vanished: the journal looks for it (upload-journal.ts). */
export const FILE_GONE = 'File no longer exists';

export const FileProblem = {
  notFound: (path: string): string => `File not found: ${path}`,
  gone: (path: string): string => `${FILE_GONE}: ${path}`,
  notAFile: (path: string): string => `Not a file: ${path}`,
  unreadable: (path: string, reason: string): string => `Cannot read ${path}: ${reason}`,
  changedWhileRead: (path: string): string => `File changed while it was read: ${path}`,
  noSupportedFiles: 'No supported files in what was dropped (PDF, images, Office documents)',
  folderNotFound: (path: string): string => `Folder not found: ${path}`,
  notAFolder: (path: string): string => `Not a folder: ${path}`,
  /** `reason`: the system's error code or words. */
  folderUnreadable: (path: string, reason: string): string => `Folder not readable: ${path} (${reason})`,
} as const;

export type FileProblemKind =
  | 'notFound'
  | 'gone'
  | 'notAFile'
  | 'unreadable'
  | 'changedWhileRead'
  | 'noSupportedFiles'
  | 'folderNotFound'
  | 'notAFolder'
  | 'folderUnreadable';

export interface ReadFileProblem {
  kind: FileProblemKind;
  path: string;
  /** The system's own words, for `unreadable`. */
  reason?: string;
}

const PATTERNS: ReadonlyArray<readonly [Exclude<FileProblemKind, 'unreadable' | 'noSupportedFiles'>, RegExp]> = [
  ['notFound', /^File not found: (.+)$/s],
  ['gone', new RegExp(`^${FILE_GONE}: (.+)$`, 's')],
  ['notAFile', /^Not a file: (.+)$/s],
  ['changedWhileRead', /^File changed while it was read: (.+)$/s],
  ['folderNotFound', /^Folder not found: (.+)$/s],
  ['notAFolder', /^Not a folder: (.+)$/s],
  ['folderUnreadable', /^Folder not readable: (.+) \([^()]*\)$/s],
];

/**
 * Which of the problems above a message is, and about which path. `path`, when the caller knows the file (an upload
 * row does), settles where a path with ": " in it ends; without it the first ": " after "Cannot read " does.
 */
export function readFileProblem(message: string, path?: string): ReadFileProblem | null {
  if (message === FileProblem.noSupportedFiles) return { kind: 'noSupportedFiles', path: '' };
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return { kind, path: match[1]! };
  }
  if (path) {
    const prefix = FileProblem.unreadable(path, '');
    if (message.startsWith(prefix)) return { kind: 'unreadable', path, reason: message.slice(prefix.length) };
  }
  const match = /^Cannot read (.+?): (.+)$/s.exec(message);
  return match ? { kind: 'unreadable', path: match[1]!, reason: match[2]! } : null;
}
