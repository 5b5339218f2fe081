import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveDocumentDetail, Category, ListEnvelope, UploadAccepted } from '../../common/archive-types.ts';
import { MAX_HOLD_MS, UPLOAD_STALL_MS } from '../../server/pipeline/processor.ts';
import { makePdf, PNG_1X1, startHarness, type Harness } from '../helpers/archive-harness.ts';
import {
  expectError,
  expectNothingWritten,
  formatFixture,
  minimalJpeg,
  postMultipart,
  readJson,
  requestHead,
  sendRaw,
  serverState,
  storedZip,
  tiff1x1,
  type ServerState,
} from '../helpers/http-raw.ts';

const LIMITS = { requestsPerWindow: 10_000, uploadsPerWindow: 10_000 };
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ limits: LIMITS });
});
afterAll(async () => {
  await h.close();
});

let textCounter = 0;
/** A PDF no other test uploads (unique bytes, so never a duplicate by accident). */
const uniquePdf = (text = 'Upload test'): Promise<Uint8Array> =>
  makePdf(`${text} #${++textCounter} ${randomBytes(4).toString('hex')}`);

async function getDocument(id: string, key = h.adminKey): Promise<ArchiveDocumentDetail> {
  return (await readJson<{ document: ArchiveDocumentDetail }>(await h.api(`/v1/documents/${id}`, { key }))).document;
}

async function accepted(res: Response): Promise<UploadAccepted> {
  return readJson<UploadAccepted>(res, 202);
}

/** Runs a request that must be rejected and checks that it left nothing behind. */
async function rejected(send: () => Promise<Response>, status: number, error: string): Promise<void> {
  const before: ServerState = await serverState(h);
  await expectError(await send(), status, error);
  await expectNothingWritten(h, before);
}

describe('accepted upload', () => {
  it('answers 202 with id, status, location and a Location header; the record appears and completes with the PDF text', async () => {
    const bytes = await makePdf(['Quarterly statement Zebrafish-4711', 'second line']);
    const res = await h.upload({ bytes, name: 'statement.pdf' });
    expect(res.headers.get('location')).toMatch(/^\/v1\/documents\/[0-9a-f-]{36}$/);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const body = await accepted(res);
    expect(body).toEqual({
      success: true,
      id: expect.stringMatching(UUID_RE),
      status: 'pending',
      duplicate_of: null,
      location: `/v1/documents/${body.id}`,
    });
    expect(res.headers.get('location')).toBe(body.location);

    const early = await getDocument(body.id);
    expect(early.id).toBe(body.id);
    expect(['pending', 'processing', 'completed']).toContain(early.status);
    expect(early.space_id).toBe(h.defaultSpaceId);

    await h.service.processor.idle();
    const done = await getDocument(body.id);
    expect(done).toMatchObject({
      status: 'completed',
      original_filename: 'statement.pdf',
      mime_type: 'application/pdf',
      file_format: 'pdf',
      size_bytes: bytes.length,
      page_count: 1,
      error: null,
      duplicate_of: null,
      deleted_at: null,
    });
    expect(done.content).toContain('Quarterly statement Zebrafish-4711');
    expect(done.content).toContain('second line');
    expect(done.processed_at).not.toBeNull();
  });

  it('applies metadata: title, tags, a category (created in the target space), document_date, sender_name', async () => {
    const space = await h.createSpace('Metadata space');
    const metadata = {
      title: 'Hand-picked title',
      tags: ['Tax', 'home', '2024', 'urgent', 'paper'],
      category: 'Insurance Papers',
      document_date: '2024-03-15',
      sender_name: 'Acme Versicherung AG',
    };
    const { id } = await accepted(
      await h.upload({ bytes: await uniquePdf(), name: 'scan_0001.pdf' }, { space_id: space, metadata }),
    );
    await h.service.processor.idle();
    const doc = await getDocument(id);
    expect(doc).toMatchObject({
      status: 'completed',
      space_id: space,
      title: 'Hand-picked title',
      document_date: '2024-03-15',
      sender_name: 'Acme Versicherung AG',
      category_name: 'Insurance Papers',
      tags: ['2024', 'home', 'paper', 'Tax', 'urgent'],
    });
    expect(doc.metadata).toEqual(metadata);

    const inSpace = await readJson<ListEnvelope<Category>>(await h.api(`/v1/categories?space_id=${space}`));
    expect(inSpace.items.map((c) => [c.id, c.name])).toEqual([[doc.category_id, 'Insurance Papers']]);
    const inDefault = await readJson<ListEnvelope<Category>>(
      await h.api(`/v1/categories?space_id=${h.defaultSpaceId}`),
    );
    expect(inDefault.items.map((c) => c.name)).not.toContain('Insurance Papers');
  });

  it('reuses an existing category of the space by name, case-insensitively', async () => {
    const space = await h.createSpace('Category reuse');
    const created = await readJson<{ category: Category }>(
      await h.api('/v1/categories', { method: 'POST', json: { name: 'Bank', space_id: space } }),
      201,
    );
    const { id } = await accepted(
      await h.upload({ bytes: await uniquePdf(), name: 'b.pdf' }, { space_id: space, metadata: { category: 'bank' } }),
    );
    await h.service.processor.idle();
    expect((await getDocument(id)).category_id).toBe(created.category.id);
  });
});

