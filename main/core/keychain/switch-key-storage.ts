import type { KeyStorage } from '../../../common/settings.ts';
import { errorReason, type KeyStore } from './key-store.ts';
import { openKeyStore, type OpenedKeyStore, type OpenKeyStoreOptions } from './open-key-store.ts';

/** The keychain was chosen in Settings but does not work here: the setting is not changed. */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  readonly status = 409;
}

/**
 * Settings → Key storage: opens the chosen store and moves the running service's key into it, so the change never
 * costs the key. The key is then removed from the old store: the user chose where it lives, and a plaintext copy in
 * the key file must not stay behind. Choosing the keychain where none works is refused with its reason.
 */
export async function switchKeyStorage(
  options: {
    storage: KeyStorage;
    from: KeyStore;
    profile: string;
    open?: (options: OpenKeyStoreOptions) => Promise<OpenedKeyStore>;
  } & Omit<OpenKeyStoreOptions, 'storage'>,
): Promise<OpenedKeyStore> {
  const { storage, from, profile, open = openKeyStore, log = () => {}, ...rest } = options;
  const opened = await open({ ...rest, storage, log });
  if (storage === 'keychain' && opened.store.kind !== 'keychain') {
    throw new KeychainUnavailableError(
      `The system keychain is not available, so the key storage stays as it is. ${opened.warning ?? ''}`.trim(),
    );
  }
  const key = await from.get(profile);
  if (key) await opened.store.set(profile, key);
  // The same kind of persistent store is the same place (one keychain, one key file): deleting there would lose the key.
  if (from.kind === opened.store.kind && from.kind !== 'session') return opened;
  await from
    .delete(profile)
    .catch((error: unknown) =>
      log(`API keys: could not remove the key from the ${from.kind} store: ${errorReason(error)}`),
    );
  return opened;
}
