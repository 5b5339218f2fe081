/**
 * components.schemas of the OpenAPI document, generated with z.toJSONSchema from the zod schemas the code validates
 * with: the resources and answers of common/archive-schemas.ts (which the desktop parses every answer with) and the
 * request bodies the routes parse. Descriptions live on the schemas' fields.
 */
import { z } from 'zod';
import * as resource from '../../../common/archive-schemas.ts';
import { ErrorMessage } from '../../../common/errors.ts';
import { eventPatchSchema } from '../../../common/event-patch.ts';
import { uploadMetadataSchema } from '../../../common/upload-metadata.ts';
import { newCategorySchema } from '../../catalog/catalog-routes.ts';
import { bulkReprocessRequestSchema, documentPatchSchema } from '../../documents/document-routes.ts';
import { stateChangeRequestSchema } from '../../events/event-routes.ts';
import { searchRequestSchema } from '../../search/search-routes.ts';

export type Json = Record<string, unknown>;

export const schemaRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** What the service answers: described as parsed (io output). */
function responseSchemas(): Record<string, z.ZodType> {
  const { errorResponseSchema, listEnvelopeSchema } = resource;
  return {
    Error: errorResponseSchema,
    RateLimitError: errorResponseSchema.extend({
      error: z.literal(ErrorMessage.rateLimited),
      retryAfter: errorResponseSchema.shape.retryAfter
        .unwrap()
        .describe('Seconds until the window resets (same as Retry-After).'),
    }),
    Amount: resource.amountSchema,
    ExtractedField: resource.extractedFieldSchema,
    Document: resource.documentSchema,
    DocumentDetail: resource.documentDetailSchema,
    Payment: resource.paymentSchema,
    EventStateChange: resource.eventStateChangeSchema,
    Event: resource.eventSchema,
    EventDetail: resource.eventDetailSchema,
    Space: resource.spaceSchema,
    Category: resource.categorySchema,
    Tag: resource.tagSchema,
    Sender: resource.senderSchema,
    KeyInfo: resource.keyInfoSchema,
    SearchHit: resource.searchHitSchema,
    DocumentList: listEnvelopeSchema(resource.documentSchema).describe('A page of documents.'),
    EventList: listEnvelopeSchema(resource.eventSchema).describe('A page of events.'),
    SpaceList: listEnvelopeSchema(resource.spaceSchema).describe(
      'All spaces the key can see (no paging: limit = total, offset 0).',
    ),
    CategoryList: listEnvelopeSchema(resource.categorySchema).describe(
      'All matching categories (no paging: limit = total, offset 0).',
    ),
    TagList: listEnvelopeSchema(resource.tagSchema).describe('All tags in use on visible documents (no paging).'),
    SenderList: listEnvelopeSchema(resource.senderSchema).describe(
      'All senders of visible documents or events (no paging).',
    ),
    SearchResults: resource.searchResponseSchema,
    DocumentResponse: resource.documentResponseSchema,
    RestoredDocument: resource.restoredDocumentResponseSchema,
    DeletedDocument: resource.deletedDocumentResponseSchema,
    EventResponse: resource.eventResponseSchema,
    CategoryResponse: resource.categoryResponseSchema,
    KeyResponse: resource.keyResponseSchema,
    Health: resource.healthResponseSchema,
    UploadAccepted: resource.uploadAcceptedSchema,
    ReprocessResult: resource.reprocessResponseSchema,
    BulkReprocessResult: resource.bulkReprocessResponseSchema,
  };
}

/** What a client sends: described as accepted before parsing (io input: defaults optional, any-case currencies). */
function requestSchemas(): Record<string, z.ZodType> {
  return {
    UploadMetadata: uploadMetadataSchema,
    DocumentPatch: documentPatchSchema,
    BulkReprocessRequest: bulkReprocessRequestSchema,
    SearchRequest: searchRequestSchema,
    EventStateRequest: stateChangeRequestSchema,
    EventPatch: eventPatchSchema,
    NewCategory: newCategorySchema,
  };
}

/** The formats whose meaning is the format itself: zod's own long regex for them tells a reader nothing more. */
const SELF_DESCRIBING_FORMATS = new Set(['uuid', 'date-time']);

function tidy({
  zodSchema,
  jsonSchema,
}: {
  zodSchema: z.core.$ZodType;
  jsonSchema: z.core.JSONSchema.BaseSchema;
}): void {
  const def = zodSchema._zod.def;
  // z.object lets unknown fields through (clients ignore fields they do not know, so v1 can add some); only
  // z.strictObject, which the request bodies use, refuses them.
  if (def.type === 'object' && !(def as z.core.$ZodObjectDef).catchall) delete jsonSchema.additionalProperties;
  if (typeof jsonSchema.format === 'string' && SELF_DESCRIBING_FORMATS.has(jsonSchema.format))
    delete jsonSchema.pattern;
  // The bounds every zod integer carries: no limit of the interface.
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  // The desktop accepts any JSON in extracted_data (the spec leaves its form open); this service writes ExtractedFields.
  if (zodSchema === resource.documentDetailSchema.shape.extracted_data)
    jsonSchema.additionalProperties = schemaRef('ExtractedField');
}

function generate(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => schemaRef(id).$ref as string,
    override: tidy,
  }).schemas;
  const out: Record<string, Json> = {};
  // A component is not a JSON Schema document of its own: no dialect or $id (the OpenAPI document names both).
  for (const id of Object.keys(schemas)) {
    const { $schema: _dialect, $id: _id, ...schema } = generated[id] as Json;
    out[id] = schema;
  }
  return out;
}

export function componentSchemas(): Record<string, Json> {
  return { ...generate(responseSchemas(), 'output'), ...generate(requestSchemas(), 'input') };
}
