/** The paths of search, the catalog (spaces, categories, tags, senders) and the service itself. */
import type { Scope } from '../../../common/archive-types.ts';
import { ErrorMessage } from '../../../common/errors.ts';
import { SPEC_LIMITS } from '../../config.ts';
import { schemaRef as ref, type Json } from './component-schemas.ts';
import {
  INVALID_PARAMETER,
  jsonResponse,
  operation,
  param,
  QUERY_ERRORS,
  SPACE_NOT_FOUND,
  UNKNOWN_PARAMETER,
  WRITE_403,
  type PathItems,
} from './operations.ts';

export function catalogPaths(): PathItems {
  const list = (
    path: string,
    operationId: string,
    scope: Scope,
    summary: string,
    description: string,
    schema: string,
    parameters: Json[] = [],
  ): Json =>
    operation(path, {
      operationId,
      tag: 'Catalog',
      scope,
      summary,
      description,
      parameters,
      responses: { 200: jsonResponse(summary, ref(schema)) },
      errors: {
        400: parameters.length ? QUERY_ERRORS : [UNKNOWN_PARAMETER],
        ...(parameters.length ? { 403: [ErrorMessage.spaceDenied] } : {}),
      },
    });
  return {
    '/v1/search': {
      post: operation('/v1/search', {
        operationId: 'search',
        tag: 'Search',
        scope: 'search',
        summary: 'Full-text search',
        description:
          'Searches title, text, sender and tags of non-deleted documents in the spaces the key can see. Every ' +
          'word must match as a prefix ("rechn" finds "Rechnung"); case and diacritics are ignored ("uber" finds "über"); ' +
          'quotes and operators are plain text. A query without letters or digits finds nothing.',
        jsonBody: ref('SearchRequest'),
        responses: { 200: jsonResponse('Hits, best first', ref('SearchResults')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER], 403: [ErrorMessage.spaceDenied] },
      }),
    },
    '/v1/spaces': {
      get: list(
        '/v1/spaces',
        'listSpaces',
        'spaces:read',
        'List spaces',
        'The spaces the key can see, the default first, then by name; access tells what the key may do there.',
        'SpaceList',
      ),
    },
    '/v1/categories': {
      get: list(
        '/v1/categories',
        'listCategories',
        'categories:read',
        'List categories',
        'Categories of the spaces the key can see, by name.',
        'CategoryList',
        [param('SpaceFilter')],
      ),
      post: operation('/v1/categories', {
        operationId: 'createCategory',
        tag: 'Catalog',
        scope: 'categories:write',
        summary: 'Create a category',
        description:
          'Creates a category in a space where the key is editor. Names are unique per space, case-insensitive.',
        jsonBody: ref('NewCategory'),
        responses: {
          201: jsonResponse('Created', ref('CategoryResponse')),
        },
        errors: {
          400: [INVALID_PARAMETER, UNKNOWN_PARAMETER],
          403: WRITE_403,
          404: [SPACE_NOT_FOUND],
          409: [ErrorMessage.categoryExists],
        },
      }),
    },
    '/v1/tags': {
      get: list(
        '/v1/tags',
        'listTags',
        'tags:read',
        'List tags',
        'Tags on non-deleted documents the key can see, by name.',
        'TagList',
      ),
    },
    '/v1/senders': {
      get: list(
        '/v1/senders',
        'listSenders',
        'senders:read',
        'List senders',
        'Senders of non-deleted documents or events the key can see, by name.',
        'SenderList',
      ),
    },
  };
}

export function servicePaths(): PathItems {
  return {
    '/v1/me': {
      get: operation('/v1/me', {
        operationId: 'getKey',
        tag: 'Service',
        scope: null,
        summary: 'The calling key',
        description: 'Name, role, scopes and spaces of the key (a client\'s "test connection").',
        responses: { 200: jsonResponse('The key', ref('KeyResponse')) },
      }),
    },
    '/v1/health': {
      get: operation('/v1/health', {
        operationId: 'health',
        tag: 'Service',
        scope: null,
        public: true,
        summary: 'Health check',
        description:
          `Answers while the service runs. Counted per client address in a window of its own ` +
          `(${SPEC_LIMITS.healthRequestsPerWindow} a minute), never against the key-less budget of that address.`,
        responses: { 200: jsonResponse('Running', ref('Health')) },
      }),
    },
    '/v1/ready': {
      get: operation('/v1/ready', {
        operationId: 'ready',
        tag: 'Service',
        scope: null,
        public: true,
        summary: 'Readiness check',
        description:
          'For a load balancer: 200 while this instance reaches its database and its blob store, else 503 naming ' +
          'what it cannot reach (with Retry-After). Counted like GET /v1/health.',
        responses: {
          200: jsonResponse('Ready', ref('Health')),
          503: jsonResponse('Not ready: the database or the blob store is unreachable', ref('Error')),
        },
      }),
    },
    '/v1/openapi.json': {
      get: operation('/v1/openapi.json', {
        operationId: 'openapi',
        tag: 'Service',
        scope: null,
        public: true,
        summary: 'This OpenAPI document',
        description: 'The OpenAPI 3.1 description of the interface. Rate limited per client IP.',
        responses: { 200: jsonResponse('The document', { type: 'object' }) },
      }),
    },
  };
}
