import { open } from 'node:fs/promises';

/**
 * Flushes a directory's entries, so a rename into it survives a power cut. Directories cannot be opened for fsync on
 * Windows; there the rename is as durable as NTFS makes it.
 */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
