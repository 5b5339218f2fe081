/**
 * The building blocks of the OpenAPI document's paths: parameters, headers, responses and operation(), which adds to
 * each operation what the request pipeline does for every route (security, 401, 403 scope, 408, 413, 429, 500).
 */
import type { Scope } from '../../../common/archive-types.ts';
import { ErrorMessage } from '../../../common/errors.ts';
import { SPEC_LIMITS } from '../../config.ts';
import { schemaRef as ref, type Json } from './component-schemas.ts';

export type PathItems = Record<string, Record<string, Json>>;

// Parameter and header schemas (the bodies' schemas are generated: component-schemas.ts).
export const str = (description?: string, extra: Json = {}): Json => ({
  type: 'string',
  ...extra,
  ...(description ? { description } : {}),
});
export const int = (description?: string, extra: Json = {}): Json => ({
  type: 'integer',
  ...extra,
  ...(description ? { description } : {}),
});
export const bool = (description?: string): Json => ({ type: 'boolean', ...(description ? { description } : {}) });
export const uuid = (description?: string): Json => str(description, { format: 'uuid' });
export const timestamp = (description?: string): Json => str(description, { format: 'date-time' });
export const date = (description?: string): Json => str(description, { format: 'date' });
export const oneOf = (values: readonly string[], description?: string): Json => str(description, { enum: [...values] });

// ---------------------------------------------------------------------------------------------------------------
// Headers, parameters, responses

export const RATE_HEADERS: Json = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

export function headers(): Record<string, Json> {
  const header = (description: string, schema: Json): Json => ({ description, schema });
  return {
    'RateLimit-Limit': header(
      'Requests allowed in the current window (on POST /v1/documents: of the tighter of the request and upload limits).',
      int(undefined, { minimum: 1 }),
    ),
    'RateLimit-Remaining': header('Requests left in the current window.', int(undefined, { minimum: 0 })),
    'RateLimit-Reset': header('Seconds until the current window resets.', int(undefined, { minimum: 1 })),
    'RateLimit-Requests-Limit': header("On uploads: the request window's limit.", int(undefined, { minimum: 1 })),
    'RateLimit-Requests-Remaining': header(
      'On uploads: requests left in the request window.',
      int(undefined, { minimum: 0 }),
    ),
    'RateLimit-Requests-Reset': header(
      'On uploads: seconds until the request window resets.',
      int(undefined, { minimum: 1 }),
    ),
    'RateLimit-Uploads-Limit': header("On uploads: the upload window's limit.", int(undefined, { minimum: 1 })),
    'RateLimit-Uploads-Remaining': header(
      'On uploads: uploads left in the upload window.',
      int(undefined, { minimum: 0 }),
    ),
    'RateLimit-Uploads-Reset': header(
      'On uploads: seconds until the upload window resets.',
      int(undefined, { minimum: 1 }),
    ),
    'Retry-After': header('Seconds to wait before retrying.', int(undefined, { minimum: 1 })),
    Location: header('Path of the created or target resource.', str()),
    'WWW-Authenticate': header('Always "Bearer".', { type: 'string', const: 'Bearer' }),
  };
}

export const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });

export function query(name: string, schema: Json, description: string, required = false): Json {
  return { name, in: 'query', required, description, schema };
}

export const limitParam = (fallback: number): Json =>
  query(
    'limit',
    int(undefined, { minimum: 1, maximum: 100, default: fallback }),
    `Page size, 1-100 (default ${fallback}).`,
  );

export function parameters(): Record<string, Json> {
  const id = (what: string): Json => ({
    name: 'id',
    in: 'path',
    required: true,
    description: `${what} id (uuid; 400 otherwise).`,
    schema: uuid(),
  });
  return {
    DocumentId: id('Document'),
    EventId: id('Event'),
    Offset: query(
      'offset',
      int(undefined, { minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }),
      'Items to skip (default 0).',
    ),
    SpaceFilter: query(
      'space_id',
      uuid(),
      'Only this space. 403 "Access denied to this space" when the key cannot see it.',
    ),
  };
}

export const JSON_TYPE = 'application/json';

export function jsonResponse(description: string, schema: Json, extraHeaders: Json = {}): Json {
  return { description, headers: { ...RATE_HEADERS, ...extraHeaders }, content: { [JSON_TYPE]: { schema } } };
}

