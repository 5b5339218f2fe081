import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../common/archive-types.ts';
import { buildRouter } from '../../server/archive-service.ts';
import { MANUAL_TRANSITIONS } from '../../server/events/event-state.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

type Json = Record<string, unknown>;
interface Operation {
  security?: Array<Record<string, string[]>>;
  'x-required-scope'?: string | null;
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Json>;
    parameters: Record<string, Json>;
    responses: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOC_ID = 'https://archive.invalid/openapi.json';

let h: Harness;
let doc: OpenApi;
let ajv: Ajv2020;
/** Ids of real records, used wherever a documented parameter or field names one. */
const ids: Record<string, unknown> = {};

/** The operations of the document as "METHOD /path" → operation. */
function operations(): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item))
      if (HTTP_METHODS.includes(method)) out.set(`${method.toUpperCase()} ${path}`, op);
  }
  return out;
}

const resolve = (value: Json): Json => {
  const target = value.$ref;
  if (typeof target !== 'string') return value;
  const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(target) ?? [];
  return resolve((doc.components as unknown as Record<string, Record<string, Json>>)[section!]![name!]!);
};

const pointerPart = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Response objects as the server answers them: extra fields would mean the document lags behind the code. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closeObjects(value);
  if (out.type === 'object' && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const validators = new Map<string, ValidateFunction>();

/**
 * Checks a response against the document: its status is documented for the operation, every documented header is
 * present, and a JSON body validates against the documented schema. Returns the parsed body.
 */
async function conforms(res: Response, method: string, path: string): Promise<unknown> {
  const op = doc.paths[path]?.[method.toLowerCase()];
  expect(op, `${method} ${path} is documented`).toBeDefined();
  const text = await res.text();
  const declared = op!.responses[String(res.status)];
  expect(declared, `${method} ${path} documents status ${res.status} (body ${text})`).toBeDefined();
  const response = resolve(declared!);
  for (const name of Object.keys((response.headers ?? {}) as Json)) {
    expect(res.headers.has(name), `${method} ${path} ${res.status} sends header ${name}`).toBe(true);
  }
  const content = response.content as Record<string, unknown> | undefined;
  if (!content?.['application/json']) return text;
  const base =
    typeof declared!.$ref === 'string'
      ? (declared!.$ref as string).slice(1)
      : `/paths/${pointerPart(path)}/${method.toLowerCase()}/responses/${res.status}`;
  const pointer = `${base}/content/application~1json/schema`;
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  const body: unknown = JSON.parse(text);
  expect(
    validate(body) ? [] : validate.errors,
    `${method} ${path} ${res.status} body matches its schema: ${text.slice(0, 400)}`,
  ).toEqual([]);
  return body;
}

async function call(
  method: string,
  path: string,
  concrete: string,
  init: { json?: unknown; body?: FormData; key?: string | null } = {},
) {
  const res = await h.api(concrete, { method, ...init });
  return { status: res.status, body: await conforms(res, method, path) };
}

/** Valid values for a documented schema: every enum value, both booleans, both ends of an integer range. */
function samples(name: string, raw: Json): unknown[] {
  if (name in ids) return [ids[name]];
  const schema = resolve(raw);
  if (Array.isArray(schema.anyOf)) return samples(name, schema.anyOf[0] as Json);
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'boolean':
      return [true, false];
    case 'null':
      return [null];
    case 'integer': {
      const min = (schema.minimum as number | undefined) ?? 0;
      const max = schema.maximum as number | undefined;
      return max !== undefined && max < Number.MAX_SAFE_INTEGER ? [min, max] : [min];
    }
    case 'number':
      return [12.5];
    case 'array':
      return [[samples(`${name}[]`, schema.items as Json)[0]]];
    case 'object':
      return [
        Object.fromEntries(
          Object.entries(schema.properties as Record<string, Json>).map(([key, value]) => [
            key,
            samples(key, value)[0],
          ]),
        ),
      ];
  }
  if (schema.format === 'uuid') return [randomUUID()];
  if (schema.format === 'date') return ['2026-01-15'];
  if (schema.format === 'date-time') return ['2026-01-15T08:30:00Z'];
  return ['x'];
}

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  const res = await h.api('/v1/openapi.json', { key: null });
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApi;

  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat(
    'date-time',
    (s: string) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
  );
  ajv.addSchema({ ...(closeObjects(doc) as Json), $id: DOC_ID });

  // One fully described invoice, paid: a document with text, tags, category, sender, an event, a payment, history.
  const documentId = await uploadAndProcess(
    h,
    { bytes: await makePdf(['Stromrechnung', 'Betrag 120,50 EUR']), name: 'strom.pdf' },
    {
      metadata: {
        event_type: 'invoice',
        amount: { value: 120.5, currency: 'eur' },
        due_date: '2026-12-15',
        paid_at: '2026-12-01',
        sender_name: 'Stadtwerke',
        reference_number: 'R-1',
        tags: ['Strom', 'Haus'],
        category: 'Utilities',
        title: 'Stromrechnung',
        document_date: '2026-11-30',
      },
    },
  );
  const detail = (await (await h.api(`/v1/documents/${documentId}`)).json()) as {
    document: { event_ids: string[]; category_id: string };
  };
  Object.assign(ids, {
    space_id: h.defaultSpaceId,
    document_id: documentId,
    category_id: detail.document.category_id,
    documentIds: [documentId],
    currency: 'EUR',
    document_date: '2026-01-15',
    query: 'stromrechnung',
    name: 'Created from the documented schema',
  });
  ids.eventId = detail.document.event_ids[0];
});

