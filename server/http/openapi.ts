/**
 * The OpenAPI 3.1 description of every route of buildRouter(), served at GET /v1/openapi.json.
 * Built from the same constants the routes use (enums, limits, messages); test/server/openapi.test.ts checks that
 * its paths, scopes, query parameters and schemas match what the running service does. docs/api.md is the prose.
 */
import { z } from 'zod';
import {
  DOCUMENT_SORT_FIELDS, DOCUMENT_STATUSES, EVENT_STATES, EVENT_TYPES, FILE_FORMATS, ROLES, SCOPES, type Scope,
} from '../../common/archive-types.ts';
import { ErrorMessage } from '../../common/errors.ts';
import { MAX_METADATA_TAGS, uploadMetadataSchema } from '../../common/upload-metadata.ts';
import { SPEC_LIMITS } from '../config.ts';
import { MAX_BULK_REPROCESS } from '../documents/document-routes.ts';
import { MANUAL_TRANSITIONS } from '../events/event-state.ts';
import { MIME_TYPES } from '../../shared/formats/sniff.ts';

type Json = Record<string, unknown>;

let cached: Record<string, unknown> | undefined;

/** The document, built once (it depends on nothing but constants). */
export function openApiDocument(): Record<string, unknown> {
  cached ??= buildDocument();
  return cached;
}

// ---------------------------------------------------------------------------------------------------------------
// Schema helpers

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string, extra: Json = {}): Json => ({ type: 'string', ...extra, ...(description ? { description } : {}) });
const int = (description?: string, extra: Json = {}): Json => ({ type: 'integer', ...extra, ...(description ? { description } : {}) });
const bool = (description?: string): Json => ({ type: 'boolean', ...(description ? { description } : {}) });
const uuid = (description?: string): Json => str(description, { format: 'uuid' });
const timestamp = (description?: string): Json => str(description, { format: 'date-time' });
const date = (description?: string): Json => str(description, { format: 'date' });
const oneOf = (values: readonly string[], description?: string): Json => str(description, { enum: [...values] });
const arrayOf = (items: Json, description?: string, extra: Json = {}): Json =>
  ({ type: 'array', items, ...extra, ...(description ? { description } : {}) });
const successFlag: Json = { type: 'boolean', const: true };

/** `null` allowed too. An enum or a $ref gets anyOf, since a type list alone would not let null past the enum. */
function nullable(schema: Json): Json {
  if (typeof schema.type === 'string' && !('enum' in schema)) return { ...schema, type: [schema.type, 'null'] };
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
}

/**
 * A response object: every listed property is always present. Response objects stay open (clients ignore fields
 * they do not know, so fields can be added within v1); request bodies are closed because the server rejects extras.
 */
function object(properties: Record<string, Json>, description?: string): Json {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties), properties };
}

function requestObject(properties: Record<string, Json>, required: string[], description: string): Json {
  return { type: 'object', description, required, properties, additionalProperties: false };
}

