/** The service's error messages. The first six are quoted verbatim from the v1 spec; the rest are ours (docs/api.md). */
export const ErrorMessage = {
  invalidKey: 'Invalid or missing API key',
  insufficientScope: 'Insufficient scope',
  spaceDenied: 'Access denied to this space',
  documentNotFound: 'Document not found',
  unsupportedFormat: 'File content does not match any supported format',
  contentTypeMismatch: 'Content-Type mismatch',
  // Not named by the spec; designed here and documented in docs/api.md.
  eventNotFound: 'Event not found',
  notFound: 'Not found',
  rateLimited: 'Rate limit exceeded',
  fileTooLarge: 'File exceeds the 50 MB limit',
  fileMissing: 'Missing file field',
  malformedMultipart: 'Malformed multipart body',
  malformedJson: 'Malformed JSON body',
  invalidRequestTarget: 'Invalid request URL',
  malformedRequest: 'Malformed HTTP request',
  headersTooLarge: 'Request headers too large',
  requestTimeout: 'Request timed out',
  categoryExists: 'Category already exists in this space',
  invalidDownloadSignature: 'Invalid or expired download link',
  internal: 'Internal server error',
} as const;

export type ErrorBody = { success: false; error: string; retryAfter?: number };

/** The message of a caught value: an Error's own message, anything else (a thrown string, a rejection reason) as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** For logs: an Error's stack (it starts with the message), anything else as text. */
export function errorStack(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** A caught value as an Error, for code that keeps or rethrows it (a rejection reason need not be one). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