afterAll(async () => {
  await h?.close();
});

describe('GET /v1/openapi.json', () => {
  it('is public, OpenAPI 3.1, and valid', async () => {
    const res = await h.api('/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('RateLimit-Limit')).not.toBeNull();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    // validate() dereferences in place, so it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('documents exactly the routes of buildRouter()', () => {
    const routes = buildRouter()
      .list()
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    expect([...operations().keys()].sort()).toEqual(routes);
  });

  it('declares security and the required scope of every route', () => {
    const scheme = doc.components.securitySchemes.bearerAuth!;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const scope of SCOPES) expect(scheme.description).toContain(`\`${scope}\``);
    for (const route of buildRouter().list()) {
      const label = `${route.method} ${route.path}`;
      const op = operations().get(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)!;
      expect(op['x-required-scope'], label).toBe(route.scope);
      expect(op.security, label).toEqual(route.public ? [] : [{ bearerAuth: route.scope ? [route.scope] : [] }]);
      expect('401' in op.responses, label).toBe(!route.public);
      if (route.scope) expect(JSON.stringify(resolve(op.responses['403']!)), label).toContain('Insufficient scope');
      expect(Object.keys(op.responses), label).toEqual(expect.arrayContaining(['429', '500']));
    }
  });

  it('every documented query parameter (every enum value, both ends of each range) is accepted', async () => {
    for (const [key, op] of operations()) {
      const [method, path] = key.split(' ') as [string, string];
      if (method !== 'GET' || path.includes('{')) continue;
      const params = (op.parameters ?? []).map(resolve).filter((p) => p.in === 'query');
      for (const p of params) {
        const name = p.name as string;
        for (const value of samples(name, p.schema as Json)) {
          const res = await call('GET', path, `${path}?${name}=${encodeURIComponent(String(value))}`);
          expect(res.status, `${path}?${name}=${String(value)}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        const schema = p.schema as Json;
        if (schema.type === 'integer') {
          const outside = [(schema.minimum as number) - 1];
          if ((schema.maximum as number) < Number.MAX_SAFE_INTEGER) outside.push((schema.maximum as number) + 1);
          for (const value of outside) {
            const res = await call('GET', path, `${path}?${name}=${value}`);
            expect(res, `${path}?${name}=${value}`).toMatchObject({
              status: 400,
              body: { error: expect.stringContaining(`Invalid parameter ${name}`) },
            });
          }
        }
        if ('default' in schema && name === 'limit') {
          const res = await call('GET', path, path);
          expect((res.body as { limit: number }).limit, `${path} default limit`).toBe(schema.default);
        }
      }
      if (JSON.stringify(resolve(op.responses['400'] ?? {})).includes('Unknown parameter')) {
        const res = await call('GET', path, `${path}?undocumented_parameter=1`);
        expect(res).toMatchObject({ status: 400, body: { error: 'Unknown parameter undocumented_parameter' } });
      }
    }
  });
});

describe('docs/api.md', () => {
  const text = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

  it('names every route', () => {
    for (const route of buildRouter().list())
      expect(text).toContain(`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
  });

  it('lists the manual event state moves of the code', () => {
    for (const [from, to] of Object.entries(MANUAL_TRANSITIONS)) {
      expect(text).toContain(`| \`${from}\` | ${to.map((s) => `\`${s}\``).join(', ')} |`);
    }
  });
});

describe('responses match the documented schemas', () => {
  const docPath = () => `/v1/documents/${ids.document_id as string}`;

  it('documents, events, search and catalog reads', async () => {
    await call('GET', '/v1/documents', '/v1/documents');
    await call('GET', '/v1/documents/{id}', docPath());
    const events = await call('GET', '/v1/events', `/v1/events?document_id=${ids.document_id as string}`);
    expect((events.body as { total: number }).total).toBe(1);
    const event = await call('GET', '/v1/events/{id}', `/v1/events/${ids.eventId as string}`);
    expect(event.body).toMatchObject({ event: { state: 'paid', payments: [{ confirmed: true, source: 'metadata' }] } });
    const search = await call('POST', '/v1/search', '/v1/search', { json: { query: 'stromrechnung' } });
    expect((search.body as { total: number }).total).toBe(1);
    for (const path of ['/v1/spaces', '/v1/categories', '/v1/tags', '/v1/senders', '/v1/me']) {
      const res = await call('GET', path, path);
      expect(res.status).toBe(200);
    }
    await call('GET', '/v1/health', '/v1/health', { key: null });
  });

  it('every documented JSON body field is accepted', async () => {
    const stateChange = `/v1/events/${ids.eventId as string}/state`;
    // [method, path, concrete, overrides, fields left out]: together the bodies of a path use every documented field.
    const bodies: Array<[string, string, string, Json?, string[]?]> = [
      ['PATCH', '/v1/documents/{id}', docPath()],
      ['POST', '/v1/search', '/v1/search'],
      ['POST', '/v1/categories', '/v1/categories'],
      ['POST', '/v1/documents/reprocess', '/v1/documents/reprocess'],
      ['PATCH', '/v1/events/{id}', `/v1/events/${ids.eventId as string}`],
      // The event is paid already: paid again is allowed (no change), and paid_at goes only with paid.
      ['POST', '/v1/events/{id}/state', stateChange, { state: 'paid' }, ['due_date']],
      // due_date goes only with active (a renewal's new end date): paid → archived → active.
      ['POST', '/v1/events/{id}/state', stateChange, { state: 'archived' }, ['due_date', 'paid_at']],
      ['POST', '/v1/events/{id}/state', stateChange, { state: 'active' }, ['paid_at']],
    ];
    const used = new Map<string, Set<string>>();
    for (const [method, path, concrete, overrides, omit = []] of bodies) {
      const schema = doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!.schema;
      const body = Object.fromEntries(
        Object.entries({ ...(samples('body', schema)[0] as Json), ...overrides }).filter(
          ([key]) => !omit.includes(key),
        ),
      );
      const keys = used.get(`${method} ${path}`) ?? new Set<string>();
      for (const key of Object.keys(body)) keys.add(key);
      used.set(`${method} ${path}`, keys);
      const res = await call(method, path, concrete, { json: body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    for (const [key, keys] of used) {
      const [method, path] = key.split(' ') as [string, string];
      const schema = doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!.schema;
      expect([...keys].sort(), key).toEqual(Object.keys(resolve(schema).properties as Json).sort());
    }
    await h.service.processor.idle();
  });

  it('every JSON body refuses what its schema refuses: a field it does not list, a value past a documented bound', async () => {
    const targets: Array<[string, string, string]> = [
      ['PATCH', '/v1/documents/{id}', docPath()],
      ['POST', '/v1/search', '/v1/search'],
      ['POST', '/v1/categories', '/v1/categories'],
      ['POST', '/v1/documents/reprocess', '/v1/documents/reprocess'],
      ['PATCH', '/v1/events/{id}', `/v1/events/${ids.eventId as string}`],
      ['POST', '/v1/events/{id}/state', `/v1/events/${ids.eventId as string}/state`],
    ];
    const bounded = new Set<string>();
    for (const [method, path, concrete] of targets) {
      const schema = resolve(doc.paths[path]![method.toLowerCase()]!.requestBody!.content['application/json']!.schema);
      expect(schema.additionalProperties, `${method} ${path} is closed`).toBe(false);
      const valid = samples('body', schema)[0] as Json;
      const extra = await call(method, path, concrete, { json: { ...valid, undocumented_field: 1 } });
      expect(extra, `${method} ${path}`).toMatchObject({
        status: 400,
        body: { error: 'Unknown parameter undocumented_field' },
      });
      for (const [name, raw] of Object.entries(schema.properties as Record<string, Json>)) {
        const property = Array.isArray(raw.anyOf) ? (raw.anyOf[0] as Json) : raw;
        const past =
          typeof property.maxLength === 'number'
            ? 'x'.repeat(property.maxLength + 1)
            : typeof property.maximum === 'number'
              ? property.maximum + 1
              : typeof property.maxItems === 'number'
                ? Array.from({ length: property.maxItems + 1 }, () =>
                    valid[name] instanceof Array ? valid[name][0] : 'x',
                  )
                : undefined;
        if (past === undefined) continue;
        bounded.add(`${method} ${path} ${name}`);
        const res = await call(method, path, concrete, { json: { ...valid, [name]: past } });
        expect(res, `${method} ${path} ${name} past its bound`).toMatchObject({
          status: 400,
          body: { error: expect.stringContaining(`Invalid parameter ${name}`) },
        });
      }
    }
    // The bounds are generated from the routes' zod schemas: one of each kind is there to be checked.
    expect([...bounded]).toEqual(
      expect.arrayContaining([
        'POST /v1/search query',
        'POST /v1/search limit',
        'POST /v1/documents/reprocess documentIds',
        'PATCH /v1/documents/{id} tags',
      ]),
    );
  });

  it('every documented upload field and metadata field is accepted', async () => {
    const form = doc.paths['/v1/documents']!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(Object.keys(form.properties as Json).sort()).toEqual(['file', 'metadata', 'space_id']);
    const metadata = samples('metadata', resolve(doc.components.schemas.UploadMetadata!))[0] as Json;
    const body = new FormData();
    body.append(
      'file',
      new Blob([await makePdf('Uploaded with every documented field')], { type: 'application/pdf' }),
      'all.pdf',
    );
    body.append('space_id', h.defaultSpaceId);
    body.append('metadata', JSON.stringify(metadata));
    const res = await call('POST', '/v1/documents', '/v1/documents', { body });
    expect(res.status, JSON.stringify({ metadata, body: res.body })).toBe(202);
    await h.service.processor.idle();
  });

  it('writes, downloads and errors', async () => {
    const id = ids.document_id as string;
    const again = await call('POST', '/v1/documents/{id}/reprocess', `/v1/documents/${id}/reprocess`);
    expect([200, 202]).toContain(again.status);
    await h.service.processor.idle();
    expect((await call('DELETE', '/v1/documents/{id}', docPath())).status).toBe(200);
    expect((await call('GET', '/v1/documents', '/v1/documents?deleted=true')).body).toMatchObject({ total: 1 });
    expect((await call('POST', '/v1/documents/{id}/restore', `/v1/documents/${id}/restore`)).status).toBe(200);

    const redirect = await h.api(`/v1/documents/${id}/download`);
    await conforms(redirect.clone(), 'GET', '/v1/documents/{id}/download');
    expect(redirect.status).toBe(302);
    const file = await h.api(redirect.headers.get('Location')!, { key: null });
    await conforms(file.clone(), 'GET', '/v1/files/{id}');
    expect(file.status).toBe(200);
    const eventState = `/v1/events/${ids.eventId as string}/state`;
    const archived = await call('POST', '/v1/events/{id}/state', eventState, {
      json: { state: 'archived', cause: 'filed' },
    });
    expect(archived.body).toMatchObject({
      event: { state: 'archived', history: expect.arrayContaining([expect.objectContaining({ cause: 'filed' })]) },
    });
    expect((await call('POST', '/v1/events/{id}/state', eventState, { json: { state: 'expired' } })).status).toBe(409);

    const tampered = redirect.headers.get('Location')!.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await call('GET', '/v1/files/{id}', tampered, { key: null })).status).toBe(403);

    expect((await call('GET', '/v1/documents/{id}', `/v1/documents/${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', '/v1/documents/{id}', '/v1/documents/not-a-uuid')).status).toBe(400);
    expect((await call('GET', '/v1/events/{id}', `/v1/events/${randomUUID()}`)).status).toBe(404);
    expect((await call('GET', '/v1/documents', '/v1/documents', { key: null })).status).toBe(401);
    const viewer = await h.createKey({ role: 'viewer', scopes: ['documents:write'] });
    expect((await call('DELETE', '/v1/documents/{id}', docPath(), { key: viewer })).status).toBe(403);
    expect((await call('GET', '/v1/documents', '/v1/documents', { key: viewer })).status).toBe(403);
    const duplicate = { name: 'Created from the documented schema', space_id: h.defaultSpaceId };
    expect((await call('POST', '/v1/categories', '/v1/categories', { json: duplicate })).status).toBe(409);
  });

  it('ids are accepted in either case, in paths, queries and JSON bodies (docs/api.md, Conventions)', async () => {
    const space = h.defaultSpaceId.toUpperCase();
    const id = (ids.document_id as string).toUpperCase();
    expect((await call('GET', '/v1/documents/{id}', `/v1/documents/${id}`)).status).toBe(200);
    expect((await call('GET', '/v1/documents', `/v1/documents?space_id=${space}`)).body).toMatchObject({ total: 2 });
    expect(
      (await call('POST', '/v1/search', '/v1/search', { json: { query: 'stromrechnung', space_id: space } })).body,
    ).toMatchObject({ total: 1 });
    expect(
      (
        await call('POST', '/v1/categories', '/v1/categories', {
          json: { name: 'Upper-case space id', space_id: space },
        })
      ).status,
    ).toBe(201);
    const category = (
      await call('POST', '/v1/categories', '/v1/categories', {
        json: { name: 'Upper-case id', space_id: h.defaultSpaceId },
      })
    ).body as { category: { id: string } };
    const patched = await call('PATCH', '/v1/documents/{id}', `/v1/documents/${id}`, {
      json: { category_id: category.category.id.toUpperCase() },
    });
    expect(patched.body).toMatchObject({ document: { category_id: category.category.id } });
  });

  it('429 carries retryAfter and Retry-After', async () => {
    const limited = await startHarness({ limits: { requestsPerWindow: 1 } });
    try {
      await limited.api('/v1/me');
      const res = await limited.api('/v1/me');
      expect(res.status).toBe(429);
      expect(await conforms(res, 'GET', '/v1/me')).toMatchObject({ retryAfter: expect.any(Number) });
    } finally {
      await limited.close();
    }
  });
});
