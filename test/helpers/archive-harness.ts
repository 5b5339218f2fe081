import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The SQLite connection behind a service's database, for tests that look at SQLite itself. */
export function sqliteOf(db: Sql): DatabaseSync {
  if (!(db instanceof SqliteSql)) throw new Error(`A SQLite database was expected, not ${db.dialect}`);
  return db.raw;
}

/** A real Archive Service on 127.0.0.1 with a fresh data directory, plus helpers to talk to it. */
export interface Harness {
  service: RunningArchiveService;
  /** The SQLite connection behind the service, for tests that look at (or seed) the database directly. */
  sqlite: DatabaseSync;
  dataDir: string;
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
  /** fetch against the service with the given key (admin key by default; null sends no Authorization). */
  api(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<Response>;
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
  const service = await startArchiveService({ workers: 1, ...options, dataDir });
  const db = service.db;
  if (!(db instanceof SqliteSql)) throw new Error('The test harness runs the service on SQLite');
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
    const { key = adminKey, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== null) headers.set('Authorization', `Bearer ${key}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return fetch(service.url + path, {
      ...rest,
      headers,
      redirect: rest.redirect ?? 'manual',
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  return {
    service,
    sqlite: db.raw,
    dataDir,
    url: service.url,
    defaultSpaceId,
    adminKey,
    createKey,
    api,
    async createSpace(name) {
      const id = crypto.randomUUID();
      await db.run('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)', id, name, nowIso());
      return id;
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
      await service.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
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
