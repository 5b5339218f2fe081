/** Library cache contents for the UI benchmark and the first-paint test: no files behind them, only rows. */
import { DOCUMENT_STATUSES, type ArchiveDocument, type ArchiveEvent } from '../../common/archive-types.ts';

const SENDERS = [
  'Stadtwerke Beispiel GmbH',
  'Telekom Deutschland',
  'Example Hosting Ltd',
  'Finanzamt Musterstadt',
  'Beispiel Versicherung AG',
  null,
];

/** `count` documents of a plausible German archive, one an hour from 2024-01-01, every 50th not completed. */
export function syntheticDocuments(count: number): ArchiveDocument[] {
  const space = '7b3e1c52-8f0a-4d7e-9b61-2a4c5d6e7f80';
  const start = Date.parse('2024-01-01T08:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const created = new Date(start + i * 3_600_000).toISOString();
    const sender = SENDERS[i % SENDERS.length]!;
    return {
      id: crypto.randomUUID(),
      space_id: space,
      category_id: null,
      category_name: null,
      status: i % 50 === 0 ? DOCUMENT_STATUSES[i % DOCUMENT_STATUSES.length]! : 'completed',
      title: `${sender ?? 'Brief'} – Dokument ${i + 1}`,
      original_filename: `scan_${String(i + 1).padStart(5, '0')}.pdf`,
      mime_type: 'application/pdf',
      file_format: 'pdf',
      size_bytes: 20_000 + (i % 997) * 100,
      sha256: i.toString(16).padStart(64, '0'),
      page_count: 1 + (i % 4),
      language: 'de',
      sender_name: sender,
      document_date: created.slice(0, 10),
      tags: i % 3 === 0 ? ['rechnung'] : [],
      duplicate_of: null,
      processing_note: null,
      error: null,
      created_at: created,
      updated_at: created,
      processed_at: created,
      deleted_at: null,
    };
  });
}

/**
 * An invoice of every second document, with an amount from cents to thousands (grouping shows in the cards),
 * due on its document's date; the rest have no event, as letters have none.
 */
export function syntheticEvents(documents: readonly ArchiveDocument[]): ArchiveEvent[] {
  return documents
    .filter((_, i) => i % 2 === 0)
    .map((doc, i) => ({
      id: crypto.randomUUID(),
      document_id: doc.id,
      space_id: doc.space_id,
      event_type: 'invoice',
      state: 'open',
      title: doc.title,
      amount: { value: Math.round(((i * 7919) % 250_000) + 99) / 100, currency: 'EUR' },
      due_date: doc.document_date,
      reference_number: `R-${i + 1}`,
      sender_name: doc.sender_name,
      created_at: doc.created_at,
      updated_at: doc.updated_at,
    }));
}