/** The list envelope `{ success, items, total, limit, offset }`. */
function listOf(item: string, description: string): Json {
  return object({
    success: successFlag,
    items: arrayOf(ref(item)),
    total: int('Number of matches across all pages.', { minimum: 0 }),
    limit: int('The page size applied.', { minimum: 0 }),
    offset: int('The offset applied.', { minimum: 0 }),
  }, description);
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas (kept in step with common/archive-types.ts; the test validates real responses against them)

const AMOUNT_CURRENCY = 'Three-letter ISO 4217 code, upper case.';

const documentProperties: Record<string, Json> = {
  id: uuid(),
  space_id: uuid('The space the document is stored in.'),
  category_id: nullable(uuid('Category of the same space; null when none.')),
  category_name: nullable(str('Name of that category.')),
  status: oneOf(DOCUMENT_STATUSES, 'Processing status: pending → processing → completed | failed; a duplicate upload ends skipped.'),
  title: str('From metadata.title, a hand edit, the pipeline, or the file name (in that order of precedence).'),
  original_filename: str('The uploaded file name without any path, control, bidirectional or zero-width characters.'),
  mime_type: str('Canonical MIME type of the detected format (by content, not by what the client declared).'),
  file_format: oneOf(FILE_FORMATS, 'Format detected from the bytes.'),
  size_bytes: int('Size of the stored file.', { minimum: 1 }),
  sha256: str('SHA-256 of the file, lower-case hex.', { pattern: '^[0-9a-f]{64}$' }),
  page_count: nullable(int('Pages, when the pipeline could count them (PDF).', { minimum: 0 })),
  language: nullable(str('Detected language, when known.')),
  sender_name: nullable(str('Sender, from metadata or extraction.')),
  document_date: nullable(date('Date the document carries (YYYY-MM-DD).')),
  tags: arrayOf(str(), 'Tag names, sorted.'),
  duplicate_of: nullable(uuid('Set when the same file (SHA-256) was already in this space: the id of the original.')),
  processing_note: nullable(str('Why something is missing (e.g. no text layer, duplicate).')),
  error: nullable(str('Why processing failed (status failed).')),
  created_at: timestamp(),
  updated_at: timestamp('Changes on processing, hand edits, deletion and restore.'),
  processed_at: nullable(timestamp('When processing last finished.')),
  deleted_at: nullable(timestamp('Set while the document is soft-deleted.')),
};

const eventProperties: Record<string, Json> = {
  id: uuid(),
  document_id: uuid('The source document.'),
  space_id: uuid('Space of the source document.'),
  event_type: oneOf(EVENT_TYPES),
  state: oneOf(EVENT_STATES, 'See docs/api.md, "Event states".'),
  title: str('Title of the source document.'),
  amount: nullable(ref('Amount')),
  due_date: nullable(date('Due date (payables) or end date (contract, policy, offer).')),
  reference_number: nullable(str()),
  sender_name: nullable(str()),
  created_at: timestamp(),
  updated_at: timestamp(),
};

/** z.toJSONSchema of the zod schema the upload route validates with, plus what JSON Schema cannot derive. */
function uploadMetadataJsonSchema(): Json {
  const { $schema: _dialect, ...derived } = z.toJSONSchema(uploadMetadataSchema, { io: 'input', target: 'draft-2020-12' }) as Json;
  const notes: Record<string, Json> = {
    event_type: { description: 'Creates an event of this type.' },
    state_hint: { description: 'Initial event state (paid_at wins over it).' },
    amount: { description: 'Amount of the event; creates an event (invoice unless event_type says otherwise).' },
    sender_name: { description: 'Free text; trimmed.' },
    document_date: { description: 'YYYY-MM-DD or an ISO 8601 timestamp (stored as its calendar date, UTC).' },
    due_date: { format: 'date', description: 'YYYY-MM-DD; creates an event.' },
    paid_at: { format: 'date', description: 'YYYY-MM-DD; the event starts in state paid with a confirmed payment record.' },
    reference_number: { description: 'Free text; trimmed.' },
    tags: { description: `At most ${MAX_METADATA_TAGS} tags; duplicates (case-insensitive) are dropped.` },
    category: { description: 'A category name of the target space; created there when missing (case-insensitive match).' },
    title: { description: 'Overrides the document title.' },
  };
  const properties = derived.properties as Record<string, Json>;
  for (const [name, note] of Object.entries(notes)) properties[name] = { ...properties[name], ...note };
  const amount = properties.amount!.properties as Record<string, Json>;
  amount.currency = { ...amount.currency, description: `${AMOUNT_CURRENCY} Any case is accepted and stored upper case.` };
  return {
    ...derived,
    description: 'Optional upload metadata. Its values take precedence over extracted values; unknown fields are rejected.',
  };
}

function schemas(): Record<string, Json> {
  const documentSummary = object({
    id: uuid(), title: str(), space_id: uuid(), status: oneOf(DOCUMENT_STATUSES), original_filename: str(),
  }, 'The linked source document.');
  return {
    Error: {
      type: 'object',
      required: ['success', 'error'],
      properties: {
        success: { type: 'boolean', const: false },
        error: str('What went wrong, one sentence (see docs/api.md for every message).'),
        retryAfter: int('Only on 429: seconds to wait (same as the Retry-After header).', { minimum: 1 }),
      },
    },
    RateLimitError: {
      type: 'object',
      required: ['success', 'error', 'retryAfter'],
      properties: {
        success: { type: 'boolean', const: false },
        error: { type: 'string', const: ErrorMessage.rateLimited },
        retryAfter: int('Seconds until the window resets (same as Retry-After).', { minimum: 1 }),
      },
    },
    Amount: object({ value: { type: 'number' }, currency: str(AMOUNT_CURRENCY, { pattern: '^[A-Z]{3}$' }) }),
    UploadMetadata: uploadMetadataJsonSchema(),
    ExtractedField: object({
      value: { description: 'The extracted or given value (any JSON).' },
      source: str('"edit" for a hand edit (PATCH of the document or its event; wins over everything), "metadata" for ' +
        'upload metadata, otherwise the pipeline step that found it ("text", "e-invoice", "filename", "ocr").'),
      confidence: { type: 'number', minimum: 0, maximum: 1 },
    }),
    Document: object(documentProperties, 'A stored file plus its processed data (list and search form).'),
    DocumentDetail: object({
      ...documentProperties,
      content: str('Full extracted text (empty until processed, or when the format has no readable text yet).'),
      extracted_data: { type: 'object', additionalProperties: ref('ExtractedField'), description: 'Extracted fields by name.' },
      metadata: nullable(ref('UploadMetadata')),
      event_ids: arrayOf(uuid(), 'Events extracted from this document.'),
    }, 'A document with its full text, extracted data, upload metadata and event ids.'),
    Payment: object({
      id: uuid(),
      amount: nullable(ref('Amount')),
      paid_at: date(),
      confirmed: bool('false once the payment was reversed (a change paid → open unconfirms the latest confirmed payment).'),
      source: oneOf(['metadata', 'manual'], '"metadata": from upload metadata paid_at.'),
      created_at: timestamp(),
    }),
    EventStateChange: object({
      from: nullable(oneOf(EVENT_STATES, 'null for the initial state.')),
      to: oneOf(EVENT_STATES),
      at: timestamp(),
      cause: str('Why, e.g. "metadata.paid_at", "invoice without amount", "reprocessed: …".'),
    }),
    Event: object(eventProperties, 'Something a document asks of its reader (pay, renew, keep).'),
    EventDetail: object({
      ...eventProperties,
      document: documentSummary,
      payments: arrayOf(ref('Payment'), 'Ordered by paid_at.'),
      history: arrayOf(ref('EventStateChange'), 'State changes, oldest first.'),
    }),
    Space: object({
      id: uuid(), name: str(), is_default: bool('Uploads without space_id go here.'),
      access: oneOf(ROLES, 'What the calling key may do here.'), created_at: timestamp(),
      ocr_languages: nullable(arrayOf(str(), 'Tesseract codes (e.g. deu, eng) OCR reads this space\'s scans with, in order; ' +
        'null = the defaults, German and English. Set with the admin CLI.')),
    }),
    Category: object({
      id: uuid(), space_id: uuid(), name: str(), document_count: int('Non-deleted documents in it.', { minimum: 0 }),
      created_at: timestamp(),
    }),
    Tag: object({ name: str(), document_count: int('Visible, non-deleted documents with it.', { minimum: 0 }) }),
    Sender: object({
      id: uuid(), space_id: uuid('The space the sender is kept in (senders are per space).'), name: str(),
      document_count: int('Visible, non-deleted documents from it.', { minimum: 0 }),
      event_count: int('Visible events from it.', { minimum: 0 }),
    }),
    KeyInfo: object({
      id: str('Key id (the 32 hex digits after das_).', { pattern: '^[0-9a-f]{32}$' }),
      name: str(),
      role: oneOf(ROLES),
      scopes: arrayOf(oneOf(SCOPES)),
      spaces: nullable(arrayOf(uuid(), 'Spaces the key is restricted to; null = every space.')),
    }),
    SearchHit: object({
      document: ref('Document'),
      score: { type: 'number', description: 'Fused relevance of full text (BM25) and semantic similarity, higher is better (4 decimals, at most 1.9).' },
      snippet: str('HTML-escaped text around the matches, each match in <mark>…</mark>.'),
    }),
    DocumentList: listOf('Document', 'A page of documents.'),
    EventList: listOf('Event', 'A page of events.'),
    SpaceList: listOf('Space', 'All spaces the key can see (no paging: limit = total, offset 0).'),
    CategoryList: listOf('Category', 'All matching categories (no paging: limit = total, offset 0).'),
    TagList: listOf('Tag', 'All tags in use on visible documents (no paging).'),
    SenderList: listOf('Sender', 'All senders of visible documents or events (no paging).'),
    SearchResults: object({
      success: successFlag,
      items: arrayOf(ref('SearchHit'), 'Best match first.'),
      total: int('All matches (items holds at most limit); an estimate when total_is_estimate.', { minimum: 0 }),
      total_is_estimate: bool('true when the query has more than 1,000 full-text matches: total is then estimated (two significant digits) and BM25 ranked only the 1,000 most recent of them.'),
      limit: int(undefined, { minimum: 1, maximum: 100 }),
      query: str('The query as searched (trimmed).'),
    }),
    DocumentResponse: object({ success: successFlag, document: ref('DocumentDetail') }),
    RestoredDocument: object({ success: successFlag, document: ref('Document') }),
    DeletedDocument: object({ success: successFlag, id: uuid(), deleted_at: timestamp('When it was (first) deleted.') }),
    EventResponse: object({ success: successFlag, event: ref('EventDetail') }),
    CategoryResponse: object({ success: successFlag, category: ref('Category') }),
    KeyResponse: object({ success: successFlag, key: ref('KeyInfo') }),
    Health: object({ success: successFlag, status: { type: 'string', const: 'ok' } }),
    UploadAccepted: object({
      success: successFlag,
      id: uuid('Id of the new document record.'),
      status: { type: 'string', const: 'pending' },
      duplicate_of: nullable(uuid('When the same file is already in the space: the original (the record ends skipped).')),
      location: str('Path of the new document, as in the Location header.'),
    }),
    ReprocessResult: object({
      success: successFlag, id: uuid(),
      queued: bool('true when a job was queued (202).'),
      alreadyProcessing: bool('true when the document was already in the pipeline (200, nothing queued).'),
    }),
    BulkReprocessResult: object({
      success: successFlag,
      queued: arrayOf(uuid(), 'Queued, in request order.'),
      skippedPending: arrayOf(uuid(), 'Already in the pipeline; not queued again.'),
      denied: arrayOf(uuid(), 'Visible but the key may not edit the space (viewer role).'),
      notFound: arrayOf(uuid(), 'Missing, deleted, or in a space the key cannot see.'),
    }),
    DocumentPatch: requestObject({
      title: str('New title (trimmed).', { minLength: 1, maxLength: 500 }),
      document_date: nullable(date('YYYY-MM-DD; null clears it.')),
      category_id: nullable(uuid('A category of the document\'s space; null clears it.')),
      tags: arrayOf(str(undefined, { minLength: 1, maxLength: 100 }), 'Replaces all tags (needs scope tags:write).', { maxItems: 50 }),
    }, [], 'Hand edits. Every field is optional; each given field is remembered as edited and kept by reprocessing.'),
    BulkReprocessRequest: requestObject({
      documentIds: arrayOf(uuid(), `1 to ${MAX_BULK_REPROCESS} document ids; repeated ids count once.`,
        { minItems: 1, maxItems: MAX_BULK_REPROCESS }),
    }, ['documentIds'], 'Documents to reprocess.'),
    SearchRequest: requestObject({
      query: str('Words to find; every word must match, as a prefix; diacritics and case are ignored.', { minLength: 1, maxLength: 500 }),
      limit: int('Maximum hits returned.', { minimum: 1, maximum: 100, default: 20 }),
      space_id: uuid('Only documents of this space (403 when the key cannot see it).'),
    }, ['query'], 'A full-text search.'),
    EventStateRequest: requestObject({
      state: oneOf(EVENT_STATES, 'The new state; must be an allowed move from the current one (or equal to it: no change).'),
      cause: str('Why, for the history (default "set by <key name>").', { minLength: 1, maxLength: 200 }),
      paid_at: date('Only with state paid: the payment date of the recorded payment (default today, UTC).'),
      due_date: date('Only with state active: the new end date of a renewal (kept as a hand edit of the event).'),
    }, ['state'], 'A state change made by a person.'),
    EventPatch: requestObject({
      event_type: oneOf(EVENT_TYPES),
      amount: nullable(ref('Amount')),
      due_date: nullable(date('Due date (payables) or end date (contract, policy, offer); null clears it.')),
      reference_number: nullable(str('null clears it.', { minLength: 1, maxLength: 500 })),
      sender_name: nullable(str('The sender of the event and of its document; null clears it.', { minLength: 1, maxLength: 500 })),
    }, [], 'Hand edits of an event. Every field is optional; each given field is remembered as edited and kept by ' +
      'reprocessing.'),
    NewCategory: requestObject({
      name: str('Unique in the space, case-insensitive (trimmed).', { minLength: 1, maxLength: 200 }),
      space_id: uuid(),
    }, ['name', 'space_id'], 'A category to create.'),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Headers, parameters, responses

const RATE_HEADERS: Json = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

function headers(): Record<string, Json> {
  const header = (description: string, schema: Json): Json => ({ description, schema });
  return {
    'RateLimit-Limit': header('Requests allowed in the current window (on POST /v1/documents: of the tighter of the request and upload limits).',
      int(undefined, { minimum: 1 })),
    'RateLimit-Remaining': header('Requests left in the current window.', int(undefined, { minimum: 0 })),
    'RateLimit-Reset': header('Seconds until the current window resets.', int(undefined, { minimum: 1 })),
    'RateLimit-Requests-Limit': header('On uploads: the request window\'s limit.', int(undefined, { minimum: 1 })),
    'RateLimit-Requests-Remaining': header('On uploads: requests left in the request window.', int(undefined, { minimum: 0 })),
    'RateLimit-Requests-Reset': header('On uploads: seconds until the request window resets.', int(undefined, { minimum: 1 })),
    'RateLimit-Uploads-Limit': header('On uploads: the upload window\'s limit.', int(undefined, { minimum: 1 })),
    'RateLimit-Uploads-Remaining': header('On uploads: uploads left in the upload window.', int(undefined, { minimum: 0 })),
    'RateLimit-Uploads-Reset': header('On uploads: seconds until the upload window resets.', int(undefined, { minimum: 1 })),
    'Retry-After': header('Seconds to wait before retrying.', int(undefined, { minimum: 1 })),
    Location: header('Path of the created or target resource.', str()),
    'WWW-Authenticate': header('Always "Bearer".', { type: 'string', const: 'Bearer' }),
  };
}

const param = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });

function query(name: string, schema: Json, description: string, required = false): Json {
  return { name, in: 'query', required, description, schema };
}

const limitParam = (fallback: number): Json =>
  query('limit', int(undefined, { minimum: 1, maximum: 100, default: fallback }), `Page size, 1-100 (default ${fallback}).`);

function parameters(): Record<string, Json> {
  const id = (what: string): Json => ({ name: 'id', in: 'path', required: true, description: `${what} id (uuid; 400 otherwise).`, schema: uuid() });
  return {
    DocumentId: id('Document'),
    EventId: id('Event'),
    Offset: query('offset', int(undefined, { minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }), 'Items to skip (default 0).'),
    SpaceFilter: query('space_id', uuid(), 'Only this space. 403 "Access denied to this space" when the key cannot see it.'),
  };
}

const JSON_TYPE = 'application/json';

function jsonResponse(description: string, schema: Json, extraHeaders: Json = {}): Json {
  return { description, headers: { ...RATE_HEADERS, ...extraHeaders }, content: { [JSON_TYPE]: { schema } } };
}

/** An error response listing the messages it carries, each as a named example. */
function errorResponse(description: string, messages: readonly string[], options: { schema?: string; extraHeaders?: Json } = {}): Json {
  const examples: Record<string, Json> = {};
  for (const message of messages) {
    const key = message.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
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
const INVALID_PARAMETER = 'Invalid parameter <name>: <expected>';
const UNKNOWN_PARAMETER = 'Unknown parameter <name>';
const REPEATED_PARAMETER = 'Invalid parameter <name>: given more than once';
const QUERY_ERRORS = [INVALID_PARAMETER, UNKNOWN_PARAMETER, REPEATED_PARAMETER];
const SPACE_NOT_FOUND = 'Space not found';

// ---------------------------------------------------------------------------------------------------------------
// Operations

interface OperationSpec {
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
function operation(path: string, spec: OperationSpec): Json {
  const errors: Record<number, string[]> = {};
  const add = (status: number, messages: readonly string[] = []): void => {
    if (messages.length > 0) errors[status] = [...(errors[status] ?? []), ...messages];
  };
  if (path.includes('{id}')) add(400, ['Invalid parameter id: expected a uuid']);
  if (spec.jsonBody) {
    add(400, ['Expected Content-Type application/json', ErrorMessage.malformedJson, 'Invalid body: <reason>',
      'Request aborted before the body was complete']);
  }
  add(400, spec.errors?.[400]);
  if (spec.scope) add(403, [ErrorMessage.insufficientScope]);
  add(403, spec.errors?.[403]);
  add(404, spec.errors?.[404]);
  add(409, spec.errors?.[409]);
  if (spec.jsonBody || spec.requestBody) add(408, [`Request body timed out: no data for ${SPEC_LIMITS.bodyIdleTimeoutMs / 1000} seconds`]);
  if (spec.jsonBody) add(413, ['JSON body exceeds 1 MiB']);
  add(413, spec.errors?.[413]);

  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(spec.responses)) responses[status] = response;
  const reasons: Record<number, string> = {
    400: 'Invalid request', 403: 'Forbidden', 404: 'Not found', 408: 'Request body timed out', 409: 'Conflict',
    413: 'Body too large',
  };
  for (const [status, messages] of Object.entries(errors)) responses[status] = errorResponse(reasons[Number(status)]!, messages);
  if (!spec.public) responses['401'] = { $ref: '#/components/responses/Unauthorized' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['500'] = spec.errors?.[500]
    ? errorResponse('Internal error', [ErrorMessage.internal, ...spec.errors[500]])
    : { $ref: '#/components/responses/InternalError' };

  const scopeText = spec.public ? 'Public: no API key needed.'
    : spec.scope ? `Requires scope \`${spec.scope}\`.` : 'Requires a valid API key (no particular scope).';
  const body = spec.jsonBody ? { required: true, content: { [JSON_TYPE]: { schema: spec.jsonBody } } } : spec.requestBody;
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

const DOCUMENT_404 = { 404: [ErrorMessage.documentNotFound] };
const WRITE_403 = [ErrorMessage.spaceDenied];

function uploadBody(): Json {
  const accepted = [...Object.values(MIME_TYPES), 'application/octet-stream'];
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          additionalProperties: false,
          properties: {
            file: {
              type: 'string', contentMediaType: 'application/octet-stream',
              description: `Exactly one file: PDF, JPEG, PNG, TIFF, DOCX, DOC, PPTX, PPT, XLSX, XLS, ODT, ODS or ODP, at most ` +
                `${SPEC_LIMITS.maxUploadBytes / 1024 / 1024} MB (${SPEC_LIMITS.maxUploadBytes} bytes). The format is detected from the bytes; ` +
                'a declared part Content-Type must agree with it (none, text/plain or application/octet-stream counts as undeclared).',
            },
            space_id: uuid('Target space; the default space when omitted or empty. Needs editor access there.'),
            metadata: {
              type: 'string', contentMediaType: JSON_TYPE, contentSchema: ref('UploadMetadata'),
              description: 'The upload metadata object as a JSON string (at most 64 KiB); empty means none.',
            },
          },
        },
        encoding: { file: { contentType: accepted.join(', ') } },
      },
    },
  };
}

function documentPaths(): Record<string, Record<string, Json>> {
  const listParams = [
    limitParam(50),
    param('Offset'),
    query('sort_by', { ...oneOf(DOCUMENT_SORT_FIELDS), default: 'created_at' },
      'Sort field (default created_at). Titles sort as read: case and accents folded, numbers by value. Missing dates sort last; the id breaks ties.'),
    query('sort_order', { ...oneOf(['desc', 'asc']), default: 'desc' }, 'Sort direction (default desc).'),
    param('SpaceFilter'),
    query('category_id', uuid(), 'Only this category.'),
    query('status', oneOf(DOCUMENT_STATUSES), 'Only this status.'),
    query('created_after', timestamp(), 'Only documents created strictly after it. ISO 8601: a date alone means midnight UTC, ' +
      'a time without offset is UTC.'),
    query('updated_after', timestamp(), 'Only documents updated strictly after it (incremental sync: also catches edits, ' +
      'reprocessing, deletion and restore when combined with deleted).'),
    query('tag', str(undefined, { minLength: 1, maxLength: 100 }), 'Only documents carrying this tag (case-insensitive).'),
    query('deleted', { ...bool(), default: false }, 'true lists only soft-deleted documents; false (default) only live ones.'),
  ];
  const id = [param('DocumentId')];
  return {
    '/v1/documents': {
      get: operation('/v1/documents', {
        operationId: 'listDocuments', tag: 'Documents', scope: 'documents:read', summary: 'List documents',
        description: 'A page of documents in the spaces the key can see, with optional filters.',
        parameters: listParams,
        responses: { 200: jsonResponse('A page of documents', ref('DocumentList')) },
        errors: { 400: QUERY_ERRORS, 403: [ErrorMessage.spaceDenied] },
      }),
      post: operation('/v1/documents', {
        operationId: 'uploadDocument', tag: 'Documents', scope: 'documents:write', summary: 'Upload a document',
        description: 'Stores a file and queues it for processing. Counts against both the request and the upload limit; the ' +
          'RateLimit headers describe the tighter of the two. The same file (SHA-256) again in the same space is accepted: ' +
          'the new record ends with status skipped and duplicate_of set. A rejected upload leaves no file and no record.',
        requestBody: uploadBody(),
        responses: {
          202: jsonResponse('Accepted; the record exists (status pending) and is processed shortly', ref('UploadAccepted'), {
            Location: { $ref: '#/components/headers/Location' },
            ...Object.fromEntries(['Requests', 'Uploads'].flatMap((window) => ['Limit', 'Remaining', 'Reset'].map((part) =>
              [`RateLimit-${window}-${part}`, { $ref: `#/components/headers/RateLimit-${window}-${part}` }]))),
          }),
        },
        errors: {
          400: [
            'Expected multipart/form-data with a file field', ErrorMessage.malformedMultipart, ErrorMessage.fileMissing,
            'Only one file per upload', 'Too many form fields', 'Unknown parameter <name>',
            'Unknown parameter <name>: the file goes in the field named file', 'Invalid parameter <name>: value too long',
            REPEATED_PARAMETER, 'Invalid parameter space_id: expected a uuid', 'Invalid metadata: <reason>',
            ErrorMessage.unsupportedFormat, ErrorMessage.contentTypeMismatch, 'Upload aborted before the body was complete',
          ],
          403: WRITE_403,
          404: [SPACE_NOT_FOUND],
          413: [ErrorMessage.fileTooLarge],
        },
      }),
    },
    '/v1/documents/{id}': {
      get: operation('/v1/documents/{id}', {
        operationId: 'getDocument', tag: 'Documents', scope: 'documents:read', summary: 'Get a document',
        description: 'One document with full text, extracted data, upload metadata, tags and event ids. Soft-deleted ' +
          'documents are returned too (deleted_at set).',
        parameters: id,
        responses: { 200: jsonResponse('The document', ref('DocumentResponse')) },
        errors: DOCUMENT_404,
      }),
      patch: operation('/v1/documents/{id}', {
        operationId: 'editDocument', tag: 'Documents', scope: 'documents:write', summary: 'Edit a document by hand',
        description: 'Hand edits of title, document_date, category_id and tags. Edited fields are kept by reprocessing. ' +
          'Changing tags also needs scope tags:write. Needs editor access to the space; deleted documents are 404.',
        parameters: id,
        jsonBody: ref('DocumentPatch'),
        responses: { 200: jsonResponse('The edited document', ref('DocumentResponse')) },
        errors: {
          400: [INVALID_PARAMETER, UNKNOWN_PARAMETER, 'Invalid parameter category_id: no such category in the document\'s space'],
          403: WRITE_403, ...DOCUMENT_404,
        },
      }),
      delete: operation('/v1/documents/{id}', {
        operationId: 'deleteDocument', tag: 'Documents', scope: 'documents:write', summary: 'Soft-delete a document',
        description: 'Marks the document deleted (recoverable with restore). Idempotent: deleting again returns the first ' +
          'deleted_at. Hides the document from lists, search, downloads and its events from the events endpoints.',
        parameters: id,
        responses: { 200: jsonResponse('Deleted', ref('DeletedDocument')) },
        errors: { 403: WRITE_403, ...DOCUMENT_404 },
      }),
    },
    '/v1/documents/{id}/restore': {
      post: operation('/v1/documents/{id}/restore', {
        operationId: 'restoreDocument', tag: 'Documents', scope: 'documents:write', summary: 'Restore a deleted document',
        description: 'Clears deleted_at. Idempotent: restoring a live document changes nothing and returns it.',
        parameters: id,
        responses: { 200: jsonResponse('The restored document', ref('RestoredDocument')) },
        errors: { 403: WRITE_403, ...DOCUMENT_404 },
      }),
    },
    '/v1/documents/{id}/reprocess': {
      post: operation('/v1/documents/{id}/reprocess', {
        operationId: 'reprocessDocument', tag: 'Documents', scope: 'documents:write', summary: 'Reprocess a document',
        description: 'Runs the pipeline again on the stored original. The id, tags, hand-edited fields and the space are ' +
          'kept; the rest is rebuilt. The document keeps its current data until the new results are written.',
        parameters: id,
        responses: {
          200: jsonResponse('Already in the pipeline; nothing queued (alreadyProcessing true)', ref('ReprocessResult')),
          202: jsonResponse('Queued (queued true)', ref('ReprocessResult')),
        },
        errors: { 403: WRITE_403, ...DOCUMENT_404 },
      }),
    },
    '/v1/documents/reprocess': {
      post: operation('/v1/documents/reprocess', {
        operationId: 'reprocessDocuments', tag: 'Documents', scope: 'documents:write', summary: 'Reprocess several documents',
        description: `Queues up to ${MAX_BULK_REPROCESS} documents. Each id lands in exactly one list of the result; ` +
          'one the key may not edit is not an error of the whole request.',
        jsonBody: ref('BulkReprocessRequest'),
        responses: { 200: jsonResponse('What happened to each id', ref('BulkReprocessResult')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER] },
      }),
    },
  };
}

function downloadPaths(): Record<string, Record<string, Json>> {
  const redirect = (path: string, operationId: string, summary: string): Json => operation(path, {
    operationId, tag: 'Downloads', scope: 'documents:read', summary,
    description: `302 to a signed URL (GET /v1/files/{id}) valid ${SPEC_LIMITS.downloadUrlTtlSeconds} seconds. ` +
      'Clients must follow the redirect; the signed URL needs no Authorization header.',
    parameters: [param('DocumentId')],
    responses: {
      302: { description: 'Redirect to the signed URL (no body)', headers: { ...RATE_HEADERS, Location: {
        description: '/v1/files/{id}?expires=<unix seconds>&key_id=<key id>&signature=<base64url HMAC-SHA256>', schema: str(),
      } } },
    },
    errors: DOCUMENT_404,
  });
  return {
    '/v1/document/{id}/download': { get: redirect('/v1/document/{id}/download', 'downloadDocument', 'Download a document') },
    '/v1/documents/{id}/download': {
      get: redirect('/v1/documents/{id}/download', 'downloadDocumentAlias', 'Download a document (alias)'),
    },
    '/v1/files/{id}': {
      get: operation('/v1/files/{id}', {
        operationId: 'getSignedFile', tag: 'Downloads', scope: null, public: true, summary: 'The signed download URL',
        description: 'The stored file, when the signature is valid, not expired, and the signing key is still active and can ' +
          'still see the document. Content-Type is the document\'s mime_type. Counted against the signing key\'s request ' +
          'budget; a link whose signature is not valid counts against the client IP\'s key-less budget.',
        parameters: [
          param('DocumentId'),
          query('expires', int(undefined, { minimum: 0 }), 'Unix time (seconds) the link expires.', true),
          query('key_id', str(undefined, { pattern: '^[0-9a-f]{32}$' }), 'Id of the key the link was made for.', true),
          query('signature', str(undefined, { pattern: '^[A-Za-z0-9_-]+$' }), 'base64url HMAC-SHA256 of id, expires and key_id.', true),
        ],
        responses: {
          200: {
            description: 'The file',
            headers: {
              ...RATE_HEADERS,
              'Content-Disposition': { description: 'attachment; filename="<ASCII fallback>" (+ filename*=UTF-8\'\'<RFC 5987> for non-ASCII names); the name carries the extension of the detected format', schema: str() },
              'Content-Length': { description: 'size_bytes', schema: int() },
              ETag: { description: 'The SHA-256 of the file, quoted.', schema: str() },
            },
            content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        },
        errors: { 403: [ErrorMessage.invalidDownloadSignature], ...DOCUMENT_404, 500: ['Stored file is missing'] },
      }),
    },
  };
}

function eventPaths(): Record<string, Record<string, Json>> {
  return {
    '/v1/events': {
      get: operation('/v1/events', {
        operationId: 'listEvents', tag: 'Events', scope: 'events:read', summary: 'List events',
        description: 'Events whose (non-deleted) document is in a space the key can see. Ordered by due date (soonest ' +
          'first, undated last), then newest first.',
        parameters: [
          query('state', oneOf(EVENT_STATES), 'Only this state.'),
          query('event_type', oneOf(EVENT_TYPES), 'Only this type.'),
          query('due_before', date(), 'Due on or before this date (YYYY-MM-DD). Undated events never match.'),
          query('due_after', date(), 'Due on or after this date (YYYY-MM-DD). Undated events never match.'),
          param('SpaceFilter'),
          query('document_id', uuid(), 'Only events of this document.'),
          query('updated_after', timestamp(), 'Only events updated strictly after it (ISO 8601).'),
          limitParam(25),
          param('Offset'),
        ],
        responses: { 200: jsonResponse('A page of events', ref('EventList')) },
        errors: { 400: QUERY_ERRORS, 403: [ErrorMessage.spaceDenied] },
      }),
    },
    '/v1/events/{id}': {
      get: operation('/v1/events/{id}', {
        operationId: 'getEvent', tag: 'Events', scope: 'events:read', summary: 'Get an event',
        description: 'One event with its source document, payments and state history.',
        parameters: [param('EventId')],
        responses: { 200: jsonResponse('The event', ref('EventResponse')) },
        errors: { 404: [ErrorMessage.eventNotFound] },
      }),
      patch: operation('/v1/events/{id}', {
        operationId: 'editEvent', tag: 'Events', scope: 'documents:write', summary: 'Edit an event by hand',
        description: 'Gives an event the facts extraction missed or got wrong: event_type, amount, due_date, ' +
          'reference_number, sender_name. Each given field is remembered as a hand edit: reprocessing keeps it and the ' +
          'document\'s extracted_data shows it with source "edit". The state is then decided again from the new facts ' +
          'unless it is settled (paid, cancelled, archived) or was set by hand; e.g. an invoice in needs_input that gets ' +
          'an amount becomes open (history cause "edited: payable with amount"). Scope documents:write (v1 has no ' +
          'events:write scope) and role editor in the space of the event\'s document.',
        parameters: [param('EventId')],
        jsonBody: ref('EventPatch'),
        responses: { 200: jsonResponse('The event after the edit', ref('EventResponse')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER], 403: WRITE_403, 404: [ErrorMessage.eventNotFound] },
      }),
    },
    '/v1/events/{id}/state': {
      post: operation('/v1/events/{id}/state', {
        operationId: 'changeEventState', tag: 'Events', scope: 'documents:write', summary: 'Change an event\'s state by hand',
        description: 'A person settles or files an event; needs role editor in the space of its document. The move ' +
          'must be allowed (below); the same state again changes nothing. Each change is recorded in the history and ' +
          'remembered as set by hand: reprocessing and the hourly expiry never undo it. A change to paid also records a ' +
          'confirmed manual payment; paid → open (payment reversed) marks the latest confirmed payment unconfirmed; a ' +
          'change to active may carry the renewal\'s new end date (due_date). An invoice moves to open only once it has ' +
          `an amount (PATCH /v1/events/{id}).\n\n| from | allowed to |\n|---|---|\n${transitionTable()}`,
        parameters: [param('EventId')],
        jsonBody: ref('EventStateRequest'),
        responses: { 200: jsonResponse('The event after the change', ref('EventResponse')) },
        errors: {
          400: [INVALID_PARAMETER, UNKNOWN_PARAMETER, 'Invalid parameter paid_at: only with state paid',
            'Invalid parameter due_date: only with state active'],
          403: WRITE_403,
          404: [ErrorMessage.eventNotFound],
          409: ['Cannot change an event from <from> to <to>',
            'Cannot change an event from <from> to open without an amount (set it with PATCH /v1/events/{id})'],
        },
      }),
    },
  };
}

function transitionTable(): string {
  return Object.entries(MANUAL_TRANSITIONS).map(([from, to]) => `| ${from} | ${to.join(', ')} |`).join('\n');
}

function catalogPaths(): Record<string, Record<string, Json>> {
  const list = (path: string, operationId: string, scope: Scope, summary: string, description: string, schema: string,
    parameters: Json[] = []): Json => operation(path, {
    operationId, tag: 'Catalog', scope, summary, description, parameters,
    responses: { 200: jsonResponse(summary, ref(schema)) },
    errors: { 400: parameters.length ? QUERY_ERRORS : [UNKNOWN_PARAMETER], ...(parameters.length ? { 403: [ErrorMessage.spaceDenied] } : {}) },
  });
  return {
    '/v1/search': {
      post: operation('/v1/search', {
        operationId: 'search', tag: 'Search', scope: 'search', summary: 'Full-text search',
        description: 'Searches title, text, sender and tags of non-deleted documents in the spaces the key can see. Every ' +
          'word must match as a prefix ("rechn" finds "Rechnung"); case and diacritics are ignored ("uber" finds "über"); ' +
          'quotes and operators are plain text. A query without letters or digits finds nothing.',
        jsonBody: ref('SearchRequest'),
        responses: { 200: jsonResponse('Hits, best first', ref('SearchResults')) },
        errors: { 400: [INVALID_PARAMETER, UNKNOWN_PARAMETER], 403: [ErrorMessage.spaceDenied] },
      }),
    },
    '/v1/spaces': {
      get: list('/v1/spaces', 'listSpaces', 'spaces:read', 'List spaces',
        'The spaces the key can see, the default first, then by name; access tells what the key may do there.', 'SpaceList'),
    },
    '/v1/categories': {
      get: list('/v1/categories', 'listCategories', 'categories:read', 'List categories',
        'Categories of the spaces the key can see, by name.', 'CategoryList', [param('SpaceFilter')]),
      post: operation('/v1/categories', {
        operationId: 'createCategory', tag: 'Catalog', scope: 'categories:write', summary: 'Create a category',
        description: 'Creates a category in a space where the key is editor. Names are unique per space, case-insensitive.',
        jsonBody: ref('NewCategory'),
        responses: {
          201: jsonResponse('Created', ref('CategoryResponse')),
        },
        errors: {
          400: [INVALID_PARAMETER, UNKNOWN_PARAMETER], 403: WRITE_403, 404: [SPACE_NOT_FOUND], 409: [ErrorMessage.categoryExists],
        },
      }),
    },
    '/v1/tags': {
      get: list('/v1/tags', 'listTags', 'tags:read', 'List tags', 'Tags on non-deleted documents the key can see, by name.', 'TagList'),
    },
    '/v1/senders': {
      get: list('/v1/senders', 'listSenders', 'senders:read', 'List senders',
        'Senders of non-deleted documents or events the key can see, by name.', 'SenderList'),
    },
  };
}

function servicePaths(): Record<string, Record<string, Json>> {
  return {
    '/v1/me': {
      get: operation('/v1/me', {
        operationId: 'getKey', tag: 'Service', scope: null, summary: 'The calling key',
        description: 'Name, role, scopes and spaces of the key (a client\'s "test connection").',
        responses: { 200: jsonResponse('The key', ref('KeyResponse')) },
      }),
    },
    '/v1/health': {
      get: operation('/v1/health', {
        operationId: 'health', tag: 'Service', scope: null, public: true, summary: 'Health check',
        description: `Answers while the service runs. Counted per client address in a window of its own ` +
          `(${SPEC_LIMITS.healthRequestsPerWindow} a minute), never against the key-less budget of that address.`,
        responses: { 200: jsonResponse('Running', ref('Health')) },
      }),
    },
    '/v1/openapi.json': {
      get: operation('/v1/openapi.json', {
        operationId: 'openapi', tag: 'Service', scope: null, public: true, summary: 'This OpenAPI document',
        description: 'The OpenAPI 3.1 description of the interface. Rate limited per client IP.',
        responses: { 200: jsonResponse('The document', { type: 'object' }) },
      }),
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The document

const SCOPE_TEXT: Record<Scope, string> = {
  'documents:read': 'list, get and download documents',
  'documents:write': 'upload, edit (PATCH), delete, restore and reprocess documents, edit events and change their ' +
    'states (also needs role editor in the space)',
  search: 'full-text search (POST /v1/search)',
  'spaces:read': 'list spaces',
  'categories:read': 'list categories',
  'categories:write': 'create categories (also needs role editor in the space)',
  'tags:read': 'list tags',
  'tags:write': 'change a document\'s tags with PATCH /v1/documents/{id} (together with documents:write)',
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
              'outside a restricted key\'s list is 403 whether or not it exists; documents in spaces the key cannot see ' +
              'are 404. Operations list the scope they need in `security` and in `x-required-scope`.',
            `| scope | allows |\n|---|---|\n${scopeTable}`,
          ].join('\n\n'),
        },
      },
      headers: headers(),
      parameters: parameters(),
      responses: {
        Unauthorized: errorResponse('Missing, malformed, unknown or revoked API key', [ErrorMessage.invalidKey],
          { extraHeaders: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } } }),
        RateLimited: errorResponse('Rate limit exceeded: wait Retry-After seconds', [ErrorMessage.rateLimited],
          { schema: 'RateLimitError', extraHeaders: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } }),
        InternalError: errorResponse('Internal error', [ErrorMessage.internal]),
      },
      schemas: schemas(),
    },
  };
}
