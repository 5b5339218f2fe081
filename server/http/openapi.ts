/**
 * The OpenAPI 3.1 description of every route of buildRouter(), served at GET /v1/openapi.json.
 * The schemas are generated from the zod schemas the code validates with (openapi/component-schemas.ts); the paths
 * (openapi/*-paths.ts) are built from the same constants the routes use (enums, limits, messages).
 * test/server/openapi.test.ts checks that its paths, scopes, query parameters and schemas match what the running
 * service does. docs/api.md is the prose.
 */
import { SCOPES, type Scope } from '../../common/archive-types.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { SPEC_LIMITS } from '../config.ts';
import { catalogPaths, servicePaths } from './openapi/catalog-paths.ts';
import { componentSchemas } from './openapi/component-schemas.ts';
import { documentPaths, downloadPaths } from './openapi/document-paths.ts';
import { eventPaths } from './openapi/event-paths.ts';
import { errorResponse, headers, parameters } from './openapi/operations.ts';

let cached: Record<string, unknown> | undefined;

/** The document, built once (it depends on nothing but constants). */
export function openApiDocument(): Record<string, unknown> {
  cached ??= buildDocument();
  return cached;
}

// ---------------------------------------------------------------------------------------------------------------
// The document

const SCOPE_TEXT: Record<Scope, string> = {
  'documents:read': 'list, get and download documents',
  'documents:write':
    'upload, edit (PATCH), delete, restore and reprocess documents, edit events and change their ' +
    'states (also needs role editor in the space)',
  search: 'full-text search (POST /v1/search)',
  'spaces:read': 'list spaces',
  'categories:read': 'list categories',
  'categories:write': 'create categories (also needs role editor in the space)',
  'tags:read': 'list tags',
  'tags:write': "change a document's tags with PATCH /v1/documents/{id} (together with documents:write)",
  'senders:read': 'list senders',
  'events:read': 'list and get events',
};

function buildDocument(): Record<string, unknown> {
  const limits = SPEC_LIMITS;
  const windowSeconds = limits.windowMs / 1000;
  const scopeTable = SCOPES.map((s) => `| \`${s}\` | ${SCOPE_TEXT[s]} |`).join('\n');
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Document Archive Service',
      version: '1.0.0',
      summary: 'Stores documents, extracts their text, metadata and events.',
      description: [
        'JSON over HTTP; uploads use multipart/form-data. Every path starts with the version prefix /v1.',
        `Errors are \`{ "success": false, "error": "<message>" }\`; 429 adds \`retryAfter\` (seconds) and the Retry-After header.`,
        `Rate limits (fixed windows of ${windowSeconds} s, per key; per client IP without a key): ${limits.requestsPerWindow} ` +
          `requests and ${limits.uploadsPerWindow} uploads. Every response carries RateLimit-Limit, RateLimit-Remaining and ` +
          'RateLimit-Reset.',
        'Unknown paths answer 404 "Not found", a known path with another method 405 with an Allow header (both after ' +
          'authentication). The full reference, with every design decision the interface leaves open, is docs/api.md.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This service (paths carry the /v1 prefix).' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Documents', description: 'Upload, list, read, edit, delete, restore and reprocess documents.' },
      { name: 'Downloads', description: 'Signed download links.' },
      { name: 'Events', description: 'Invoices, contracts, notices and the like, extracted from documents.' },
      { name: 'Search', description: 'Full-text search.' },
      { name: 'Catalog', description: 'Spaces, categories, tags and senders.' },
      { name: 'Service', description: 'The key, health, and this document.' },
    ],
    paths: { ...documentPaths(), ...downloadPaths(), ...eventPaths(), ...catalogPaths(), ...servicePaths() },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'das_<32 hex key id>_<43 base64url secret>',
          description: [
            'Header `Authorization: Bearer das_<key id>_<secret>`. Keys are created with `npm run archive -- keys create`; ' +
              'only a SHA-256 of the secret is stored. A missing, malformed, unknown or revoked key gives 401.',
            'Each key has a role (viewer: read; editor: read and write) and may be restricted to a list of spaces. ' +
              'Writing needs role editor in the target space (else 403 "Access denied to this space"); naming a space ' +
              "outside a restricted key's list is 403 whether or not it exists; documents in spaces the key cannot see " +
              'are 404. Operations list the scope they need in `security` and in `x-required-scope`.',
            `| scope | allows |\n|---|---|\n${scopeTable}`,
          ].join('\n\n'),
        },
      },
      headers: headers(),
      parameters: parameters(),
      responses: {
        Unauthorized: errorResponse('Missing, malformed, unknown or revoked API key', [ErrorMessage.invalidKey], {
          extraHeaders: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
        }),
        RateLimited: errorResponse('Rate limit exceeded: wait Retry-After seconds', [ErrorMessage.rateLimited], {
          schema: 'RateLimitError',
          extraHeaders: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
        }),
        InternalError: errorResponse('Internal error', [ErrorMessage.internal]),
      },
      schemas: componentSchemas(),
    },
  };
}