describe('metadata validation', () => {
  it.each([
    [
      'event_type',
      { event_type: 'bill' },
      'Invalid metadata: event_type must be one of invoice, receipt, contract, policy, notice, payslip, letter, statement, offer, credit_note',
    ],
    ['tags (6 entries)', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'Invalid metadata: tags may have at most 5 entries'],
    ['due_date 2026-02-30', { due_date: '2026-02-30' }, 'Invalid metadata: due_date must be a date YYYY-MM-DD'],
    ['paid_at', { paid_at: '15.03.2024' }, 'Invalid metadata: paid_at must be a date YYYY-MM-DD'],
    ['amount without currency', { amount: { value: 12.5 } }, 'Invalid metadata: amount.currency must be a string'],
    ['unknown field', { colour: 'red' }, 'Invalid metadata: unknown field colour'],
    ['invalid JSON', '{"title":', 'Invalid metadata: not valid JSON'],
    ['not an object', '[1,2]', 'Invalid metadata: metadata must be a JSON object'],
  ])('%s → 400 naming the field, nothing written', async (_name, metadata, message) => {
    const bytes = await uniquePdf();
    await rejected(() => h.upload({ bytes, name: 'm.pdf' }, { metadata }), 400, message);
  });
});

describe('target space and access', () => {
  it('space_id that is not a uuid → 400', async () => {
    const bytes = await uniquePdf();
    await rejected(
      () => h.upload({ bytes, name: 'a.pdf' }, { space_id: 'default' }),
      400,
      'Invalid parameter space_id: expected a uuid',
    );
  });

  it('a key restricted to one space cannot upload to another (existing, unknown or default) space → 403', async () => {
    const mine = await h.createSpace('Mine');
    const other = await h.createSpace('Other');
    const key = await h.createKey({ spaces: [mine] });
    const bytes = await uniquePdf();
    for (const space_id of [other, crypto.randomUUID(), undefined]) {
      await rejected(() => h.upload({ bytes, name: 'a.pdf' }, { space_id, key }), 403, 'Access denied to this space');
    }
    const ok = await accepted(await h.upload({ bytes, name: 'a.pdf' }, { space_id: mine, key }));
    await h.service.processor.idle();
    expect((await getDocument(ok.id)).space_id).toBe(mine);
  });

  it('a viewer key → 403; a key without documents:write → 403 Insufficient scope', async () => {
    const bytes = await uniquePdf();
    const viewer = await h.createKey({ role: 'viewer' });
    await rejected(() => h.upload({ bytes, name: 'a.pdf' }, { key: viewer }), 403, 'Access denied to this space');
    const readOnly = await h.createKey({ scopes: ['documents:read'] });
    await rejected(() => h.upload({ bytes, name: 'a.pdf' }, { key: readOnly }), 403, 'Insufficient scope');
  });

  it('an unknown space for an unrestricted key → 404, nothing written', async () => {
    const bytes = await uniquePdf();
    await rejected(() => h.upload({ bytes, name: 'a.pdf' }, { space_id: crypto.randomUUID() }), 404, 'Space not found');
  });
});

