import type { ArchiveDocument, ArchiveEvent, ListEnvelope } from '../../../common/archive-types.ts';
import type { DocumentListQuery, EventListQuery } from '../client/archive-client.ts';
import { ArchiveError } from '../client/archive-error.ts';

/** What library sync needs of the archive client (the real ArchiveClient in the app and in tests). */
export interface LibraryClient {
  listDocuments(query: DocumentListQuery, signal?: AbortSignal): Promise<ListEnvelope<ArchiveDocument>>;
  getDocument(id: string, signal?: AbortSignal): Promise<ArchiveDocument>;
  listEvents(query: EventListQuery, signal?: AbortSignal): Promise<ListEnvelope<ArchiveEvent>>;
  getEvent(id: string, signal?: AbortSignal): Promise<ArchiveEvent>;
}

/**
 * The service lacks an extension this service designed beyond the spec (`updated_after`, `deleted`): it refused the
 * parameter, or ignored it and answered as if it had not been sent.
 */
export class UnsupportedExtension extends Error {
  constructor(parameter: string) {
    super(`The service does not support ${parameter}`);
    this.name = 'UnsupportedExtension';
  }
}

export function isUnknownParameter(error: unknown, parameter: string): boolean {
  return (
    error instanceof ArchiveError &&
    error.status === 400 &&
    error.message.includes(parameter) &&
    /unknown|unsupported|not allowed|invalid/i.test(error.message)
  );
}

export function shiftIso(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** The later of ISO timestamps (compared as instants: a hosted service may write offsets). */
export function maxIso(...values: Array<string | null | undefined>): string | null {
  let best: string | null = null;
  for (const value of values) {
    if (value && (best === null || Date.parse(value) > Date.parse(best))) best = value;
  }
  return best;
}

/** The earlier of two ISO timestamps, or the one that is given. */
export function minIso(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

/**
 * Pages through documents whose `field` lies after `start`, ascending, anchored on values instead of offsets: each
 * request asks for `field > last value - 1 ms` and skips the rows of that last millisecond it has already seen. A
 * document changed meanwhile moves to the end and is met again; none is skipped because others moved, and any number
 * of documents may share one timestamp.
 */
export async function keysetDocuments(
  client: LibraryClient,
  options: {
    field: 'created_at' | 'updated_at';
    start: string | null;
    extra?: DocumentListQuery;
    pageSize: number;
    signal?: AbortSignal;
    onPage: (items: ArchiveDocument[]) => void;
  },
): Promise<void> {
  const param = options.field === 'created_at' ? 'created_after' : 'updated_after';
  let after = options.start;
  let offset = 0;
  for (;;) {
    const query: DocumentListQuery = {
      ...options.extra,
      sort_by: options.field,
      sort_order: 'asc',
      limit: options.pageSize,
      offset,
      ...(after === null ? {} : { [param]: after }),
    };
    let page: ListEnvelope<ArchiveDocument>;
    try {
      page = await client.listDocuments(query, options.signal);
    } catch (error) {
      const refused = [param, 'deleted'].find((name) => isUnknownParameter(error, name));
      throw refused ? new UnsupportedExtension(refused) : error;
    }
    const bound = after;
    if (bound !== null && page.items.some((d) => Date.parse(d[options.field]) <= Date.parse(bound)))
      throw new UnsupportedExtension(param);
    options.onPage(page.items);
    if (page.items.length < options.pageSize) return;
    const next = shiftIso(page.items.at(-1)![options.field], -1);
    const seenAgain = page.items.filter((d) => Date.parse(d[options.field]) > Date.parse(next)).length;
    offset = next === after ? offset + page.items.length : seenAgain;
    after = next;
  }
}

/** Pages through a list by offset until a short page (for lists the service cannot order by a cursor). */
export async function pageAll<T>(
  fetch: (offset: number) => Promise<ListEnvelope<T>>,
  pageSize: number,
  onPage: (items: T[]) => void,
): Promise<{ seen: number; firstTotal: number; lastTotal: number }> {
  let offset = 0;
  let firstTotal = -1;
  for (;;) {
    const page = await fetch(offset);
    if (firstTotal < 0) firstTotal = page.total;
    onPage(page.items);
    offset += page.items.length;
    if (page.items.length < pageSize) return { seen: offset, firstTotal, lastTotal: page.total };
  }
}
