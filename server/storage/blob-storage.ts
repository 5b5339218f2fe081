import type { Readable } from 'node:stream';

/** A file received into the local temp area, hashed while it streamed in. */
export interface StagedFile {
  /** A local temp file (format detection reads it); gone once committed or discarded. */
  path: string;
  sha256: string;
  size: number;
}

/** Bytes `start` to `end`, both inclusive (as in HTTP's Range header); no `end`: to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** A stored file as a local path, for code that must read a path (the analysis child processes). */
export interface LocalCopy {
  path: string;
  /** Removes the copy where one was made; the path must not be read after it. */
  release(): Promise<void>;
}

export interface PresignOptions {
  /** The Content-Disposition header the download must carry (the service's safe name, not the uploader's). */
  contentDisposition: string;
  contentType: string;
  ttlSeconds: number;
}

/**
 * Where the service keeps file contents, content-addressed by SHA-256 (`ab/cd/<sha256>` under the store's root or
 * prefix). An upload is staged to a local temp file while it is hashed, then committed; once `commit` resolves the
 * content is durable (the 202 follows it). Nothing here hands out a stored file's own path: a back end without local
 * files (S3) could not honour it.
 */
export interface BlobStorage {
  /** Prepares the store (and checks it is reachable); empties the temp area, whose files were promised to no one. */
  init(): Promise<void>;
  newTempPath(): string;
  /** Streams `source` into a temp file, hashing as it goes. Rejects (and removes the temp file) on error. */
  stage(source: Readable, path?: string): Promise<StagedFile>;
  /** Stores a staged file under its SHA-256 (kept once: an existing copy wins) and removes the temp file. */
  commit(staged: StagedFile): Promise<unknown>;
  /** Removes a temp file of `stage` (a rejected upload); a missing file is no error. */
  discard(path: string): Promise<void>;
  /** Size of a stored file, or null when it is not stored. */
  stat(sha256: string): Promise<{ size: number } | null>;
  /**
   * A stream of a stored file, or of a byte range of it (an `end` past the last byte reads to the last byte).
   * Resolves once the bytes are known to be there. Rejects with BlobNotFoundError, or BlobRangeError for a range
   * that starts past the end.
   */
  openRead(sha256: string, range?: ByteRange): Promise<Readable>;
  /** A local file with the stored bytes, until released (see withLocalCopy). Rejects with BlobNotFoundError. */
  localCopy(sha256: string): Promise<LocalCopy>;
  /** A URL that serves the file straight from the store for `ttlSeconds`, or null when the store has none. */
  presignedDownloadUrl(sha256: string, options: PresignOptions): Promise<string | null>;
  /** Temp files currently present (for tests: a rejected upload must leave nothing behind). */
  tempFiles(): Promise<string[]>;
  /** Releases connections; the store is not used after it. */
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  readonly sha256: string;
  constructor(sha256: string) {
    super(`Stored file ${sha256} is missing`);
    this.name = 'BlobNotFoundError';
    this.sha256 = sha256;
  }
}

export class BlobRangeError extends Error {
  constructor(range: ByteRange, size: number) {
    super(`Byte range ${range.start}-${range.end ?? ''} is outside the stored file (${size} bytes)`);
    this.name = 'BlobRangeError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `ab/cd/<sha256>`: the key of a stored file below the store's root or prefix, the same in every back end. */
export function contentKey(sha256: string): string {
  // Checked because the key becomes a path or an object key: a value from elsewhere must not reach outside the store.
  if (!SHA256_HEX.test(sha256)) throw new Error(`Not a SHA-256 digest: ${JSON.stringify(sha256)}`);
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** Validates a range against nothing but itself (the store checks it against the file's size). */
export function checkRange(range: ByteRange): void {
  const { start, end } = range;
  const valid =
    Number.isSafeInteger(start) && start >= 0 && (end === undefined || (Number.isSafeInteger(end) && end >= start));
  if (!valid) throw new RangeError(`Invalid byte range ${start}-${end ?? ''}`);
}

/** Runs `fn` with a local path of a stored file and releases the copy afterwards, whatever `fn` did. */
export async function withLocalCopy<T>(
  storage: BlobStorage,
  sha256: string,
  fn: (path: string) => Promise<T>,
): Promise<T> {
  const copy = await storage.localCopy(sha256);
  try {
    return await fn(copy.path);
  } finally {
    await copy.release();
  }
}