describe('duplicates', () => {
  it('the same file twice: both 202, the second ends skipped with duplicate_of = the first; another space is no duplicate', async () => {
    const space = await h.createSpace('Duplicates');
    const elsewhere = await h.createSpace('Duplicates elsewhere');
    const bytes = await uniquePdf('Duplicate candidate');
    const first = await accepted(await h.upload({ bytes, name: 'one.pdf' }, { space_id: space }));
    await h.service.processor.idle();
    const second = await accepted(await h.upload({ bytes, name: 'two.pdf' }, { space_id: space }));
    expect(second.id).not.toBe(first.id);
    expect(second.duplicate_of).toBe(first.id);
    const third = await accepted(await h.upload({ bytes, name: 'three.pdf' }, { space_id: elsewhere }));
    expect(third.duplicate_of).toBeNull();
    await h.service.processor.idle();

    expect(await getDocument(first.id)).toMatchObject({ status: 'completed', duplicate_of: null });
    expect(await getDocument(second.id)).toMatchObject({
      status: 'skipped',
      duplicate_of: first.id,
      original_filename: 'two.pdf',
    });
    const other = await getDocument(third.id);
    expect(other).toMatchObject({ status: 'completed', duplicate_of: null, space_id: elsewhere });
    expect(other.content).toContain('Duplicate candidate');
  });
});

describe('formats', () => {
  const pngWithTail = (): Uint8Array => Buffer.concat([PNG_1X1, randomBytes(8)]);
  const builtIn: Array<[string, () => Promise<Uint8Array> | Uint8Array, string, string]> = [
    ['pdf', () => uniquePdf(), 'application/pdf', 'x.pdf'],
    ['png', pngWithTail, 'image/png', 'x.png'],
    ['jpeg', () => minimalJpeg(++textCounter), 'image/jpeg', 'x.jpg'],
    ['tiff', () => Buffer.concat([tiff1x1(), randomBytes(4)]), 'image/tiff', 'x.tif'],
  ];
  it.each(builtIn)('%s built in code is accepted with its declared type', async (format, make, type, name) => {
    const { id } = await accepted(await h.upload({ bytes: await make(), name, type }));
    await h.service.processor.idle();
    expect(await getDocument(id)).toMatchObject({ file_format: format, mime_type: type, original_filename: name });
  });

  const office: Array<[string, string]> = [
    ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['odt', 'application/vnd.oasis.opendocument.text'],
    ['ods', 'application/vnd.oasis.opendocument.spreadsheet'],
    ['odp', 'application/vnd.oasis.opendocument.presentation'],
    ['doc', 'application/msword'],
    ['xls', 'application/vnd.ms-excel'],
    ['ppt', 'application/vnd.ms-powerpoint'],
  ];
  for (const [format, type] of office) {
    const bytes = formatFixture(`sample.${format}`);
    it.skipIf(!bytes)(`${format} fixture is accepted with its declared type`, async () => {
      const { id } = await accepted(await h.upload({ bytes: bytes!, name: `sample.${format}`, type }));
      await h.service.processor.idle();
      expect(await getDocument(id)).toMatchObject({ file_format: format, mime_type: type, status: 'completed' });
    });
  }

  const jpegFixture = formatFixture('sample.jpg');
  it.skipIf(!jpegFixture)('a real JPEG fixture is accepted', async () => {
    const { id } = await accepted(await h.upload({ bytes: jpegFixture!, name: 'photo.jpeg', type: 'image/jpeg' }));
    await h.service.processor.idle();
    expect(await getDocument(id)).toMatchObject({ file_format: 'jpeg', mime_type: 'image/jpeg' });
  });

  it('application/octet-stream and a part without Content-Type count as undeclared and are accepted', async () => {
    const a = await accepted(
      await h.upload({ bytes: await uniquePdf(), name: 'a.pdf', type: 'application/octet-stream' }),
    );
    const b = await accepted(await postMultipart(h, [{ name: 'file', filename: 'b.png', value: pngWithTail() }]));
    await h.service.processor.idle();
    expect(await getDocument(a.id)).toMatchObject({ file_format: 'pdf', mime_type: 'application/pdf' });
    expect(await getDocument(b.id)).toMatchObject({ file_format: 'png', mime_type: 'image/png' });
  });

  it('a declared type with parameters and other case still matches', async () => {
    const { id } = await accepted(
      await postMultipart(h, [
        { name: 'file', filename: 'c.pdf', contentType: 'Application/PDF; name="c.pdf"', value: await uniquePdf() },
      ]),
    );
    await h.service.processor.idle();
    expect((await getDocument(id)).file_format).toBe('pdf');
  });
});

