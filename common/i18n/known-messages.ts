import { readConnectionProblem } from '../connection-problems.ts';
import { ErrorMessage } from '../errors.ts';
import { readFileProblem } from '../file-problems.ts';
import { NUMERIC_PLACEHOLDERS, readProcessingMessage } from '../processing-messages.ts';
import type { MessageKey } from './messages.ts';
import type { Params } from './translate.ts';

/**
 * The service's and the app's own error messages that the app knows, in the UI's language, for the renderer and the
 * tray alike. The English original stays available as the detail (what a log or a support request needs); a message
 * the app does not know is shown as it came.
 */
const KNOWN: ReadonlyArray<readonly [string, MessageKey]> = [
  [ErrorMessage.invalidKey, 'serviceError.invalidKey'],
  [ErrorMessage.insufficientScope, 'serviceError.insufficientScope'],
  [ErrorMessage.spaceDenied, 'serviceError.spaceDenied'],
  [ErrorMessage.documentNotFound, 'serviceError.documentNotFound'],
  [ErrorMessage.eventNotFound, 'serviceError.eventNotFound'],
  [ErrorMessage.unsupportedFormat, 'serviceError.unsupportedFormat'],
  [ErrorMessage.contentTypeMismatch, 'serviceError.contentTypeMismatch'],
  [ErrorMessage.rateLimited, 'serviceError.rateLimited'],
  [ErrorMessage.fileTooLarge, 'serviceError.fileTooLarge'],
  [ErrorMessage.internal, 'serviceError.internal'],
  // main/core/keychain/switch-key-storage.ts
  ['The system keychain is not available', 'serviceError.keychainUnavailable'],
  // common/settings.ts and common/ipc.ts (connection.test): a service URL their schemas refuse, named by its field
  ['base_url must be an http(s) URL', 'serviceError.urlInvalid'],
];

export interface ShownError {
  text: string;
  detail: string | null;
}

export type Translate = (key: MessageKey, params?: Params) => string;

/**
 * A message from main or the service in the UI's language where the app knows it: the service's messages above, the
 * app's own file problems (common/file-problems.ts) and connection problems (common/connection-problems.ts).
 * `path` is the file's, when the caller knows which file.
 */
export function knownMessage(raw: string, t: Translate, path?: string): ShownError {
  const known = KNOWN.find(([english]) => raw.includes(english));
  if (known) return { text: t(known[1]), detail: raw };
  const problem = readFileProblem(raw, path);
  if (problem) return { text: t(`fileProblem.${problem.kind}`, problem.params), detail: raw };
  const connection = readConnectionProblem(raw);
  if (connection) return { text: t(`connectionProblem.${connection.kind}`, connection.params), detail: raw };
  return { text: raw, detail: null };
}

/**
 * A document's processing note (one note per line) or failure reason (`error`), each line in the UI's language where
 * the app knows its wording (common/processing-messages.ts), with the English line as the detail.
 */
export function processingMessages(raw: string, t: Translate): ShownError[] {
  return (
    raw
      .split('\n')
      // Notes an earlier version joined with spaces: a split into known notes wins over one note swallowing the rest.
      .flatMap((line) => joinedNotes(line) ?? [line])
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const text = processingText(line, t);
        return { text: text ?? line, detail: text === null || text === line ? null : line };
      })
  );
}

/** Notes of an earlier version, joined with spaces: split where each part is a known note, else null. */
function joinedNotes(line: string): string[] | null {
  for (let at = line.indexOf('. '); at > 0; at = line.indexOf('. ', at + 2)) {
    const head = line.slice(0, at + 1);
    if (!readProcessingMessage(head)) continue;
    const rest = line.slice(at + 2);
    const tail = readProcessingMessage(rest) ? [rest] : joinedNotes(rest);
    if (tail) return [head, ...tail];
  }
  return null;
}

/** A document's failure reason for a place that already says it failed: without "Processing failed: " in front. */
export function processingFailure(raw: string, t: Translate): ShownError {
  const read = readProcessingMessage(raw);
  const reason = read?.kind === 'failed' ? read.params.reason! : raw;
  const text = processingText(reason, t) ?? reason;
  return { text, detail: text === raw ? null : raw };
}

function processingText(line: string, t: Translate): string | null {
  const read = readProcessingMessage(line);
  if (!read) return null;
  const params = Object.fromEntries(
    Object.entries(read.params).map(([name, value]) => {
      // A reason may be one of the known wordings itself ("Processing failed: " and a limit).
      if (name === 'reason') return [name, processingText(value, t) ?? value];
      // A count or size ("200,000") is shown the locale's way; page and object numbers stay as written.
      if (NUMERIC_PLACEHOLDERS.has(name)) return [name, Number(value.replaceAll(',', ''))];
      return [name, value];
    }),
  );
  return t(`processing.${read.kind}`, params);
}
