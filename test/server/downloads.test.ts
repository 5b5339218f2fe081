import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '../../server/auth/api-keys.ts';
import { makePdf, PNG_1X1, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';
import { expectError, postMultipart } from '../helpers/http-raw.ts';

// Tests here download and sign documents that are processed first:
// 14-18 s each on a busy CI machine, close to the default 30 s.
vi.setConfig({ testTimeout: 60_000 });

const LIMITS = { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 };
const SIGNED = /^\/v1\/files\/([0-9a-f-]{36})\?expires=(\d+)&key_id=([0-9a-f]{32})&signature=([A-Za-z0-9_-]{43})$/;

let h: Harness;
let pdfBytes: Uint8Array;
let pdfId: string;
beforeAll(async () => {
  h = await startHarness({ limits: LIMITS });
  pdfBytes = await makePdf('Download me');
  pdfId = await uploadAndProcess(h, { bytes: pdfBytes, name: 'invoice.pdf' });
});
afterAll(async () => {
  await h.close();
});

/** The signed URL a download path redirects to (asserting the 302 on the way). */
async function signedUrl(id: string, options: { key?: string; path?: string; harness?: Harness } = {}): Promise<URL> {
  const harness = options.harness ?? h;
  const res = await harness.api(`${options.path ?? '/v1/document'}/${id}/download`, {
    key: options.key ?? harness.adminKey,
  });
  expect(res.status, await res.clone().text()).toBe(302);
  const location = res.headers.get('location')!;
  expect(location).toMatch(SIGNED);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return new URL(location, harness.url);
}

const keyIdOf = (key: string): string => /^das_([0-9a-f]{32})_/.exec(key)![1]!;

describe('download paths', () => {
  it.each(['/v1/document', '/v1/documents'])(
    '%s/:id/download → 302 to a signed URL valid 60 s, bound to the key',
    async (path) => {
      const before = Math.floor(Date.now() / 1000);
      const url = await signedUrl(pdfId, { path });
      const [, id, expires, keyId] = SIGNED.exec(url.pathname + url.search)!;
      expect(id).toBe(pdfId);
      expect(Number(expires) - before).toBeGreaterThanOrEqual(60);
      expect(Number(expires) - before).toBeLessThanOrEqual(61);
      expect(keyId).toBe(keyIdOf(h.adminKey));
    },
  );

  it('following the redirect with the Authorization header yields the original bytes and headers', async () => {
    for (const path of ['/v1/document', '/v1/documents']) {
      const res = await h.api(`${path}/${pdfId}/download`, { redirect: 'follow' });
      expect(res.status).toBe(200);
      expect(res.redirected).toBe(true);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="invoice.pdf"');
      expect(res.headers.get('content-length')).toBe(String(pdfBytes.length));
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdfBytes);
    }
  });

  it('the signed URL works without any Authorization header, more than once within its validity', async () => {
    const url = await signedUrl(pdfId);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdfBytes);
    }
  });

  it('an image keeps its own Content-Type', async () => {
    const bytes = Buffer.concat([PNG_1X1, Buffer.from('tail-for-uniqueness')]);
    const id = await uploadAndProcess(h, { bytes, name: 'scan.png', type: 'image/png' });
    const res = await fetch(await signedUrl(id));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="scan.png"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(bytes));
  });

  it('a non-ASCII file name round-trips in filename* (RFC 5987) with an ASCII fallback', async () => {
    const name = 'Rechnung März – Übersicht.pdf';
    const bytes = await makePdf('Umlaut file name');
    const id = await uploadAndProcess(h, { bytes, name });
    const res = await fetch(await signedUrl(id));
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="Rechnung Marz _ Ubersicht.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    expect(disposition).toMatch(/^[\x20-\x7e]+$/);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!;
    expect(decodeURIComponent(star)).toBe(name);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('a quote never breaks out of the quoted filename', async () => {
    // Raw part header: fetch's FormData would percent-encode the quote itself.
    const res = await postMultipart(h, [
      { name: 'file', filename: 'a\\"b.pdf', contentType: 'application/pdf', value: await makePdf('quoted') },
    ]);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const disposition = (await fetch(await signedUrl(id))).headers.get('content-disposition');
    // A quote is also one of the characters a Windows file name cannot hold (common/download-name.ts).
    expect(disposition).toBe('attachment; filename="a_b.pdf"');
  });
});

describe('download names follow the detected format, not the uploader', () => {
  const FIXTURES = resolve(import.meta.dirname, '../fixtures/formats');
  const dispositionOf = async (bytes: Uint8Array, name: string, type?: string): Promise<string | null> => {
    const res = await postMultipart(h, [
      { name: 'file', filename: name, contentType: type ?? 'application/octet-stream', value: bytes },
    ]);
    expect(res.status, await res.clone().text()).toBe(202);
    const { id } = (await res.json()) as { id: string };
    return (await fetch(await signedUrl(id))).headers.get('content-disposition');
  };

  it('a PDF named setup.exe or run.bat downloads as .pdf, a DOCX named .hta as .docx', async () => {
    expect(await dispositionOf(await makePdf('named exe'), 'setup.exe')).toBe('attachment; filename="setup.pdf"');
    expect(await dispositionOf(await makePdf('named bat'), 'run.bat')).toBe('attachment; filename="run.pdf"');
    const docx = new Uint8Array(await readFile(join(FIXTURES, 'sample.docx')));
    expect(await dispositionOf(docx, 'letter.hta')).toBe('attachment; filename="letter.docx"');
  });

  it('a right-to-left override is gone from the name, in the record and in the download', async () => {
    // "invoice\u202Efdp.exe" shows as "invoiceexe.pdf" where bidi text is rendered.
    const res = await postMultipart(h, [
      { name: 'file', filename: 'invoice\u202Efdp.exe', contentType: 'application/pdf', value: await makePdf('rlo') },
    ]);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const { document } = (await (await h.api(`/v1/documents/${id}`)).json()) as {
      document: { original_filename: string };
    };
    expect(document.original_filename).toBe('invoicefdp.exe');
    expect((await fetch(await signedUrl(id))).headers.get('content-disposition')).toBe(
      'attachment; filename="invoicefdp.pdf"',
    );
  });
});