describe('rejected content', () => {
  it('a PDF renamed to PNG (declared image/png) → 400 Content-Type mismatch', async () => {
    const bytes = await uniquePdf();
    await rejected(() => h.upload({ bytes, name: 'invoice.png', type: 'image/png' }), 400, 'Content-Type mismatch');
  });

  it('a PNG declared as application/pdf → 400 Content-Type mismatch', async () => {
    await rejected(
      () => h.upload({ bytes: PNG_1X1, name: 'x.pdf', type: 'application/pdf' }),
      400,
      'Content-Type mismatch',
    );
  });

  const docx = formatFixture('sample.docx');
  it.skipIf(!docx)('a docx declared as application/msword → 400 Content-Type mismatch', async () => {
    await rejected(
      () => h.upload({ bytes: docx!, name: 'x.doc', type: 'application/msword' }),
      400,
      'Content-Type mismatch',
    );
  });

  it.each([
    ['unknown bytes', () => Buffer.from('just some text, no signature at all\n'.repeat(40))],
    ['random bytes', () => randomBytes(4096)],
    [
      'a plain zip that is not an Office file',
      () =>
        storedZip([
          { name: 'notes.txt', data: 'hello' },
          { name: 'img/a.png', data: PNG_1X1 },
        ]),
    ],
    ['a zip holding a PDF', () => storedZip([{ name: 'doc.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n') }])],
    ['a truncated PNG signature', () => PNG_1X1.subarray(0, 4)],
  ])('%s → 400 File content does not match any supported format', async (_name, make) => {
    const bytes = make();
    for (const type of ['application/octet-stream', 'application/zip']) {
      await rejected(
        () => h.upload({ bytes, name: 'x.bin', type }),
        400,
        'File content does not match any supported format',
      );
    }
  });

  it('an empty file → 400, nothing written', async () => {
    await rejected(
      () => h.upload({ bytes: new Uint8Array(0), name: 'empty.pdf' }),
      400,
      'File content does not match any supported format',
    );
  });

  it('a request that is not multipart → 400', async () => {
    await rejected(
      () => h.api('/v1/documents', { method: 'POST', json: { file: 'x' } }),
      400,
      'Expected multipart/form-data with a file field',
    );
  });
});

describe('size limit (maxUploadBytes = 1 MiB)', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness({ limits: { ...LIMITS, maxUploadBytes: 1024 * 1024 } });
  });
  afterAll(async () => {
    await small.close();
  });

  const bigFile = (size: number, head: Uint8Array = Buffer.from('%PDF-1.4\n')): Uint8Array => {
    const bytes = randomBytes(size);
    bytes.set(head, 0);
    return bytes;
  };
  const bigPdf = (size: number): Uint8Array => bigFile(size);

  it('2 MiB with a known Content-Length → 413 before the body is read (the rest is discarded, early-answers.test.ts)', async () => {
    const before = await serverState(small);
    const res = await small.upload({ bytes: bigPdf(2 * 1024 * 1024), name: 'big.pdf' });
    await expectError(res, 413, 'File exceeds the 50 MB limit');
    await expectNothingWritten(small, before);
  });

  it('a file just over the limit inside a body under the framing allowance → 413 while streaming', async () => {
    const before = await serverState(small);
    await expectError(
      await small.upload({ bytes: bigPdf(1024 * 1024 + 1), name: 'big.pdf' }),
      413,
      'File exceeds the 50 MB limit',
    );
    await expectNothingWritten(small, before);
  });

  it('exactly the limit is accepted', async () => {
    // A PNG head: the pipeline does not parse images, so this stays fast.
    const { id } = await accepted(
      await small.upload({ bytes: bigFile(1024 * 1024, PNG_1X1.subarray(0, 8)), name: 'edge.png', type: 'image/png' }),
    );
    await small.service.processor.idle();
    const doc = (await readJson<{ document: ArchiveDocumentDetail }>(await small.api(`/v1/documents/${id}`))).document;
    expect(doc.size_bytes).toBe(1024 * 1024);
  });

  it('2 MiB chunked (no Content-Length upfront) → 413', async () => {
    const before = await serverState(small);
    const boundary = 'chunked-boundary-91';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = (data: Uint8Array): Buffer =>
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    const file = bigPdf(2 * 1024 * 1024);
    const parts: Uint8Array[] = [
      Buffer.from(
        requestHead('POST', '/v1/documents', {
          Authorization: `Bearer ${small.adminKey}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Transfer-Encoding': 'chunked',
        }),
      ),
      chunk(head),
    ];
    for (let at = 0; at < file.length; at += 64 * 1024) parts.push(chunk(file.subarray(at, at + 64 * 1024)));
    parts.push(chunk(tail), Buffer.from('0\r\n\r\n'));
    const { response } = await sendRaw(small.url, parts);
    expect(response?.status).toBe(413);
    expect(JSON.parse(response!.body)).toEqual({ success: false, error: 'File exceeds the 50 MB limit' });
    await expectNothingWritten(small, before);
  });

  it('2 MiB streamed by fetch (ReadableStream body, chunked) → 413', async () => {
    const before = await serverState(small);
    const boundary = 'stream-boundary-42';
    const file = bigPdf(2 * 1024 * 1024);
    const pieces = [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await fetch(`${small.url}/v1/documents`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        Authorization: `Bearer ${small.adminKey}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
    } as RequestInit & { duplex: 'half' });
    await expectError(res, 413, 'File exceeds the 50 MB limit');
    await expectNothingWritten(small, before);
  });
});

