import { errorMessage } from '../../../common/errors.ts';
import { redactSecrets } from './redact.ts';

/**
 * Where API keys live, one per service profile. `profile` is a `profileId(baseUrl)`. A store never logs a key and
 * never puts one in an error message.
 * - keychain: the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux).
 * - session: memory only, forgotten when the app quits (no keychain and no opt-in to the file store).
 * - file: a file readable only by the user, used only after the user explicitly opted in.
 */
export type KeyStoreKind = 'keychain' | 'session' | 'file';

export interface KeyStore {
  readonly kind: KeyStoreKind;
  /** Resolves null when no key is stored for this profile. */
  get(profile: string): Promise<string | null>;
  /** Replaces any key stored for this profile. */
  set(profile: string, key: string): Promise<void>;
  /** Removing a key that is not there is not an error. */
  delete(profile: string): Promise<void>;
}

/** A key store operation failed; the message never contains a key. */
export class KeyStoreError extends Error {
  override readonly name = 'KeyStoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(redactSecrets(message), options);
  }
}

/** Describes a caught error without ever echoing a key it may contain. */
export function errorReason(error: unknown): string {
  const text = errorMessage(error);
  return redactSecrets(text.trim()) || 'unknown error';
}

/**
 * The profile of a service: its base URL normalised so that spellings of the same service share one keychain entry
 * (scheme and host lower-cased, default port dropped, no trailing slash, no query, fragment or credentials).
 * The path is kept as written: two services may live under different paths of one host.
 */
export function profileId(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new KeyStoreError(`not a valid base URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new KeyStoreError(`the base URL must be http(s), got ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export function checkProfile(profile: string): void {
  if (profile.length === 0) throw new KeyStoreError('the key profile must not be empty');
}

export function checkKey(key: string): void {
  if (key.length === 0) throw new KeyStoreError('the API key must not be empty');
}
