import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../server/auth/api-keys.ts';
import { SERVER_NODE_FLAGS } from '../../server/gc-tuning.ts';
import type { ArchiveDocument, KeyInfo } from '../../common/archive-types.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ARCHIVE_CLI = join(ROOT, 'server/cli/archive.ts');
const SERVER_CLI = join(ROOT, 'server/cli/server.ts');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

let scratch = '';

/**
 * Runs a CLI with the Node running this test (the pinned Node 24: it strips the TypeScript types).
 * ARCHIVE_DATA_DIR points into the scratch dir so a call without --data-dir can never touch a real archive.
 */
function run(script: string, args: string[]): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ARCHIVE_DATA_DIR: join(scratch, 'env-default') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}
const archive = (dataDir: string, ...args: string[]) => run(ARCHIVE_CLI, ['--data-dir', dataDir, ...args]);

async function archiveJson<T>(dataDir: string, ...args: string[]): Promise<T> {
  const result = await archive(dataDir, '--json', ...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'archive-cli-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('archive CLI', () => {
  let dataDir = '';
  let h: Harness;
  let spaceId = '';
  let defaultSpaceId = '';

  beforeAll(async () => {
    dataDir = join(scratch, 'archive');
    const spaces = await archiveJson<Array<{ id: string; name: string; is_default: boolean }>>(
      dataDir,
      'spaces',
      'list',
    );
    expect(spaces).toEqual([
      {
        id: expect.any(String),
        name: 'Default',
        is_default: true,
        created_at: expect.any(String),
        ocr_languages: null,
      },
    ]);
    defaultSpaceId = spaces[0]!.id;
    // The service runs on the same directory while the CLI administers it.
    h = await startHarness({ dataDir, limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a fresh data dir has exactly one default space, the one the service uses', () => {
    expect(h.defaultSpaceId).toBe(defaultSpaceId);
  });

  it('spaces create and spaces list', async () => {
    const created = await archiveJson<{ id: string; name: string }>(dataDir, 'spaces', 'create', 'Familie', 'Müller');
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Familie Müller',
      ocr_languages: null,
    });
    spaceId = created.id;
    const [spaces, text] = await Promise.all([
      archiveJson<Array<{ id: string; name: string; is_default: boolean }>>(dataDir, 'spaces', 'list'),
      archive(dataDir, 'spaces', 'list'),
    ]);
    expect(spaces.map((s) => [s.id, s.name, s.is_default])).toEqual([
      [defaultSpaceId, 'Default', true],
      [spaceId, 'Familie Müller', false],
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${defaultSpaceId}  Default  (default)`);
    expect(text.stdout).toContain(`${spaceId}  Familie Müller`);
    // The running service sees the new space at once.
    const listed = await json<{ items: Array<{ id: string }> }>(await h.api('/v1/spaces'));
    expect(listed.items.map((s) => s.id)).toContain(spaceId);
  });

  it('OCR languages per space: spaces create --ocr-languages, spaces set-ocr, spaces list, GET /v1/spaces', async () => {
    type SpaceJson = { id: string; name: string; ocr_languages: string[] | null };
    const created = await archiveJson<SpaceJson>(
      dataDir,
      'spaces',
      'create',
      'Office',
      '--ocr-languages',
      'ENG, deu,eng',
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Office',
      ocr_languages: ['eng', 'deu'],
    });
    const apiSpaces = async () => (await json<{ items: SpaceJson[] }>(await h.api('/v1/spaces'))).items;
    expect((await apiSpaces()).find((s) => s.id === created.id)?.ocr_languages).toEqual(['eng', 'deu']);

    const setText = await archive(dataDir, 'spaces', 'set-ocr', created.id, '--ocr-languages', 'eng');
    expect(setText.code, setText.stderr).toBe(0);
    expect(setText.stdout).toContain(`Space ${created.id}: OCR languages eng`);
    const [list, listText] = await Promise.all([
      archiveJson<SpaceJson[]>(dataDir, 'spaces', 'list'),
      archive(dataDir, 'spaces', 'list'),
    ]);
    expect(list.find((s) => s.id === created.id)?.ocr_languages).toEqual(['eng']);
    expect(list.find((s) => s.id === defaultSpaceId)?.ocr_languages).toBeNull();
    expect(listText.stdout).toContain(`${created.id}  Office  ocr=eng`);
    expect(listText.stdout).toContain(`${defaultSpaceId}  Default  (default)  ocr=default (deu,eng,fra,nld,spa,ita)`);
    // The running service reads the space as it is now.
    expect((await apiSpaces()).find((s) => s.id === created.id)?.ocr_languages).toEqual(['eng']);

    const reset = await archiveJson<SpaceJson>(dataDir, 'spaces', 'set-ocr', created.id, '--ocr-languages', 'default');
    expect(reset).toEqual({ id: created.id, ocr_languages: null });
    expect((await apiSpaces()).find((s) => s.id === created.id)?.ocr_languages).toBeNull();

    const before = await archiveJson<SpaceJson[]>(dataDir, 'spaces', 'list');
    const unknownSpace = crypto.randomUUID();
    const [createPol, setPol, setEmpty, setNone, setUnknown, setNoId, fraJson] = await Promise.all([
      archive(dataDir, 'spaces', 'create', 'Polish', '--ocr-languages', 'pol'),
      archive(dataDir, 'spaces', 'set-ocr', created.id, '--ocr-languages', 'deu,pol'),
      archive(dataDir, 'spaces', 'set-ocr', created.id, '--ocr-languages', ' , '),
      archive(dataDir, 'spaces', 'set-ocr', created.id),
      archive(dataDir, 'spaces', 'set-ocr', unknownSpace, '--ocr-languages', 'deu'),
      archive(dataDir, 'spaces', 'set-ocr', '--ocr-languages', 'deu'),
      archive(dataDir, '--json', 'spaces', 'set-ocr', created.id, '--ocr-languages', 'osd'),
    ]);
    const expectations: Array<[Run, RegExp]> = [
      [createPol, /Unknown OCR language "pol"; installed: deu, eng, fra, nld, spa, ita/],
      [setPol, /Unknown OCR language "pol"; installed: deu, eng, fra, nld, spa, ita/],
      [setEmpty, /--ocr-languages needs at least one language/],
      [setNone, /spaces set-ocr needs --ocr-languages/],
      [setUnknown, new RegExp(`No space with id ${unknownSpace}`)],
      [setNoId, /spaces set-ocr needs a space ID/],
      [fraJson, /Unknown OCR language "osd"/],
    ];
    for (const [out, message] of expectations) {
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toMatch(message);
      expect(out.stderr).not.toMatch(/^\s+at /m);
    }
    expect(JSON.parse(fraJson.stdout)).toEqual({ error: expect.stringMatching(/^Unknown OCR language "osd"/) });
    // Nothing changed: no new space, the setting as it was.
    expect(await archiveJson<SpaceJson[]>(dataDir, 'spaces', 'list')).toEqual(before);
  });

  it('keys create / list / revoke against the running service', async () => {
    const inSpace = await h.upload(
      { bytes: await makePdf('In the family space'), name: 'family.pdf' },
      { space_id: spaceId },
    );
    const inDefault = await h.upload({ bytes: await makePdf('In the default space'), name: 'default.pdf' });
    expect([inSpace.status, inDefault.status]).toEqual([202, 202]);
    const familyDoc = (await json<{ id: string }>(inSpace)).id;
    await h.service.processor.idle();

    const created = await archiveJson<ApiKeyRecord & { key: string }>(
      dataDir,
      'keys',
      'create',
      '--scopes',
      'documents:read',
      '--spaces',
      spaceId,
      '--role',
      'viewer',
      '--name',
      'x',
    );
    expect(created).toMatchObject({
      name: 'x',
      role: 'viewer',
      scopes: ['documents:read'],
      spaces: [spaceId],
      revoked_at: null,
    });
    expect(created.key).toMatch(/^das_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(created.key.split('_')[1]).toBe(created.id);
    const key = created.key;

    // Works, and is restricted exactly as asked.
    const me = await json<{ key: KeyInfo }>(await h.api('/v1/me', { key }));
    expect(me.key).toEqual({
      id: created.id,
      name: 'x',
      role: 'viewer',
      scopes: ['documents:read'],
      spaces: [spaceId],
    });
    const docs = await json<{ items: ArchiveDocument[] }>(await h.api('/v1/documents', { key }));
    expect(docs.items.map((d) => d.id)).toEqual([familyDoc]);
    expect((await h.api('/v1/events', { key })).status).toBe(403);
    const upload = await h.upload({ bytes: await makePdf('Viewer tries'), name: 'v.pdf' }, { key, space_id: spaceId });
    expect(upload.status).toBe(403);
    expect((await json<{ error: string }>(upload)).error).toBe('Insufficient scope');

    // keys list never shows a secret, in either output form.
    const secret = key.slice('das_'.length + 32 + 1); // base64url: the secret itself may contain '_'
    expect(secret).toHaveLength(43);
    const [listJson, listText] = await Promise.all([
      archive(dataDir, '--json', 'keys', 'list'),
      archive(dataDir, 'keys', 'list'),
    ]);
    for (const out of [listJson, listText]) {
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(created.id);
      expect(out.stdout).not.toContain(secret);
      expect(out.stdout).not.toMatch(/secret|hash/i);
    }
    const listed = JSON.parse(listJson.stdout) as ApiKeyRecord[];
    expect(listed.find((k) => k.id === created.id)).toMatchObject({
      name: 'x',
      revoked_at: null,
      last_used_at: expect.any(String),
    });

    // Revoked: 401 at once, while the service keeps running for everyone else.
    const revoked = await archive(dataDir, 'keys', 'revoke', created.id);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked key ${created.id}`);
    const refused = await h.api('/v1/documents', { key });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ success: false, error: 'Invalid or missing API key' });
    expect((await h.api('/v1/documents')).status).toBe(200);
    const after = await archiveJson<ApiKeyRecord[]>(dataDir, 'keys', 'list');
    expect(after.find((k) => k.id === created.id)?.revoked_at).toEqual(expect.any(String));
  });

  it('keys create prints the key once in text form too', async () => {
    const out = await archive(dataDir, 'keys', 'create', '--name', 'text form', '--scopes', 'search,spaces:read');
    expect(out.code, out.stderr).toBe(0);
    const key = /das_[0-9a-f]{32}_[A-Za-z0-9_-]{43}/.exec(out.stdout)?.[0];
    expect(key).toBeDefined();
    const me = await json<{ key: KeyInfo }>(await h.api('/v1/me', { key: key! }));
    expect(me.key).toMatchObject({
      name: 'text form',
      role: 'editor',
      scopes: ['search', 'spaces:read'],
      spaces: null,
    });
  });

  it('--help exits 0', async () => {
    const [help, keysHelp, spacesHelp] = await Promise.all([
      run(ARCHIVE_CLI, ['--help']),
      run(ARCHIVE_CLI, ['keys', 'create', '-h']),
      run(ARCHIVE_CLI, ['spaces', 'set-ocr', '--help']),
    ]);
    for (const out of [help, keysHelp, spacesHelp]) {
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/^Usage: /);
    }
    expect(help.stdout).toContain('keys revoke ID');
    expect(help.stdout).toContain('spaces set-ocr ID --ocr-languages LIST');
    expect(keysHelp.stdout).toContain('--scopes');
    expect(spacesHelp.stdout).toContain('spaces create NAME [--ocr-languages LIST]');
    expect(spacesHelp.stdout).toMatch(/--ocr-languages LIST .*\n.*\n\s+\(deu, eng, fra, nld, spa, ita\)/);
  });

  it('mistakes exit non-zero with a clear message', async () => {
    const unknownSpace = crypto.randomUUID();
    const [command, scope, space, role, noName, revokeUnknown, option, nothing] = await Promise.all([
      archive(dataDir, 'frobnicate'),
      archive(dataDir, 'keys', 'create', '--scopes', 'documents:read,documents:reed'),
      archive(dataDir, 'keys', 'create', '--spaces', unknownSpace),
      archive(dataDir, 'keys', 'create', '--role', 'admin'),
      archive(dataDir, 'spaces', 'create'),
      archive(dataDir, 'keys', 'revoke', 'f'.repeat(32)),
      archive(dataDir, '--bogus', 'spaces', 'list'),
      archive(dataDir),
    ]);
    const expectations: Array<[Run, RegExp]> = [
      [command, /Unknown command "frobnicate"/],
      [scope, /Unknown scope "documents:reed"/],
      [space, new RegExp(`No space with id ${unknownSpace}`)],
      [role, /--role must be viewer or editor/],
      [noName, /spaces create needs a NAME/],
      [revokeUnknown, /No key with id f{32}/],
      [option, /bogus/],
    ];
    for (const [out, message] of expectations) {
      expect(out.code, out.stderr).not.toBe(0);
      expect(out.code).not.toBeNull();
      expect(out.stderr).toMatch(message);
      expect(out.stderr).not.toMatch(/^\s+at /m); // a message, not a stack trace
    }
    expect(nothing.code).not.toBe(0);
    expect(nothing.stdout).toMatch(/^Usage: /);
    // None of the failed creates made a key.
    const keys = await archiveJson<ApiKeyRecord[]>(dataDir, 'keys', 'list');
    expect(keys.map((k) => k.name).sort()).toEqual(['admin', 'text form', 'x']);
  });
});

