import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDirectory } from '../../../shared/fs/sync-directory.ts';
import { checkKey, checkProfile, errorReason, KeyStoreError, type KeyStore } from './key-store.ts';

interface KeyFile {
  version: 1;
  /** A Map, not an object: a profile string must never reach Object.prototype. */
  keys: Map<string, string>;
}

/**
 * Keys in a JSON file that only the user can read (mode 0600 in a 0700 directory), for machines without a keychain.
 * LESS SAFE than the keychain: the key is stored in plain text, so anything running as the user, a backup or a copied
 * home directory can read it. Used only after the user explicitly opted in (settings `key_storage: 'file'`); the app
 * never falls back to it on its own. On Windows the mode bits are not enforced; the user profile's ACL applies.
 * Writes are atomic (temp file, fsync, rename): a crash leaves the old file or the new one, never half of one.
 */
export class FileKeyStore implements KeyStore {
  readonly kind = 'file';
  readonly path: string;
  readonly #log: (line: string) => void;
  readonly #now: () => Date;
  /** Operations run one after the other so a read-modify-write never loses a concurrent change. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: { path: string; log?: (line: string) => void; now?: () => Date }) {
    this.path = options.path;
    this.#log = options.log ?? (() => {});
    this.#now = options.now ?? (() => new Date());
  }

  async get(profile: string): Promise<string | null> {
    checkProfile(profile);
    return this.#serial(async () => (await this.#read()).keys.get(profile) ?? null);
  }

  async set(profile: string, key: string): Promise<void> {
    checkProfile(profile);
    checkKey(key);
    return this.#serial(async () => {
      const file = await this.#read();
      file.keys.set(profile, key);
      await this.#write(file);
    });
  }

  async delete(profile: string): Promise<void> {
    checkProfile(profile);
    return this.#serial(async () => {
      const file = await this.#read();
      if (!file.keys.delete(profile)) return;
      await this.#write(file);
    });
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #read(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return emptyFile();
      throw new KeyStoreError(`key file ${this.path}: could not read it: ${errorReason(error)}`, { cause: error });
    }
    await this.#tightenMode();
    const parsed = parseKeyFile(text);
    if (parsed) return parsed;
    // Kept, not deleted: it may hold a key the user still needs. Same directory, same 0600 mode.
    const aside = `${this.path}.corrupt-${fileTimestamp(this.#now())}`;
    await rename(this.path, aside);
    this.#log(`key file ${this.path} was not readable as a key file; moved to ${aside}, starting empty`);
    return emptyFile();
  }

  /** A file copied in from elsewhere may be readable by others; the key must not stay that way. */
  async #tightenMode(): Promise<void> {
    if (process.platform === 'win32') return;
    const { mode } = await stat(this.path);
    if ((mode & 0o077) === 0) return;
    await chmod(this.path, 0o600);
    this.#log(`key file ${this.path} was readable by other users; its mode is now 0600`);
  }

  async #write(file: KeyFile): Promise<void> {
    if (file.keys.size === 0) {
      await unlink(this.path).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
      return;
    }
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify({ version: 1, keys: Object.fromEntries(file.keys) }, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw new KeyStoreError(`key file ${this.path}: could not write it: ${errorReason(error)}`, { cause: error });
    }
    await syncDirectory(dir);
  }
}

function emptyFile(): KeyFile {
  return { version: 1, keys: new Map() };
}

function parseKeyFile(text: string): KeyFile | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const { version, keys } = json as Record<string, unknown>;
  if (version !== 1 || typeof keys !== 'object' || keys === null || Array.isArray(keys)) return null;
  const map = new Map<string, string>();
  for (const [profile, key] of Object.entries(keys)) {
    if (typeof key !== 'string') return null;
    map.set(profile, key);
  }
  return { version: 1, keys: map };
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/** ISO time without characters Windows forbids in file names. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}
