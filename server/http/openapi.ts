/** Placeholder replaced by the full OpenAPI 3.1 document. */
export function openApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Document Archive Service', version: '1.0.0' }, paths: {} };
}
