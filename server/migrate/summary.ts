import type { BlobResult } from './blob-copier.ts';
import type { TableResult } from './row-copier.ts';

export interface MigrationSummary {
  source: string;
  database: string;
  blobStore: string;
  /** 'fresh': a new database; 'same': this archive was (partly) there, the copy resumed. */
  target: 'fresh' | 'same';
  tables: TableResult[];
  leftBehind: Array<{ table: string; reason: string }>;
  blobs: BlobResult;
  elapsedMs: number;
}

/** Whether everything the source holds is now at the target. */
export function migrationComplete(summary: MigrationSummary): boolean {
  return summary.blobs.failed.length === 0 && summary.blobs.missing.length === 0;
}

const count = (n: number): string => n.toLocaleString('en-US');

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The summary as the command prints it: rows per table, files, bytes, time, and every file that did not make it. */
export function formatSummary(summary: MigrationSummary): string {
  const { blobs } = summary;
  const width = Math.max(...summary.tables.map((t) => t.table.length), 'table'.length);
  const lines = [
    `Migrated ${summary.source}`,
    `  to ${summary.database} (${summary.target === 'fresh' ? 'new database' : 'resumed: this archive was there'})`,
    `  and ${summary.blobStore}`,
    '',
    `${'table'.padEnd(width)}  ${'copied'.padStart(10)}  ${'already there'.padStart(13)}`,
    ...summary.tables.map(
      (t) => `${t.table.padEnd(width)}  ${count(t.copied).padStart(10)}  ${count(t.alreadyThere).padStart(13)}`,
    ),
    '',
    `files: ${count(blobs.copied)} copied (${megabytes(blobs.bytes)}), ${count(blobs.skipped)} already there, ` +
      `${count(blobs.failed.length)} failed, ${count(blobs.missing.length)} missing at the source`,
    ...blobs.failed.map((f) => `  failed ${f.sha256}: ${f.reason}`),
    ...blobs.missing.map((sha) => `  missing ${sha}: named by documents but not in the source's files/ (rows copied)`),
    'not copied:',
    ...leftBehindByReason(summary.leftBehind).map(([reason, tables]) => `  ${tables.join(', ')}: ${reason}`),
    `time: ${(summary.elapsedMs / 1000).toFixed(1)} s`,
  ];
  if (!migrationComplete(summary)) {
    lines.push('Some files were not copied (listed above): the archive at the target is incomplete.');
  }
  return lines.join('\n');
}

function leftBehindByReason(tables: MigrationSummary['leftBehind']): Array<[string, string[]]> {
  const byReason = new Map<string, string[]>();
  for (const { table, reason } of tables) byReason.set(reason, [...(byReason.get(reason) ?? []), table]);
  return [...byReason];
}
