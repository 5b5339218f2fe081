import type { Sql } from './db/sql.ts';
import type { RateCounters } from './http/rate-limiter.ts';
import type { DocumentProcessor } from './pipeline/processor.ts';
import type { BlobStore } from './storage/blob-store.ts';
import type { ServiceLimits } from './config.ts';

/** What route handlers share: the database, the file store, the processor and the limits in force. */
export interface ServiceContext {
  db: Sql;
  /** The request counters of the rate limits; in this process's memory when absent. */
  rateCounters?: RateCounters;
  blobs: BlobStore;
  processor: DocumentProcessor;
  limits: ServiceLimits;
  downloadSecret: Buffer;
  now: () => number;
}