describe('filenames', () => {
  it.each([
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['..\\..\\x.pdf', 'x.pdf'],
    ['/absolute/path/report.pdf', 'report.pdf'],
    ['C:\\Users\\me\\Desktop\\scan.pdf', 'scan.pdf'],
  ])('%s is stored as %s (fetch FormData)', async (name, stored) => {
    const { id } = await accepted(await h.upload({ bytes: await uniquePdf(), name }));
    expect((await getDocument(id)).original_filename).toBe(stored);
  });

  it.each([
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['..\\..\\x.pdf', 'x.pdf'],
    ['....//....//y.pdf', 'y.pdf'],
  ])('%s is stored as %s (raw part header)', async (filename, stored) => {
    const { id } = await accepted(
      await postMultipart(h, [{ name: 'file', filename, contentType: 'application/pdf', value: await uniquePdf() }]),
    );
    expect((await getDocument(id)).original_filename).toBe(stored);
  });

  it('a name that is nothing but path gets a fallback name by format', async () => {
    const { id } = await accepted(
      await postMultipart(h, [{ name: 'file', filename: '../..', value: await uniquePdf() }]),
    );
    expect((await getDocument(id)).original_filename).toBe('upload.pdf');
  });

  it('a non-ASCII name is kept as sent', async () => {
    const name = 'Rechnung März – Übersicht.pdf';
    const { id } = await accepted(await h.upload({ bytes: await uniquePdf(), name }));
    expect((await getDocument(id)).original_filename).toBe(name);
  });
});

describe('a stalled upload', () => {
  it('does not hold processing back: while one trickles its body, other uploads are processed as usual', async () => {
    const boundary = 'trickle-boundary';
    const socket = connect({ host: '127.0.0.1', port: h.service.port });
    socket.on('error', () => undefined);
    try {
      socket.write(
        requestHead('POST', '/v1/documents', {
          Authorization: `Bearer ${h.adminKey}`,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': 1_000_000,
        }),
      );
      socket.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n\r\n%PDF-1.4\n`,
      );
      const trickle = setInterval(() => socket.write('x'), 100);
      socket.once('close', () => clearInterval(trickle));
      // Past the start, which holds processing back like any upload's.
      await new Promise((resolve) => setTimeout(resolve, UPLOAD_STALL_MS + 100));

      const ids = [
        (await accepted(await h.upload({ bytes: await uniquePdf('beside a trickle'), name: 'a.pdf' }))).id,
        (await accepted(await h.upload({ bytes: await uniquePdf('beside a trickle'), name: 'b.pdf' }))).id,
      ];
      // Held back, the second job would wait for a second MAX_HOLD_MS turn (one job per turn goes through).
      const deadline = performance.now() + MAX_HOLD_MS;
      while (
        performance.now() < deadline &&
        !(await Promise.all(ids.map((id) => getDocument(id)))).every((d) => d.status === 'completed')
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await Promise.all(ids.map((id) => getDocument(id)))).map((d) => d.status)).toEqual([
        'completed',
        'completed',
      ]);
    } finally {
      socket.destroy();
    }
  });
});