/** An error response listing the messages it carries, each as a named example. */
export function errorResponse(
  description: string,
  messages: readonly string[],
  options: { schema?: string; extraHeaders?: Json } = {},
): Json {
  const examples: Record<string, Json> = {};
  for (const message of messages) {
    const key = message
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    examples[key] = {
      summary: message,
      value: { success: false, error: message, ...(options.schema === 'RateLimitError' ? { retryAfter: 42 } : {}) },
    };
  }
  return {
    description: `${description}. Messages: ${messages.map((m) => `"${m}"`).join('; ')}.`,
    headers: { ...RATE_HEADERS, ...options.extraHeaders },
    content: { [JSON_TYPE]: { schema: ref(options.schema ?? 'Error'), examples } },
  };
}

// Message patterns shared by several routes (<name> and <expected> stand for the parts that vary).
export const INVALID_PARAMETER = 'Invalid parameter <name>: <expected>';
export const UNKNOWN_PARAMETER = 'Unknown parameter <name>';
export const REPEATED_PARAMETER = 'Invalid parameter <name>: given more than once';
export const QUERY_ERRORS = [INVALID_PARAMETER, UNKNOWN_PARAMETER, REPEATED_PARAMETER];
export const SPACE_NOT_FOUND = 'Space not found';

// ---------------------------------------------------------------------------------------------------------------
// Operations

export interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** Required scope (null: any valid key, or none for public routes). */
  scope: Scope | null;
  public?: boolean;
  /** The route reads a JSON body (adds the JSON body errors). */
  jsonBody?: Json;
  requestBody?: Json;
  parameters?: Json[];
  responses: Record<number, Json>;
  errors?: Partial<Record<400 | 403 | 404 | 409 | 413 | 500, string[]>>;
}

/** Completes an operation with what the request pipeline adds: security, 401, 403 scope, 429, 500, body errors. */
export function operation(path: string, spec: OperationSpec): Json {
  const errors: Record<number, string[]> = {};
  const add = (status: number, messages: readonly string[] = []): void => {
    if (messages.length > 0) errors[status] = [...(errors[status] ?? []), ...messages];
  };
  if (path.includes('{id}')) add(400, ['Invalid parameter id: expected a uuid']);
  if (spec.jsonBody) {
    add(400, [
      'Expected Content-Type application/json',
      ErrorMessage.malformedJson,
      'Invalid body: <reason>',
      'Request aborted before the body was complete',
    ]);
  }
  add(400, spec.errors?.[400]);
  if (spec.scope) add(403, [ErrorMessage.insufficientScope]);
  add(403, spec.errors?.[403]);
  add(404, spec.errors?.[404]);
  add(409, spec.errors?.[409]);
  if (spec.jsonBody || spec.requestBody)
    add(408, [`Request body timed out: no data for ${SPEC_LIMITS.bodyIdleTimeoutMs / 1000} seconds`]);
  if (spec.jsonBody) add(413, ['JSON body exceeds 1 MiB']);
  add(413, spec.errors?.[413]);

  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(spec.responses)) responses[status] = response;
  const reasons: Record<number, string> = {
    400: 'Invalid request',
    403: 'Forbidden',
    404: 'Not found',
    408: 'Request body timed out',
    409: 'Conflict',
    413: 'Body too large',
  };
  for (const [status, messages] of Object.entries(errors))
    responses[status] = errorResponse(reasons[Number(status)]!, messages);
  if (!spec.public) responses['401'] = { $ref: '#/components/responses/Unauthorized' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['500'] = spec.errors?.[500]
    ? errorResponse('Internal error', [ErrorMessage.internal, ...spec.errors[500]])
    : { $ref: '#/components/responses/InternalError' };

  const scopeText = spec.public
    ? 'Public: no API key needed.'
    : spec.scope
      ? `Requires scope \`${spec.scope}\`.`
      : 'Requires a valid API key (no particular scope).';
  const body = spec.jsonBody
    ? { required: true, content: { [JSON_TYPE]: { schema: spec.jsonBody } } }
    : spec.requestBody;
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: `${spec.description}\n\n${scopeText}`,
    security: spec.public ? [] : [{ bearerAuth: spec.scope ? [spec.scope] : [] }],
    'x-required-scope': spec.scope,
    ...(spec.parameters?.length ? { parameters: spec.parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

export const DOCUMENT_404 = { 404: [ErrorMessage.documentNotFound] };
export const WRITE_403 = [ErrorMessage.spaceDenied];
