/** Where and how to reach an S3-compatible bucket, checked (see parseS3Config). */
export interface S3Config {
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible server's base URL; undefined for AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Explicit credentials; undefined lets the SDK's default chain find them (profile, container, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

export interface S3Options {
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Default: true when an endpoint is given (S3-compatible servers), false for AWS. */
  forcePathStyle?: boolean;
}

export class S3ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'S3ConfigError';
  }
}

/** The S3 rules for bucket names (3–63 characters: lower-case letters, digits, dots, hyphens; no IP address). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IP_ADDRESS = /^\d+\.\d+\.\d+\.\d+$/;
const DEFAULT_REGION = 'us-east-1';

/**
 * Reads `s3://bucket/prefix` plus options; what the options leave out comes from the standard AWS variables of `env`
 * (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION or AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). Throws S3ConfigError naming what is wrong; never echoes a secret.
 */
export function parseS3Config(url: string, options: S3Options = {}, env: NodeJS.ProcessEnv = {}): S3Config {
  const { bucket, prefix } = parseBlobUrl(url);
  const endpoint = parseEndpoint(options.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL);
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? DEFAULT_REGION;
  if (!/^[a-z0-9-]+$/.test(region)) throw new S3ConfigError(`Invalid S3 region ${JSON.stringify(region)}`);
  return {
    bucket,
    prefix,
    endpoint,
    region,
    credentials: parseCredentials(options, env),
    forcePathStyle: options.forcePathStyle ?? endpoint !== undefined,
  };
}

function parseBlobUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]*)(?:\/([^?#]*))?$/.exec(url);
  if (!match) throw new S3ConfigError(`Invalid blob store URL ${JSON.stringify(url)}: expected s3://bucket/prefix`);
  const bucket = match[1] ?? '';
  if (!BUCKET_NAME.test(bucket) || IP_ADDRESS.test(bucket) || bucket.includes('..')) {
    throw new S3ConfigError(
      `Invalid S3 bucket name ${JSON.stringify(bucket)}: 3 to 63 lower-case letters, digits, dots and hyphens`,
    );
  }
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  const segments = prefix === '' ? [] : prefix.split('/');
  // Empty, '.' and '..' segments make keys that some servers and every file-system mirror of a bucket read otherwise.
  const unprintable = [...prefix].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\');
  if (segments.some((s) => s === '' || s === '.' || s === '..') || unprintable) {
    throw new S3ConfigError(`Invalid S3 key prefix ${JSON.stringify(prefix)} in ${url}`);
  }
  return { bucket, prefix };
}

function parseEndpoint(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new S3ConfigError(`Invalid S3 endpoint ${JSON.stringify(value)}: expected an http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new S3ConfigError(`Invalid S3 endpoint ${JSON.stringify(value)}: expected an http(s) URL`);
  }
  if (parsed.username || parsed.password) {
    throw new S3ConfigError(
      `Invalid S3 endpoint ${parsed.host}: credentials go in the access key settings, not the URL`,
    );
  }
  return parsed.href.replace(/\/$/, '');
}

function parseCredentials(options: S3Options, env: NodeJS.ProcessEnv): S3Config['credentials'] {
  const explicit = options.accessKeyId !== undefined || options.secretAccessKey !== undefined;
  const accessKeyId = explicit ? options.accessKeyId : env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = explicit ? options.secretAccessKey : env.AWS_SECRET_ACCESS_KEY;
  const sessionToken = explicit ? options.sessionToken : env.AWS_SESSION_TOKEN;
  if (!accessKeyId && !secretAccessKey) return undefined;
  const source = explicit ? 'the S3 options' : 'the environment';
  if (!accessKeyId) throw new S3ConfigError(`S3 secret access key given without an access key id (in ${source})`);
  if (!secretAccessKey)
    throw new S3ConfigError(`S3 access key id ${accessKeyId} given without a secret (in ${source})`);
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}
