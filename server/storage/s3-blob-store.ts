import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  BlobNotFoundError,
  BlobRangeError,
  checkRange,
  contentKey,
  type BlobStorage,
  type ByteRange,
  type LocalCopy,
  type PresignOptions,
  type StagedFile,
} from './blob-storage.ts';
import type { S3Config } from './s3-config.ts';
import { describeS3Error, s3ErrorCode, s3HttpStatus, type S3Target } from './s3-errors.ts';
import { StagingArea } from './staging-area.ts';

export interface S3BlobStoreOptions {
  config: S3Config;
  /** Local directory for staged uploads and analysis copies; private to this process (init empties it). */
  tmpDir: string;
  /** Multipart part size; S3's minimum is 5 MiB. Memory per upload is about partSize × uploadConcurrency. */
  partSizeBytes?: number;
  /** Parts of one upload in flight at once. */
  uploadConcurrency?: number;
  /** The service's clock, for the signing time of presigned URLs. */
  now?: () => number;
}

const MIB = 1024 * 1024;
const DEFAULT_PART_SIZE = 8 * MIB;
const DEFAULT_UPLOAD_CONCURRENCY = 2;
/** Connect within this, or the endpoint counts as unreachable (the SDK then retries, up to its attempt limit). */
const CONNECT_TIMEOUT_MS = 5_000;
/** A socket silent this long is dead: no S3 request of ours waits longer for its next bytes. */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * Content-addressed blobs in an S3-compatible bucket: `<prefix>/ab/cd/<sha256>`. Uploads are staged and hashed in a
 * local temp file, then stored under their hash (multipart when large), streamed from disk, never held whole in
 * memory. Reads stream from GetObject; analysis gets a temp copy; downloads may go straight to a presigned URL.
 */
export class S3BlobStore implements BlobStorage {
  readonly client: S3Client;
  private readonly config: S3Config;
  private readonly staging: StagingArea;
  private readonly partSize: number;
  private readonly uploadConcurrency: number;
  private readonly now: () => number;
  private readonly target: S3Target;

  constructor(options: S3BlobStoreOptions) {
    const { config } = options;
    this.config = config;
    this.staging = new StagingArea(options.tmpDir);
    this.partSize = options.partSizeBytes ?? DEFAULT_PART_SIZE;
    if (this.partSize < 5 * MIB) throw new Error('S3 multipart parts must be at least 5 MiB');
    this.uploadConcurrency = options.uploadConcurrency ?? DEFAULT_UPLOAD_CONCURRENCY;
    this.now = options.now ?? Date.now;
    this.target = { bucket: config.bucket, where: config.endpoint ?? `AWS S3 (${config.region})` };
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: IDLE_TIMEOUT_MS },
      // The SDK's default CRC checksums use aws-chunked trailers, which many S3-compatible servers reject; S3 itself
      // checks every part's signed payload either way.
      ...(config.endpoint
        ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
    });
  }

  /** Empties the temp area and checks that the bucket exists and the credentials are accepted. */
  async init(): Promise<void> {
    await this.staging.reset();
    try {
      // A listing, not HeadBucket: it needs the same permission (s3:ListBucket), and its errors have a body that tells
      // a refused key from a wrong secret from a denied policy, where HEAD answers a bare 403. Listed below a name no
      // stored file can have (keys are hex), so the answer is empty however full the bucket: some S3-compatible
      // servers fail a listing cut short by MaxKeys.
      await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: this.config.prefix ? `${this.config.prefix}/~reachable` : '~reachable',
          MaxKeys: 1,
        }),
      );
    } catch (error) {
      throw describeS3Error(error, this.target);
    }
  }

  newTempPath(): string {
    return this.staging.newPath();
  }

  stage(source: Readable, path?: string): Promise<StagedFile> {
    return this.staging.stage(source, path);
  }

  /** Uploads the staged file unless its content is stored already; resolves once S3 has the whole object. */
  async commit(staged: StagedFile): Promise<void> {
    const key = this.keyOf(staged.sha256);
    if ((await this.head(key)) === null) {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.config.bucket, Key: key, Body: createReadStream(staged.path) },
        partSize: this.partSize,
        queueSize: this.uploadConcurrency,
        // A failed multipart upload is aborted, so no parts linger (and cost) in the bucket.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        throw describeS3Error(error, this.target);
      }
    }
    await rm(staged.path, { force: true });
  }

  discard(path: string): Promise<void> {
    return this.staging.discard(path);
  }

  tempFiles(): Promise<string[]> {
    return this.staging.list();
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    return this.head(this.keyOf(sha256));
  }

  async openRead(sha256: string, range?: ByteRange): Promise<Readable> {
    if (range) checkRange(range);
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.keyOf(sha256),
      Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
    });
    try {
      const { Body } = await this.client.send(command);
      if (!(Body instanceof Readable)) throw new Error('S3 GetObject returned no Node.js stream');
      return Body;
    } catch (error) {
      const code = s3ErrorCode(error);
      if (code === 'NoSuchKey') throw new BlobNotFoundError(sha256);
      if (range && (code === 'InvalidRange' || s3HttpStatus(error) === 416)) {
        throw new BlobRangeError(range, (await this.stat(sha256))?.size ?? 0);
      }
      throw describeS3Error(error, this.target);
    }
  }

  /** Streams the object into a temp file, removed on release (the analysis processes read paths). */
  async localCopy(sha256: string): Promise<LocalCopy> {
    const source = await this.openRead(sha256);
    const path = this.staging.newPath('.copy');
    try {
      await pipeline(source, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { path, release: () => rm(path, { force: true }) };
  }

  /** A GET URL signed for `ttlSeconds`, whose response carries the service's file name and type, not the stored ones. */
  presignedDownloadUrl(sha256: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.config.bucket,
      Key: this.keyOf(sha256),
      ResponseContentDisposition: options.contentDisposition,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.ttlSeconds, signingDate: new Date(this.now()) });
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }

  private keyOf(sha256: string): string {
    const key = contentKey(sha256);
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  private async head(key: string): Promise<{ size: number } | null> {
    try {
      const { ContentLength } = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return { size: ContentLength ?? 0 };
    } catch (error) {
      if (s3ErrorCode(error) === 'NotFound' || s3ErrorCode(error) === 'NoSuchKey') return null;
      throw describeS3Error(error, this.target);
    }
  }
}
