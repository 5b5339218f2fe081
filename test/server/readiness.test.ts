import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asPostgresAdmin,
  makePdf,
  startHarness,
  testBackend,
  uploadAndProcess,
  type Harness,
} from '../helpers/archive-harness.ts';
import { sharedS3ForTests } from '../helpers/s3-server.ts';

const onPostgres = testBackend() === 'postgres';
const NOT_READY = { success: false, error: 'Not ready: database unreachable' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ presignedDownloads: true });
});
afterAll(async () => {
  await h?.close();
});

describe('GET /v1/ready', () => {
  it('is 200 while the database and the blob store answer', async () => {
    const res = await h.api('/v1/ready', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, status: 'ready' });
  });

  it.skipIf(!onPostgres)(
    'is 503 naming the database while PostgreSQL refuses connections, and 200 again once it takes them',
    async () => {
      const database = new URL(h.databaseUrl!).pathname.slice(1);
      // No new connections, and the service's open ones ended: as when the server is stopped.
      await asPostgresAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
      await asPostgresAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`);
      try {
        const res = await h.api('/v1/ready', { key: null });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toEqual(NOT_READY);
        // Liveness is not readiness: the process still answers.
        expect((await h.api('/v1/health', { key: null })).status).toBe(200);
      } finally {
        await asPostgresAdmin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      }
      expect((await h.api('/v1/ready', { key: null })).status).toBe(200);
    },
  );
});

describe('a download with presignedDownloads', () => {
  it.skipIf(!onPostgres)(
    "redirects to the bucket, and the object arrives with the service's file name and type",
    async () => {
      const bytes = await makePdf('Straight from the bucket');
      const name = 'Rechnung März.pdf';
      const id = await uploadAndProcess(h, { bytes, name });
      const res = await h.api(`/v1/documents/${id}/download`);
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const s3 = sharedS3ForTests();
      if (s3.skipReason !== undefined) throw new Error(s3.skipReason);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin).toBe(s3.endpoint);
      expect(location.pathname).toMatch(new RegExp(`^/${s3.bucket}/.+/[0-9a-f]{64}$`));

      const object = await fetch(location);
      expect(object.status).toBe(200);
      expect(object.headers.get('content-type')).toBe('application/pdf');
      expect(object.headers.get('content-disposition')).toBe(
        `attachment; filename="Rechnung Marz.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
      expect(new Uint8Array(await object.arrayBuffer())).toEqual(bytes);
    },
  );

  it.skipIf(onPostgres)(
    'on the file store, still passes through the service (a store that cannot presign)',
    async () => {
      const id = await uploadAndProcess(h, { bytes: await makePdf('Through the service'), name: 'local.pdf' });
      const res = await h.api(`/v1/documents/${id}/download`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(new RegExp(`^/v1/files/${id}\\?expires=`));
    },
  );
});
