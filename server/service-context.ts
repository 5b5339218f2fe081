import type { Database } from './db/database.ts';
import type { DocumentProcessor } from './pipeline/processor.ts';
import type { BlobStore } from './storage/blob-store.ts';
import type { ServiceLimits } from './config.ts';

/** What route handlers share: the database, the file store, the processor and the limits in force. */
export interface ServiceContext {
  db: Database;
  blobs: BlobStore;
  processor: DocumentProcessor;
  limits: ServiceLimits;
  downloadSecret: Buffer;
  now: () => number;
}
