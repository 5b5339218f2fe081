import type { Sql } from './db/sql.ts';
import type { RateCounters } from './http/rate-limiter.ts';
import type { DocumentProcessor } from './pipeline/processor.ts';
import type { BlobStorage } from './storage/blob-storage.ts';
import type { ServiceLimits } from './config.ts';

/** What route handlers share: the database, the file store, the processor and the limits in force. */
export interface ServiceContext {
  db: Sql;
  /** The request counters of the rate limits; in this process's memory when absent. */
  rateCounters?: RateCounters;
  blobs: BlobStorage;
  processor: DocumentProcessor;
  limits: ServiceLimits;
  downloadSecret: Buffer;
  /** A download's 302 may point straight at the blob store's presigned URL (ArchiveServiceOptions). */
  presignedDownloads?: boolean;
  /** Key-less requests are counted by the last X-Forwarded-For address (ArchiveServiceOptions). */
  trustProxy?: boolean;
  now: () => number;
}