describe('server CLI', () => {
  it('is started by `npm run server` with the Node flags the service is tuned for (server/gc-tuning.ts)', async () => {
    const scripts = (
      JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['server']).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} server/cli/server.ts`);
  });

  it('prints its URL, logs one line per request, exits 0 on SIGTERM', async () => {
    const dataDir = join(scratch, 'served');
    const created = await archiveJson<{ key: string }>(dataDir, 'keys', 'create', '--name', 'server test');

    const child = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, SERVER_CLI, '--data-dir', dataDir, '--port', '0', '--workers', '1'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
      child.once('exit', (code, signal) => done({ code, signal }));
    });
    try {
      const url = await new Promise<string>((found, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL printed; stdout: ${stdout} stderr: ${stderr}`)), 10_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            found(match[1]!);
          }
        });
        child.once('exit', () => fail(new Error(`server exited early: ${stderr}`)));
      });
      expect(url).not.toMatch(/:0$/);

      const auth = { Authorization: `Bearer ${created.key}` };
      const statuses = [
        (await fetch(`${url}/v1/health`)).status,
        (await fetch(`${url}/v1/me`, { headers: auth })).status,
        (await fetch(`${url}/v1/documents?limit=0`, { headers: auth })).status,
        (await fetch(`${url}/v1/nowhere`, { headers: auth })).status,
        (await fetch(`${url}/v1/me`)).status,
      ];
      expect(statuses).toEqual([200, 200, 400, 404, 401]);
    } finally {
      child.kill('SIGTERM');
    }
    const { code, signal } = await exited;
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });

    const requestLines = stdout
      .split('\n')
      .filter((line) => /^\S+ (GET|POST|PATCH|DELETE|PUT|HEAD|OPTIONS) \//.test(line));
    expect(requestLines).toHaveLength(5);
    const expected: Array<[string, string, number]> = [
      ['GET', '/v1/health', 200],
      ['GET', '/v1/me', 200],
      ['GET', '/v1/documents', 400],
      ['GET', '/v1/nowhere', 404],
      ['GET', '/v1/me', 401],
    ];
    expected.forEach(([method, path, status], i) => {
      expect(requestLines[i]).toMatch(
        new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\S+ ${method} ${path} ${status} \\d+(\\.\\d+)?ms$`),
      );
    });
    // The query string (which may carry anything) is not logged.
    expect(stdout).not.toContain('limit=0');
    expect(stdout).not.toContain(created.key);
  });

  it('--help exits 0 without starting; a bad port exits non-zero with a message', async () => {
    const [help, badPort] = await Promise.all([
      run(SERVER_CLI, ['--help']),
      run(SERVER_CLI, ['--data-dir', join(scratch, 'bad-port'), '--port', 'eighty']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run server/);
    expect(badPort.code).not.toBe(0);
    expect(badPort.stderr).toMatch(/--port must be 0-65535/);
  });
});
