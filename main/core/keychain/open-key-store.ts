import type { KeyStorage } from '../../../common/settings.ts';
import { FileKeyStore } from './file-key-store.ts';
import { errorReason, type KeyStore } from './key-store.ts';
import { OsKeychain } from './os-keychain.ts';
import { SessionKeyStore } from './session-key-store.ts';

/** A keychain that can prove it works; `OsKeychain` in the app, a fault-injecting one in tests. */
export interface ProbedKeyStore extends KeyStore {
  probe(signal?: AbortSignal): Promise<void>;
}

export interface OpenKeyStoreOptions {
  /** The user's choice from settings (`key_storage`): 'file' only after an explicit opt-in. */
  storage: KeyStorage;
  /** Where the opted-in key file lives, in the app's data directory. Not touched unless storage is 'file'. */
  filePath: string;
  log?: (line: string) => void;
  /** Bounds the keychain probe (default 15 s): a D-Bus call to a wedged Secret Service can otherwise hang. */
  probeTimeoutMs?: number;
  keychain?: () => ProbedKeyStore;
}

export interface OpenedKeyStore {
  store: KeyStore;
  /** Set when keys will not outlive this session; the app must show it to the user. */
  warning?: string;
}

/**
 * Picks where API keys live. The OS keychain when it works; the key file only when the user opted in to it; otherwise
 * memory for this session, with a warning that says so. Never a file the user did not ask for.
 */
export async function openKeyStore(options: OpenKeyStoreOptions): Promise<OpenedKeyStore> {
  const log = options.log ?? (() => {});
  if (options.storage === 'session') {
    log('API keys: kept in memory until the app closes (chosen in settings)');
    return { store: new SessionKeyStore() };
  }
  if (options.storage === 'file') {
    log(`API keys: file key store ${options.filePath} (opted in by the user)`);
    return { store: new FileKeyStore({ path: options.filePath, log }) };
  }
  let keychain: ProbedKeyStore;
  try {
    keychain = (options.keychain ?? (() => new OsKeychain()))();
    await withDeadline(options.probeTimeoutMs ?? 15_000, (signal) => keychain.probe(signal));
  } catch (error) {
    const warning =
      `No OS keychain is available (${errorReason(error)}); the API key is kept for this session only. ` +
      'Enable the file key store in settings to remember it.';
    log(`API keys: ${warning}`);
    return { store: new SessionKeyStore(), warning };
  }
  log('API keys: OS keychain');
  return { store: keychain };
}

/** Aborting may not interrupt a native call that is already running, so a timer settles the race as well. */
async function withDeadline(timeoutMs: number, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`the keychain did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
