import type { UploadTransport } from './journal-types.ts';

/**
 * A local dedupe hit is only as good as the archive's memory: the document the journal remembers may have been
 * deleted since. One GET (a request token, never an upload token) says; when it is gone, or the archive cannot say,
 * the copy is uploaded, and the service's own duplicate detection keeps that harmless. Returns the id to reuse.
 */
export async function stillArchived(transport: UploadTransport, documentId: string): Promise<string | null> {
  if (!transport.getDocument) return null;
  try {
    // Bounded: a slow answer must not hold a hashing slot for long; uploading instead is always safe.
    const document = await transport.getDocument(documentId, AbortSignal.timeout(10_000));
    return document.deleted_at === null ? documentId : null;
  } catch {
    return null;
  }
}
