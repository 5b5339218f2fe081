import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlobStorage } from '../storage/blob-storage.ts';
import { BlobStore } from '../storage/blob-store.ts';
import { S3BlobStore } from '../storage/s3-blob-store.ts';
import { parseS3Config } from '../storage/s3-config.ts';

export interface BlobTarget {
  storage: BlobStorage;
  /** Where the blobs go, for the summary (never a credential). */
  description: string;
  close(): Promise<void>;
}

/**
 * The store named by --to-blobs: `s3://bucket/prefix` (endpoint, region and keys from the standard AWS variables, as
 * the service's S3 store reads them) or a directory (`file://` URL or a path), which becomes a data directory's file
 * store: `DIR/files/ab/cd/<sha256>`, staged through `DIR/tmp/`.
 */
export async function openBlobTarget(url: string, env: NodeJS.ProcessEnv = process.env): Promise<BlobTarget> {
  if (url.startsWith('s3://')) {
    const config = parseS3Config(url, {}, env);
    const tmpDir = await mkdtemp(join(tmpdir(), 'archive-migrate-'));
    const storage = new S3BlobStore({ config, tmpDir });
    const close = async (): Promise<void> => {
      await storage.close();
      await rm(tmpDir, { recursive: true, force: true });
    };
    await initOrClose(storage, close);
    return { storage, description: url, close };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('file:')) {
    throw new Error(`Unsupported blob store ${JSON.stringify(url)}: expected a directory or s3://bucket/prefix`);
  }
  const dir = resolve(url.startsWith('file:') ? fileURLToPath(url) : url);
  const storage = new BlobStore(dir);
  await initOrClose(storage, () => storage.close());
  return { storage, description: storage.root, close: () => storage.close() };
}

async function initOrClose(storage: BlobStorage, close: () => Promise<void>): Promise<void> {
  try {
    await storage.init();
  } catch (error) {
    await close();
    throw error;
  }
}
