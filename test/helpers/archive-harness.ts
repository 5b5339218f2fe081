import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { SCOPES, type Role, type Scope } from '../../common/archive-types.ts';
import {
  startArchiveService,
  type ArchiveServiceOptions,
  type RunningArchiveService,
} from '../../server/archive-service.ts';
import { createApiKey } from '../../server/auth/api-keys.ts';
import type { DatabaseSync } from 'node:sqlite';
import { nowIso, type Sql } from '../../server/db/sql.ts';
import { SqliteSql } from '../../server/db/sqlite-sql.ts';
import { contentKey } from '../../server/storage/blob-storage.ts';
import { BlobStore } from '../../server/storage/blob-store.ts';
import pg from 'pg';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';
import { freshDatabase, POSTGRES_URL_ENV, postgresForTests, type TestDatabase } from './postgres.ts';
import { sharedS3ForTests } from './s3-server.ts';

/**
 * Which back end this test run's harnesses use: ARCHIVE_TEST_BACKEND, set by vitest.config.ts's projects. 'sqlite'
 * (the default): SQLite and the file tree in the data directory. 'postgres': PostgreSQL and S3 (s3rver), each harness
 * with a database and a key prefix of its own.
 */
export type TestBackend = 'sqlite' | 'postgres';
export const TEST_BACKEND_ENV = 'ARCHIVE_TEST_BACKEND';

export function testBackend(): TestBackend {
  const backend = process.env[TEST_BACKEND_ENV] ?? 'sqlite';
  if (backend !== 'sqlite' && backend !== 'postgres') {
    throw new Error(`${TEST_BACKEND_ENV} must be sqlite or postgres, not ${JSON.stringify(backend)}`);
  }
  return backend;
}

/** Runs `sql` on the test cluster's maintenance database as its superuser (create, drop, lock out databases). */
export async function asPostgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env[POSTGRES_URL_ENV] });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Why this run cannot test the PostgreSQL + S3 back end, or undefined when it can. */
export function postgresBackendSkipReason(): string | undefined {
  const s3 = sharedS3ForTests();
  return postgresForTests().skipReason ?? s3.skipReason;
}

/** The SQLite connection behind a service's database, for tests that look at SQLite itself. */
export function sqliteOf(db: Sql): DatabaseSync {
  if (!(db instanceof SqliteSql)) throw new Error(`A SQLite database was expected, not ${db.dialect}`);
  return db.raw;
}

