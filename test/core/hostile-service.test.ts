import { randomUUID } from 'node:crypto';
import { access, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionSchema } from '../../common/settings.ts';
import { ArchiveClient } from '../../main/core/client/archive-client.ts';
import { DesktopApp } from '../../main/core/desktop-app.ts';
import { SessionKeyStore } from '../../main/core/keychain/session-key-store.ts';
import { resolveInside } from '../../main/core/safe-path.ts';
import { openConfBackend } from '../../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../../main/core/settings/settings-store.ts';

/**
 * A hosted service that lies: a small HTTP server on 127.0.0.1 whose answers are crafted per test. Everything the
 * desktop receives from it must be checked before it is used, above all before it becomes part of a local path.
 */
interface HostileService {
  url: string;
  answers: Map<string, { status: number; body: unknown; headers?: Record<string, string> }>;
  close(): Promise<void>;
}

async function startHostileService(): Promise<HostileService> {
  const answers: HostileService['answers'] = new Map();
  const server: Server = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const answer = answers.get(`${req.method} ${path}`) ?? {
      status: 404,
      body: { success: false, error: 'Document not found' },
    };
    const body = Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(JSON.stringify(answer.body));
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...answer.headers,
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A document exactly as the real service describes one (docs/api.md), with `changes` on top. */
function documentRecord(changes: Record<string, unknown> = {}): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    space_id: randomUUID(),
    category_id: null,
    category_name: null,
    status: 'completed',
    title: 'Invoice',
    original_filename: 'invoice.pdf',
    mime_type: 'application/pdf',
    file_format: 'pdf',
    size_bytes: 5,
    sha256: 'a'.repeat(64),
    page_count: 1,
    language: null,
    sender_name: null,
    document_date: null,
    tags: [],
    duplicate_of: null,
    processing_note: null,
    error: null,
    created_at: now,
    updated_at: now,
    processed_at: now,
    deleted_at: null,
    ...changes,
  };
}

const detailOf = (document: Record<string, unknown>) => ({
  success: true,
  document: { ...document, content: '', extracted_data: {}, metadata: null, event_ids: [] },
});

/** Serves a document and its file the way the spec's download flow does (302 to a signed URL, then the bytes). */
const DESKTOP_ENTRY = Buffer.from('[Desktop Entry]\nExec=evil\n');
const PDF_BYTES = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

