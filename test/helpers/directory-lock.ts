import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export interface DirectoryLockOptions {
  /** A lock older than this was left by a killed process and is taken over. */
  staleMs: number;
  /** How long to wait for another holder before giving up. */
  waitMs: number;
  /** What the caller waits for, for the timeout's message. */
  what: string;
}

/**
 * Runs `work` while holding `lock` (a directory: mkdir is atomic across processes), so test files running in
 * parallel forks never do the same one-off job (a build, an extraction) into the same place at once.
 */
export async function withDirectoryLock<T>(
  lock: string,
  options: DirectoryLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  await mkdir(dirname(lock), { recursive: true });
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(lock).catch(() => null);
      if (info && Date.now() - info.mtimeMs > options.staleMs) await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for another process to finish ${options.what} (lock ${lock})`, {
          cause: error,
        });
      await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
