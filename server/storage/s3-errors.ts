/** What an S3 request was about, for messages that say where it failed. */
export interface S3Target {
  bucket: string;
  /** The endpoint's URL, or a description of AWS's own (a region) when there is none. */
  where: string;
}

/** An S3 failure the operator must fix (bucket, credentials, endpoint), with a message that names what to fix. */
export class S3StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'S3StoreError';
  }
}

interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  errors?: unknown[];
}

const CREDENTIAL_ERRORS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'CredentialsProviderError',
]);
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'TimeoutError',
]);

/** The S3 error code of an SDK error (its name), or the network error code; '' when neither is known. */
export function s3ErrorCode(error: unknown): string {
  const e = (error ?? {}) as SdkErrorShape;
  // Node's connect errors to a host with several addresses arrive as an AggregateError of the attempts.
  const first = (e.errors?.[0] ?? {}) as SdkErrorShape;
  return e.code ?? first.code ?? e.name ?? '';
}

export function s3HttpStatus(error: unknown): number | undefined {
  return (error as SdkErrorShape | null)?.$metadata?.httpStatusCode;
}

/**
 * Turns an SDK error into one that names the bucket and the endpoint and says what is wrong. The SDK's own messages
 * name neither, and a bare HEAD answers 403 or 404 with no body at all. Never includes a secret: the SDK errors carry
 * none, and only the bucket, the endpoint and the error's code and message are used.
 */
export function describeS3Error(error: unknown, target: S3Target): S3StoreError {
  const code = s3ErrorCode(error);
  const status = s3HttpStatus(error);
  const bucket = `S3 bucket "${target.bucket}" at ${target.where}`;
  let message: string;
  if (code === 'NoSuchBucket' || (code === 'NotFound' && status === 404)) message = `${bucket} does not exist`;
  else if (CREDENTIAL_ERRORS.has(code)) message = `${bucket}: the credentials were refused (${code})`;
  else if (code === 'AccessDenied' || code === 'Forbidden' || status === 403)
    message = `${bucket}: access denied (${code || status}): check the credentials and the bucket's policy`;
  else if (code === 'PermanentRedirect' || status === 301)
    message = `${bucket}: the bucket is in another region than the one configured`;
  else if (NETWORK_ERRORS.has(code))
    message = `S3 endpoint ${target.where} is unreachable (${code}) for bucket "${target.bucket}"`;
  else {
    const detail = (error as SdkErrorShape | null)?.message ?? String(error);
    message = `${bucket}: request failed (${code || status || 'error'}): ${detail}`;
  }
  return new S3StoreError(message, { cause: error });
}
