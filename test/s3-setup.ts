import {
  S3_ACCESS_KEY_ID_ENV,
  S3_BUCKET_ENV,
  S3_ENDPOINT_ENV,
  S3_SECRET_ACCESS_KEY_ENV,
  S3_UNAVAILABLE_ENV,
  s3ServerForTests,
  startS3Server,
} from './helpers/s3-server.ts';

/**
 * Vitest global setup: one s3rver per run, one bucket in it, described to the test files (forked after this runs)
 * through the environment; each harness on the PostgreSQL + S3 back end keeps its files under a prefix of its own.
 * A server already described is used as it is (a second project's setup finds the first one's).
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[S3_ENDPOINT_ENV]) return undefined;
  const { bin, skipReason } = s3ServerForTests();
  if (!bin) {
    console.log(`S3 back-end tests skipped: ${skipReason}`);
    process.env[S3_UNAVAILABLE_ENV] = skipReason;
    return undefined;
  }
  const server = await startS3Server(bin);
  process.env[S3_ENDPOINT_ENV] = server.endpoint;
  process.env[S3_BUCKET_ENV] = server.bucket;
  process.env[S3_ACCESS_KEY_ID_ENV] = server.accessKeyId;
  process.env[S3_SECRET_ACCESS_KEY_ENV] = server.secretAccessKey;
  return () => server.stop();
}
