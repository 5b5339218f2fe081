import {
  knownMessage,
  processingFailure,
  processingMessages,
  type ShownError,
  type Translate,
} from '../../../common/i18n/known-messages.ts';
import { callErrorMessage } from './desktop.ts';

/** Messages the app knows, in the UI's language (common/i18n/known-messages.ts). */
export { knownMessage, processingFailure, processingMessages, type ShownError };

/** A failed desktop call's message, in the UI's language where the app knows it. */
export function serviceMessage(error: unknown, t: Translate): ShownError {
  return knownMessage(callErrorMessage(error), t);
}
