import { checkKey, checkProfile, type KeyStore } from './key-store.ts';

/** Keeps keys in memory only: what the app uses when no keychain exists and the user did not opt in to a file. */
export class SessionKeyStore implements KeyStore {
  readonly kind = 'session';
  readonly #keys = new Map<string, string>();

  async get(profile: string): Promise<string | null> {
    checkProfile(profile);
    return this.#keys.get(profile) ?? null;
  }

  async set(profile: string, key: string): Promise<void> {
    checkProfile(profile);
    checkKey(key);
    this.#keys.set(profile, key);
  }

  async delete(profile: string): Promise<void> {
    checkProfile(profile);
    this.#keys.delete(profile);
  }
}
