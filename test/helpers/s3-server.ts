import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { parseS3Config, type S3Config } from '../../server/storage/s3-config.ts';
import { cleanUpWhenGone } from './orphan-cleanup.ts';

/**
 * A throwaway S3-compatible server for tests: s3rver (an npm dev dependency; docs/deploy.md says why it and not moto)
 * on 127.0.0.1 and a free port, its data in a temp directory, with one bucket made through the S3 API. Its one
 * account is S3RVER / S3RVER; it refuses other access key ids and expired presigned URLs, but does not verify SigV4
 * signatures themselves.
 */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The store's configuration for this server and bucket, under `prefix`. */
  config(prefix?: string): S3Config;
  stop(): Promise<void>;
}

const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 5_000;

/** The s3rver command-line entry, or why the S3 tests skip. In CI, a missing server is a failure. */
export function s3ServerForTests(): { bin: string; skipReason?: undefined } | { bin?: undefined; skipReason: string } {
  try {
    return { bin: createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js') };
  } catch {
    const reason = 's3rver is not installed (npm ci installs it as a dev dependency)';
    if (process.env.CI === 'true') throw new Error(`S3 tests cannot run in CI: ${reason}`);
    return { skipReason: reason };
  }
}

export async function startS3Server(bin: string, bucket = 'archive-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const child = spawn(process.execPath, [bin, '-d', directory, '-a', '127.0.0.1', '-p', '0', '--silent'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const orphanCleanup =
    child.pid === undefined
      ? undefined
      : cleanUpWhenGone(process.pid, [
          ['kill', '-KILL', String(child.pid)],
          ['rm', '-rf', directory],
        ]);
  const stop = async (): Promise<void> => {
    orphanCleanup?.cancel();
    await stopChild(child);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const port = await listeningPort(child);
    const endpoint = `http://127.0.0.1:${port}`;
    const config = (prefix = ''): S3Config =>
      parseS3Config(`s3://${bucket}/${prefix}`, {
        endpoint,
        region: 'us-east-1',
        accessKeyId: ACCESS_KEY_ID,
        secretAccessKey: SECRET_ACCESS_KEY,
      });
    const client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    });
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
    return { endpoint, bucket, accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, config, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The port s3rver reports once it listens (it was started on port 0); rejects if it does not within the timeout. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(`did not report listening within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    const fail = (why: string): void => {
      clearTimeout(timer);
      reject(new Error(`s3rver ${why}. stderr: ${stderr.trim() || '(empty)'}`));
    };
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited early (${signal ?? code})`));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** The run's shared s3rver (test/s3-setup.ts), handed to the forked test files through these variables. */
export const S3_ENDPOINT_ENV = 'ARCHIVE_TEST_S3_ENDPOINT';
export const S3_BUCKET_ENV = 'ARCHIVE_TEST_S3_BUCKET';
export const S3_ACCESS_KEY_ID_ENV = 'ARCHIVE_TEST_S3_ACCESS_KEY_ID';
export const S3_SECRET_ACCESS_KEY_ENV = 'ARCHIVE_TEST_S3_SECRET_ACCESS_KEY';
/** Why the shared S3 server is missing (set by the global setup when s3rver is not installed). */
export const S3_UNAVAILABLE_ENV = 'ARCHIVE_TEST_S3_UNAVAILABLE';

/** The run's shared S3 server as the global setup described it, or why there is none. */
export function sharedS3ForTests():
  | { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; skipReason?: undefined }
  | { skipReason: string } {
  const endpoint = process.env[S3_ENDPOINT_ENV];
  const bucket = process.env[S3_BUCKET_ENV];
  const accessKeyId = process.env[S3_ACCESS_KEY_ID_ENV];
  const secretAccessKey = process.env[S3_SECRET_ACCESS_KEY_ENV];
  if (endpoint && bucket && accessKeyId && secretAccessKey) return { endpoint, bucket, accessKeyId, secretAccessKey };
  return { skipReason: process.env[S3_UNAVAILABLE_ENV] ?? `${S3_ENDPOINT_ENV} is not set (test/s3-setup.ts sets it)` };
}
