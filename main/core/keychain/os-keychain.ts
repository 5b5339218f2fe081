import { randomBytes } from 'node:crypto';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { checkKey, checkProfile, errorReason, KeyStoreError, type KeyStore } from './key-store.ts';

/** The keychain service name every entry of the app is filed under; the account is the profile (base URL). */
export const KEYCHAIN_SERVICE = 'desktop-archive';

/**
 * On Linux @napi-rs/keyring silently falls back to the kernel keyring when no Secret Service runs. That keyring is
 * memory only and forgets everything at reboot, so the user would believe the key is remembered when it is not.
 * Pinning to the Secret Service turns that case into "no keychain", which the app reports honestly.
 * (Ignored on macOS and Windows.)
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** The account of the entry the availability probe writes and removes again. */
const PROBE_ACCOUNT = 'desktop-archive availability probe';

/** The OS keychain through @napi-rs/keyring: one entry per profile under one service name. */
export class OsKeychain implements KeyStore {
  readonly kind = 'keychain';
  readonly service: string;

  constructor(options: { service?: string } = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
  }

  async get(profile: string): Promise<string | null> {
    checkProfile(profile);
    try {
      return await this.#entry(profile).getPassword();
    } catch (error) {
      throw new KeyStoreError(`OS keychain: could not read the key of ${profile}: ${errorReason(error)}`, {
        cause: error,
      });
    }
  }

  async set(profile: string, key: string): Promise<void> {
    checkProfile(profile);
    checkKey(key);
    try {
      await this.#entry(profile).setPassword(key);
    } catch (error) {
      throw new KeyStoreError(`OS keychain: could not store the key of ${profile}: ${errorReason(error)}`, {
        cause: error,
      });
    }
  }

  async delete(profile: string): Promise<void> {
    checkProfile(profile);
    try {
      await this.#entry(profile).deleteCredential();
    } catch (error) {
      throw new KeyStoreError(`OS keychain: could not delete the key of ${profile}: ${errorReason(error)}`, {
        cause: error,
      });
    }
  }

  /**
   * Proves the keychain works with a real round trip (write, read back, delete) on a probe entry. A read alone is not
   * enough: a locked or read-only store can answer "no such entry" and still refuse every write. Rejects with the
   * reason when it does not work.
   */
  async probe(signal?: AbortSignal): Promise<void> {
    const value = randomBytes(16).toString('hex');
    const entry = this.#entry(PROBE_ACCOUNT);
    await entry.setPassword(value, signal);
    const read = await entry.getPassword(signal);
    await entry.deleteCredential(signal);
    if (read !== value) throw new Error('the keychain did not return what was just stored');
  }

  /** The constructor itself throws when the pinned store is unavailable (no Secret Service on D-Bus). */
  #entry(account: string): AsyncEntry {
    return new AsyncEntry(this.service, account, ENTRY_OPTIONS);
  }
}
