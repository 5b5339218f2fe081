import { openPostgres } from '../db/postgres/pg-schema.ts';
import { copyBlobs, type BlobResult } from './blob-copier.ts';
import { openBlobTarget } from './blob-target.ts';
import { continueIdentities, copyTableRows, type TableResult } from './row-copier.ts';
import { SourceArchive } from './source-archive.ts';
import type { MigrationSummary } from './summary.ts';
import { readTargetCatalog } from './target-catalog.ts';
import { prepareTarget } from './target-check.ts';
import { planTables } from './table-plan.ts';

export interface MigrateOptions {
  /** The SQLite archive's data directory. */
  from: string;
  /** postgres://user:password@host:port/database; its schema is created or brought up to date first. */
  toDatabase: string;
  /** A directory (file store) or s3://bucket/prefix. */
  toBlobs: string;
  /** Where the S3 settings come from (AWS_* variables). */
  env?: NodeJS.ProcessEnv;
  /** One line per finished step, for a person watching a long copy. */
  progress?: (line: string) => void;
}

/**
 * Copies a SQLite archive to PostgreSQL and a blob store: the files first (so a copied document never points at a
 * missing file), then every table in foreign-key order, then each identity past the copied ids. Safe to run again
 * after an interruption: what is there already is skipped.
 */
export async function migrateArchive(options: MigrateOptions): Promise<MigrationSummary> {
  const started = performance.now();
  const progress = options.progress ?? (() => {});
  const source = SourceArchive.open(options.from);
  try {
    const db = await openPostgres(options.toDatabase);
    try {
      const plan = planTables(source.tables(), await readTargetCatalog(db));
      const target = await prepareTarget(db, source, plan);
      const { blobs, blobStore } = await copyFiles(source, options);
      progress(`files: ${blobs.copied} copied, ${blobs.skipped} already there`);
      const tables: TableResult[] = [];
      for (const copy of plan.copies) {
        const result = await copyTableRows(source, db, copy);
        await continueIdentities(db, copy);
        tables.push(result);
        progress(`${copy.table}: ${result.copied} copied, ${result.alreadyThere} already there`);
      }
      return {
        source: source.dataDir,
        database: db.target.description,
        blobStore,
        target,
        tables,
        leftBehind: plan.leftBehind,
        blobs,
        elapsedMs: performance.now() - started,
      };
    } finally {
      await db.close();
    }
  } finally {
    source.close();
  }
}

async function copyFiles(
  source: SourceArchive,
  options: MigrateOptions,
): Promise<{ blobs: BlobResult; blobStore: string }> {
  const target = await openBlobTarget(options.toBlobs, options.env);
  try {
    return { blobs: await copyBlobs(source.dataDir, source.blobs(), target.storage), blobStore: target.description };
  } finally {
    await target.close();
  }
}