describe('access to the redirect', () => {
  it('no key → 401; no documents:read → 403; another space → 404; unknown → 404; non-uuid → 400', async () => {
    await expectError(await h.api(`/v1/document/${pdfId}/download`, { key: null }), 401, 'Invalid or missing API key');
    await expectError(
      await h.api(`/v1/document/${pdfId}/download`, { key: await h.createKey({ scopes: ['events:read'] }) }),
      403,
      'Insufficient scope',
    );
    const elsewhere = await h.createKey({ spaces: [await h.createSpace('Elsewhere')] });
    await expectError(await h.api(`/v1/document/${pdfId}/download`, { key: elsewhere }), 404, 'Document not found');
    await expectError(await h.api(`/v1/documents/${crypto.randomUUID()}/download`), 404, 'Document not found');
    await expectError(await h.api('/v1/document/abc/download'), 400, 'Invalid parameter id: expected a uuid');
  });

  it('a viewer key may download', async () => {
    const res = await fetch(
      await signedUrl(pdfId, { key: await h.createKey({ role: 'viewer', scopes: ['documents:read'] }) }),
    );
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe('signed URL tampering', () => {
  const INVALID = 'Invalid or expired download link';

  it('a changed signature → 403', async () => {
    const url = await signedUrl(pdfId);
    const signature = url.searchParams.get('signature')!;
    url.searchParams.set('signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1));
    await expectError(await fetch(url), 403, INVALID);
    url.searchParams.set('signature', signature.slice(0, -2));
    await expectError(await fetch(url), 403, INVALID);
    url.searchParams.delete('signature');
    await expectError(await fetch(url), 403, INVALID);
  });

  it('the signature of one document used for another → 403', async () => {
    const otherId = await uploadAndProcess(h, { bytes: await makePdf('Another document'), name: 'other.pdf' });
    const url = await signedUrl(pdfId);
    const forged = new URL(`/v1/files/${otherId}${url.search}`, h.url);
    await expectError(await fetch(forged), 403, INVALID);
  });

  it('a changed expiry (later or earlier) or key id → 403', async () => {
    const url = await signedUrl(pdfId);
    const expires = Number(url.searchParams.get('expires'));
    for (const changed of [expires + 1, expires + 3600, expires - 1]) {
      const copy = new URL(url);
      copy.searchParams.set('expires', String(changed));
      await expectError(await fetch(copy), 403, INVALID);
    }
    const otherKey = new URL(url);
    otherKey.searchParams.set('key_id', keyIdOf(await h.createKey()));
    await expectError(await fetch(otherKey), 403, INVALID);
    // The untouched URL still works.
    expect((await fetch(url)).status).toBe(200);
  });

  it('a revoked key → 403 for the links it signed', async () => {
    const key = await h.createKey({ name: 'to revoke' });
    const url = await signedUrl(pdfId, { key });
    expect((await fetch(url)).status).toBe(200);
    expect(await revokeApiKey(h.service.db, keyIdOf(key))).toBe(true);
    await expectError(await fetch(url), 403, INVALID);
  });

  it('a deleted document → 404, also for a link signed before the deletion; restored → works again', async () => {
    const id = await uploadAndProcess(h, { bytes: await makePdf('Soon deleted'), name: 'gone.pdf' });
    const url = await signedUrl(id);
    expect((await h.api(`/v1/documents/${id}`, { method: 'DELETE' })).status).toBe(200);
    await expectError(await fetch(url), 404, 'Document not found');
    await expectError(await h.api(`/v1/document/${id}/download`), 404, 'Document not found');
    await expectError(await h.api(`/v1/documents/${id}/download`), 404, 'Document not found');
    expect((await h.api(`/v1/documents/${id}/restore`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
  });

  it('a link whose key lost access to the space → 404', async () => {
    const space = await h.createSpace('Moving');
    const id = await uploadAndProcess(
      h,
      { bytes: await makePdf('Moving document'), name: 'move.pdf' },
      { space_id: space },
    );
    const key = await h.createKey({ spaces: [space] });
    const url = await signedUrl(id, { key });
    await h.db.run('UPDATE api_keys SET spaces = ? WHERE id = ?', JSON.stringify([h.defaultSpaceId]), keyIdOf(key));
    await expectError(await fetch(url), 404, 'Document not found');
  });
});

describe('expiry (downloadUrlTtlSeconds = 1)', () => {
  let short: Harness;
  beforeAll(async () => {
    short = await startHarness({ limits: { ...LIMITS, downloadUrlTtlSeconds: 1 } });
  });
  afterAll(async () => {
    await short.close();
  });

  it('works at once, → 403 once expired', async () => {
    const id = await uploadAndProcess(short, { bytes: await makePdf('Short-lived link'), name: 'short.pdf' });
    const url = await signedUrl(id, { harness: short });
    const expires = Number(url.searchParams.get('expires'));
    expect(expires - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1);
    const fresh = await fetch(url);
    expect(fresh.status).toBe(200);
    await fresh.arrayBuffer();
    await new Promise((r) => setTimeout(r, 2100));
    await expectError(await fetch(url), 403, 'Invalid or expired download link');
    // A new redirect gives a new, valid link.
    expect((await fetch(await signedUrl(id, { harness: short }))).status).toBe(200);
  });
});
