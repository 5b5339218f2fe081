import { ErrorMessage } from '../../../common/errors.ts';
import type { MessageKey } from '../../../common/i18n/messages.ts';
import { callErrorMessage } from './desktop.ts';

/**
 * The service's and the app's own error messages that the UI knows, in the UI's language. The English original
 * stays available as the detail (what a log or a support request needs); a message the app does not know is shown
 * as it came.
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
];

export interface ShownError {
  text: string;
  detail: string | null;
}

export function serviceMessage(error: unknown, t: (key: MessageKey) => string): ShownError {
  const raw = callErrorMessage(error);
  const known = KNOWN.find(([english]) => raw.includes(english));
  return known ? { text: t(known[1]), detail: raw } : { text: raw, detail: null };
}
