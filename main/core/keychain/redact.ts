/**
 * Masks API keys before text reaches a log, a crash report, an error shown to the user or a file moved aside.
 * Keys look like das_<32 hex key id>_<43 base64url secret> (server/auth/api-keys.ts). The id stays visible because
 * it names the key without unlocking anything; the secret part is masked even when truncated or overlong.
 */
const KEY_SECRET = /das_([0-9a-fA-F]{32})_[A-Za-z0-9_-]+/g;
/** Authorization headers in dumped requests carry the key without the das_ shape being guaranteed (a pasted typo). */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;

export function redactSecrets(text: string): string {
  return text.replace(KEY_SECRET, 'das_$1_***').replace(BEARER, '$1***');
}

export function containsSecret(text: string): boolean {
  return redactSecrets(text) !== text;
}

/** Property names that only ever hold a credential; settings have none of them, so finding one means a leaked key. */
export const SECRET_FIELD_NAME = /^(api[_-]?key|apikey|access[_-]?token|token|secret|password|authorization|bearer)$/i;