/** A real Archive Service on 127.0.0.1 with a fresh data directory, plus helpers to talk to it. */
export interface Harness {
  service: RunningArchiveService;
  /** The service's database, on either back end, for tests that look at (or seed) rows directly. */
  db: Sql;
  /** The SQLite connection behind the service, for tests about SQLite itself (throws on the PostgreSQL back end). */
  readonly sqlite: DatabaseSync;
  dataDir: string;
  /** The PostgreSQL URL of the service's database; null on SQLite (the archive in dataDir). */
  databaseUrl: string | null;
  url: string;
  defaultSpaceId: string;
  /** A key with every scope on every space, editor. */
  adminKey: string;
  createKey(options?: {
    role?: Role;
    scopes?: readonly Scope[];
    spaces?: readonly string[] | null;
    name?: string;
  }): Promise<string>;
  createSpace(name: string): Promise<string>;
  /** Puts other bytes where the stored file `sha256` is (as a damaged or repaired store would have them). */
  overwriteStoredFile(sha256: string, bytes: Uint8Array): Promise<void>;
  /** How many files the blob store holds (the file tree's files, or the objects under the harness's S3 prefix). */
  storedFileCount(): Promise<number>;
  /** fetch against the service with the given key (admin key by default; null sends no Authorization). */
  /**
   * fetch against the service with the given key (admin key by default; null sends no Authorization); `direct` goes
   * to the first instance itself rather than through the balancer (what one instance does on its own).
   */
  api(path: string, init?: RequestInit & { key?: string | null; json?: unknown; direct?: boolean }): Promise<Response>;
  upload(
    file: { bytes: Uint8Array; name: string; type?: string },
    fields?: { space_id?: string; metadata?: unknown; key?: string | null },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Limits out of the way for tests that run desktop agents against the harness, with two details an ArchiveClient needs
 * to learn them from the RateLimit headers: a 1 s window (a fresh client keeps the spec's 10 uploads per window until
 * the first window it saw has ended; with the default 60 s each agent start would crawl for a minute), and two
 * different numbers (an upload's headers describe the tighter limit; with equal numbers the client cannot tell which,
 * and keeps the spec's 10 uploads).
 */
export const LEARNABLE_HIGH_LIMITS = { uploadsPerWindow: 100_000, requestsPerWindow: 200_000, windowMs: 1000 };

export async function startHarness(options: Partial<ArchiveServiceOptions> = {}): Promise<Harness> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'archive-test-')));
  const backend = options.database === undefined ? await harnessBackend() : null;
  let service: RunningArchiveService;
  const peers: Array<{ instance: RunningArchiveService; dataDir: string }> = [];
  let balancer: RoundRobinProxy | null = null;
  try {
    service = await startArchiveService({ workers: 1, ...backend?.options, ...options, dataDir });
    // On PostgreSQL + S3 the archive is served by several instances behind a round-robin balancer, as an organisation
    // runs it (docs/deploy.md): the first processes, the others only serve; every request may reach any of them.
    for (let i = 1; i < (backend ? harnessInstances() : 1); i++) {
      const peerDir = await mkdtemp(join(tmpdir(), 'archive-test-peer-'));
      const instance = await startArchiveService({ ...backend!.options, ...options, workers: 0, dataDir: peerDir });
      peers.push({ instance, dataDir: peerDir });
    }
    if (peers.length > 0) balancer = await startRoundRobinProxy([service.url, ...peers.map((p) => p.instance.url)]);
  } catch (error) {
    await Promise.allSettled(peers.map((peer) => peer.instance.close()));
    backend?.s3.client.destroy();
    await backend?.database.drop();
    throw error;
  }
  const url = balancer?.url ?? service.url;
  const db = service.db;
  const createKey: Harness['createKey'] = async (o = {}) =>
    (
      await createApiKey(db, {
        name: o.name ?? 'test',
        role: o.role ?? 'editor',
        scopes: o.scopes ?? [...SCOPES],
        spaces: o.spaces ?? null,
      })
    ).key;
  const adminKey = await createKey({ name: 'admin' });
  const defaultSpaceId = (await db.get<{ id: string }>('SELECT id FROM spaces WHERE is_default = 1'))!.id;
  const api: Harness['api'] = (path, init = {}) => {
    const { key = adminKey, json, direct = false, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== null) headers.set('Authorization', `Bearer ${key}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return fetch((direct ? service.url : url) + path, {
      ...rest,
      headers,
      redirect: rest.redirect ?? 'manual',
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  return {
    service,
    db,
    get sqlite() {
      return sqliteOf(db);
    },
    dataDir,
    databaseUrl: options.database ?? backend?.database.url ?? null,
    url,
    defaultSpaceId,
    adminKey,
    createKey,
    api,
    async createSpace(name) {
      const id = crypto.randomUUID();
      await db.run('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)', id, name, nowIso());
      return id;
    },
    async overwriteStoredFile(sha256, bytes) {
      if (!backend) {
        await writeFile(new BlobStore(dataDir).pathOf(sha256), bytes);
        return;
      }
      const { bucket, prefix } = backend.s3;
      await backend.s3.client.send(
        new PutObjectCommand({ Bucket: bucket, Key: `${prefix}/${contentKey(sha256)}`, Body: bytes }),
      );
    },
    async storedFileCount() {
      if (!backend) {
        const entries = await readdir(join(dataDir, 'files'), { recursive: true, withFileTypes: true });
        return entries.filter((e) => e.isFile()).length;
      }
      const { bucket, prefix } = backend.s3;
      let count = 0;
      let token: string | undefined;
      do {
        const page = await backend.s3.client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
        );
        count += page.KeyCount ?? 0;
        token = page.NextContinuationToken;
      } while (token);
      return count;
    },
    upload(file, fields = {}) {
      const form = new FormData();
      form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/pdf' }), file.name);
      if (fields.space_id !== undefined) form.append('space_id', fields.space_id);
      if (fields.metadata !== undefined)
        form.append(
          'metadata',
          typeof fields.metadata === 'string' ? fields.metadata : JSON.stringify(fields.metadata),
        );
      return api('/v1/documents', {
        method: 'POST',
        body: form,
        key: fields.key === undefined ? adminKey : fields.key,
      });
    },
    async close() {
      try {
        await balancer?.close();
        await Promise.all([service, ...peers.map((peer) => peer.instance)].map((instance) => instance.close()));
      } finally {
        await Promise.all(peers.map((peer) => rm(peer.dataDir, { recursive: true, force: true })));
        backend?.s3.client.destroy();
        await backend?.database.drop();
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Instances serving one archive on PostgreSQL + S3 (ARCHIVE_TEST_INSTANCES, default 3); SQLite is served by one. */
export function harnessInstances(): number {
  const value = Number(process.env.ARCHIVE_TEST_INSTANCES ?? 3);
  if (!Number.isInteger(value) || value < 1) throw new Error(`ARCHIVE_TEST_INSTANCES must be a positive integer`);
  return value;
}

/**
 * The PostgreSQL + S3 settings of a harness on that back end: a new database (dropped at close) and a key prefix of
 * its own in the run's bucket; null on SQLite.
 */
async function harnessBackend(): Promise<HarnessBackend | null> {
  if (testBackend() === 'sqlite') return null;
  const s3 = sharedS3ForTests();
  if (s3.skipReason !== undefined) throw new Error(`No S3 server for the PostgreSQL back end: ${s3.skipReason}`);
  const database = await freshDatabase();
  const credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
  return {
    database,
    options: {
      database: database.url,
      blobs: `s3://${s3.bucket}/${database.name}`,
      s3: { endpoint: s3.endpoint, ...credentials },
    },
    // The test's own view of the bucket, to look at or damage what the service stored.
    s3: {
      bucket: s3.bucket,
      prefix: database.name,
      client: new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials }),
    },
  };
}

interface HarnessBackend {
  options: Partial<ArchiveServiceOptions>;
  database: TestDatabase;
  s3: { bucket: string; prefix: string; client: S3Client };
}

/** A one-page PDF with a real text layer (pdf-lib, standard font: Latin-1 text only). */
export async function makePdf(lines: string[] | string = 'Test document'): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  (Array.isArray(lines) ? lines : [lines]).forEach((line, i) =>
    page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font }),
  );
  return pdf.save();
}

/** Smallest valid PNG (1×1). */
export const PNG_1X1 = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** Uploads and waits until processing has finished; returns the new document id. */
export async function uploadAndProcess(
  h: Harness,
  file: { bytes: Uint8Array; name: string; type?: string },
  fields?: { space_id?: string; metadata?: unknown },
): Promise<string> {
  const res = await h.upload(file, fields);
  if (res.status !== 202) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  await h.service.processor.idle();
  return id;
}
