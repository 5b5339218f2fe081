import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobStorageAt } from '../archive-backends.ts';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { BlobStore } from '../storage/blob-store.ts';

export interface BlobTarget {
  storage: BlobStorage;
  /** Where the blobs go, for the summary (never a credential). */
  description: string;
  close(): Promise<void>;
}

/**
 * The store named by --to-blobs, as the service reads --blobs (archive-backends.ts blobStorageAt): `s3://bucket/prefix`
 * or a directory (`file://` URL or a path), which becomes a data directory's file store: `DIR/files/ab/cd/<sha256>`,
 * staged through `DIR/tmp/`.
 */
export async function openBlobTarget(url: string, env: NodeJS.ProcessEnv = process.env): Promise<BlobTarget> {
  // S3 stages through a temp directory of this run's own; a directory target stages inside itself.
  const tmpDir = await mkdtemp(join(tmpdir(), 'archive-migrate-'));
  const removeTmp = (): Promise<void> => rm(tmpDir, { recursive: true, force: true });
  let storage: BlobStorage;
  try {
    storage = blobStorageAt(url, tmpDir, { env });
  } catch (error) {
    await removeTmp();
    throw error;
  }
  const close = async (): Promise<void> => {
    await storage.close();
    await removeTmp();
  };
  await initOrClose(storage, close);
  return { storage, description: storage instanceof BlobStore ? storage.root : url, close };
}

async function initOrClose(storage: BlobStorage, close: () => Promise<void>): Promise<void> {
  try {
    await storage.init();
  } catch (error) {
    await close();
    throw error;
  }
}
