import type { CallOutput, LibraryQuery } from '../../../common/ipc.ts';
import { desktop } from './desktop.ts';

/** The library.list queries of the library's pages, and the first page asked for before the app has mounted. */

export const PAGE_SIZE = 200;

export type LibraryFilters = Pick<
  LibraryQuery,
  'sort_by' | 'sort_order' | 'space_id' | 'category_id' | 'status' | 'created_after' | 'tags' | 'deleted'
>;

export function defaultFilters(deleted = false): LibraryFilters {
  return { sort_by: 'created_at', sort_order: 'desc', deleted };
}

/**
 * The library.list query of one page. Absent filters are left out (the contract's strict schema rejects
 * undefined-valued keys over some bridges).
 */
export function pageQuery(filters: LibraryFilters, page: number): Partial<LibraryQuery> {
  return Object.fromEntries(
    Object.entries({ ...filters, limit: PAGE_SIZE, offset: page * PAGE_SIZE }).filter(
      ([, value]) => value !== undefined && value !== '',
    ),
  ) as Partial<LibraryQuery>;
}

// Code-unit order, not localeCompare: the first localeCompare builds a collator, a measurable part of a cold start.
const queryKey = (query: Partial<LibraryQuery>): string =>
  JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** How long a prefetched page may wait for the store to take it before it counts as stale. */
const PREFETCH_FRESH_MS = 3_000;
type ListAnswer = CallOutput<'library.list'>;
let prefetched: { key: string; result: Promise<ListAnswer>; answer: ListAnswer | null; at: number } | null = null;

/**
 * Asks for the first page of the default library view right away (main.ts calls it before mounting the app), so the
 * answer travels while the settings are asked for; the first LibraryStore with the same query
 * takes it instead of asking again.
 */
export function prefetchFirstPage(): Promise<ListAnswer> {
  const query = pageQuery(defaultFilters(), 0);
  const result = desktop()['library.list'](query);
  const entry = { key: queryKey(query), result, answer: null as ListAnswer | null, at: performance.now() };
  // Kept once it is here, so a store made after that renders the page in its first pass instead of a microtask later.
  // A failure is reported by the store when it takes the promise; until then it must not count as unhandled.
  result.then(
    (answer) => {
      entry.answer = answer;
    },
    () => undefined,
  );
  prefetched = entry;
  return result;
}

/**
 * The prefetched first page when `query` is the one it answers and it is fresh, taken once: its answer when it has
 * arrived, else the promise of it.
 */
export function takePrefetched(query: Partial<LibraryQuery>): ListAnswer | Promise<ListAnswer> | null {
  const taken = prefetched;
  prefetched = null;
  if (!taken || taken.key !== queryKey(query) || performance.now() - taken.at > PREFETCH_FRESH_MS) return null;
  return taken.answer ?? taken.result;
}