function serveDocument(
  service: HostileService,
  document: Record<string, unknown>,
  fileName = 'evil.desktop',
  bytes = PDF_BYTES,
): void {
  const id = String(document.id);
  service.answers.set(`GET /v1/documents/${id}`, {
    status: 200,
    body: detailOf({ size_bytes: bytes.length, ...document }),
  });
  service.answers.set(`GET /v1/documents/${id}/download`, {
    status: 302,
    body: {},
    headers: { location: `/signed/${id}` },
  });
  service.answers.set(`GET /signed/${id}`, {
    status: 200,
    body: bytes,
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `attachment; filename="${fileName}"`,
    },
  });
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let service: HostileService;
let dir: string;
beforeAll(async () => {
  service = await startHostileService();
  dir = await mkdtemp(join(tmpdir(), 'hostile-service-'));
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => service.answers.clear());

describe("the archive client parses every answer with the contract's schemas", () => {
  let client: ArchiveClient;
  beforeAll(() => {
    client = new ArchiveClient({ baseUrl: service.url, apiKey: 'das_test', maxAttempts: 1 });
  });
  afterAll(async () => {
    await client.close();
  });

  it('refuses a digest that is a path, naming the request and the field', async () => {
    const document = documentRecord({ sha256: '../../.config/autostart' });
    serveDocument(service, document);
    await expect(client.getDocument(String(document.id))).rejects.toThrow(
      `The service sent an invalid response to GET /v1/documents/${String(document.id)}: document.sha256: expected a SHA-256 digest (64 lower-case hex digits)`,
    );
  });

  it('refuses ids that are not uuids, file names with a path, and impossible sizes, in lists too', async () => {
    const good = documentRecord();
    service.answers.set('GET /v1/documents', {
      status: 200,
      body: {
        success: true,
        total: 4,
        limit: 50,
        offset: 0,
        items: [
          good,
          documentRecord({ id: '../../etc' }),
          documentRecord({ original_filename: '../x.desktop' }),
          documentRecord({ size_bytes: -1 }),
        ],
      },
    });
    const error = await client.listDocuments().then(
      () => null,
      (e: unknown) => e as Error & { status: number },
    );
    expect(error?.message).toBe(
      'The service sent an invalid response to GET /v1/documents: items.1.id: expected a uuid; ' +
        'items.2.original_filename: expected a file name without a path; items.3.size_bytes: expected a size of at least 1 byte',
    );
    expect(error?.status).toBe(502);
  });

  it('refuses an event whose id is not a uuid', async () => {
    service.answers.set('GET /v1/events', {
      status: 200,
      body: { success: true, total: 0, limit: 25, offset: 0, items: [{ id: 7 }] },
    });
    await expect(client.listEvents()).rejects.toThrow(
      /^The service sent an invalid response to GET \/v1\/events: items\.0\.id: /,
    );
  });

  it('takes a well-formed answer as it is', async () => {
    const document = documentRecord();
    serveDocument(service, document);
    expect((await client.getDocument(String(document.id))).sha256).toBe('a'.repeat(64));
  });

  it('takes upload metadata with a field this version does not know, and still checks the fields it knows', async () => {
    const document = documentRecord();
    const id = String(document.id);
    const answer = (metadata: unknown) => ({
      status: 200,
      body: { success: true, document: { ...detailOf(document).document, metadata } },
    });
    service.answers.set(`GET /v1/documents/${id}`, answer({ event_type: 'invoice', workflow: 'approval' }));
    expect((await client.getDocument(id)).metadata).toEqual({ event_type: 'invoice' });
    service.answers.set(`GET /v1/documents/${id}`, answer({ event_type: 'bribe' }));
    await expect(client.getDocument(id)).rejects.toThrow(/document\.metadata\.event_type/);
  });
});

describe('a hosted service cannot make the desktop write outside its directories', () => {
  let app: DesktopApp;
  const opened: string[] = [];
  const appDataDir = () => join(dir, 'home', '.local', 'share', 'desktop-archive');

  beforeAll(async () => {
    const settings = new SettingsStore(openConfBackend({ cwd: join(dir, 'config') }));
    app = await DesktopApp.open({
      appDataDir: appDataDir(),
      settings,
      keys: new SessionKeyStore(),
      apiKeyOverride: 'das_test',
      connection: connectionSchema.parse({ mode: 'hosted', base_url: service.url }),
      previewUrl: (id) => `preview://document/${id}`,
      openPath: async (path) => {
        opened.push(path);
      },
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('refuses a document whose digest would lead the preview cache and the "open" copy out of the app data', async () => {
    const document = documentRecord({ sha256: '../../../../.config/autostart' });
    serveDocument(service, document);
    const id = String(document.id);
    await expect(app.handlers['documents.open']({ id })).rejects.toThrow(
      /invalid response to GET \/v1\/documents\/.*: document\.sha256/,
    );
    await expect(app.handlers['documents.preview']({ id })).rejects.toThrow(
      /document\.sha256: expected a SHA-256 digest/,
    );
    expect(opened).toEqual([]);
    // Where the unchecked digest pointed: <home>/.config/autostart/evil.desktop (and .../autostart/file for the cache).
    expect(await exists(join(dir, 'home', '.config'))).toBe(false);
    expect(await exists(join(dir, 'home', '.local', '.config'))).toBe(false);
    expect(await exists(join(dir, '.config'))).toBe(false);
  });

  it('refuses a document whose file name carries a path', async () => {
    const document = documentRecord({ original_filename: '../../../autostart/evil.desktop' });
    serveDocument(service, document);
    await expect(app.handlers['documents.open']({ id: String(document.id) })).rejects.toThrow(
      /document\.original_filename: expected a file name without a path/,
    );
    expect(opened).toEqual([]);
  });

  it("opens a well-formed document from inside the app data, whatever the download's file name says", async () => {
    const { size_bytes: _size, ...document } = documentRecord();
    serveDocument(service, document, '../../../escape.desktop');
    await app.handlers['documents.open']({ id: String(document.id) });
    expect(opened).toEqual([join(appDataDir(), 'open', 'a'.repeat(64), 'invoice.pdf')]);
    expect(await readdir(join(appDataDir(), 'preview-cache', 'a'.repeat(64)))).toEqual(['file']);
    expect(await exists(join(dir, 'escape.desktop'))).toBe(false);
  });
});

describe("a file leaves the desktop under the extension of its bytes, not of the service's names", () => {
  let app: DesktopApp;
  let client: ArchiveClient;
  const opened: string[] = [];
  const appDataDir = () => join(dir, 'naming', 'app-data');

  beforeAll(async () => {
    const settings = new SettingsStore(openConfBackend({ cwd: join(dir, 'naming', 'config') }));
    app = await DesktopApp.open({
      appDataDir: appDataDir(),
      settings,
      keys: new SessionKeyStore(),
      apiKeyOverride: 'das_test',
      connection: connectionSchema.parse({ mode: 'hosted', base_url: service.url }),
      previewUrl: (id) => `preview://document/${id}`,
      openPath: async (path) => {
        opened.push(path);
      },
    });
    client = new ArchiveClient({ baseUrl: service.url, apiKey: 'das_test' });
  });
  afterAll(async () => {
    await app.stop();
    await client.close();
  });
  afterEach(() => {
    opened.length = 0;
  });

  it('opens a PDF named setup.exe as setup.pdf, and previews it as a PDF whatever mime_type says', async () => {
    const document = documentRecord({
      sha256: 'b'.repeat(64),
      original_filename: 'setup\u202efdp.exe',
      mime_type: 'text/html',
    });
    serveDocument(service, document);
    await app.handlers['documents.open']({ id: String(document.id) });
    expect(opened).toEqual([join(appDataDir(), 'open', 'b'.repeat(64), 'setupfdp.pdf')]);
    expect(await app.previewFile(String(document.id))).toMatchObject({
      mimeType: 'application/pdf',
      fileName: 'setupfdp.pdf',
    });
  });

  it('neither opens nor previews a file whose bytes are no supported format, whatever the record claims', async () => {
    const document = documentRecord({ sha256: 'c'.repeat(64), original_filename: 'invoice.pdf' });
    serveDocument(service, document, 'invoice.pdf', DESKTOP_ENTRY);
    const id = String(document.id);
    await expect(app.handlers['documents.open']({ id })).rejects.toThrow(
      /is in no supported format; it is not shown or opened/,
    );
    await expect(app.previewFile(id)).rejects.toThrow(/no supported format/);
    expect(opened).toEqual([]);
  });

  it('saves a download under the Content-Disposition name with the extension of the bytes received', async () => {
    const target = join(dir, 'naming', 'saved');
    const pdf = documentRecord();
    serveDocument(service, pdf, 'Rechnung.desktop');
    expect((await client.download(String(pdf.id), target)).fileName).toBe('Rechnung.pdf');
    const script = documentRecord();
    serveDocument(service, script, 'autostart.desktop', DESKTOP_ENTRY);
    expect((await client.download(String(script.id), target)).fileName).toBe('autostart.bin');
    expect((await readdir(target)).sort()).toEqual(['Rechnung.pdf', 'autostart.bin']);
  });
});

describe('resolveInside', () => {
  it('joins names below the base directory', () => {
    expect(resolveInside('/data/app', 'open', 'a'.repeat(64), 'x.pdf')).toBe(`/data/app/open/${'a'.repeat(64)}/x.pdf`);
    expect(resolveInside('/data/app/', 'a..b')).toBe('/data/app/a..b');
  });

  it('refuses anything that is not strictly inside it', () => {
    for (const parts of [
      ['..'],
      ['../x'],
      ['open', '../../x'],
      ['/etc/passwd'],
      [''],
      ['.'],
      ['a', '..'],
      ['a\0b'],
      [],
    ]) {
      expect(() => resolveInside('/data/app', ...parts), JSON.stringify(parts)).toThrow(
        /^Refused a file path outside \/data\/app: /,
      );
    }
  });
});
