import type { DocumentView, LibraryQuery } from '../../../common/ipc.ts';
import { desktop, errorMessage } from './desktop.ts';
import { SvelteMap, SvelteSet } from 'svelte/reactivity';

export const PAGE_SIZE = 200;

export type LibraryFilters = Pick<LibraryQuery, 'sort_by' | 'sort_order' | 'space_id' | 'category_id' | 'status' | 'created_after' | 'tags' | 'deleted'>;

export function defaultFilters(deleted = false): LibraryFilters {
  return { sort_by: 'created_at', sort_order: 'desc', deleted };
}

/**
 * The library as a sparse array of pages: only the pages the list window touches are fetched (library.list is served
 * from the local cache, so a page of 200 costs a few ms). A generation counter drops answers to an older query.
 */
export class LibraryStore {
  filters = $state<LibraryFilters>(defaultFilters());
  total = $state(0);
  loaded = $state(false);
  error = $state<string | null>(null);
  pages = new SvelteMap<number, DocumentView[]>();
  selected = new SvelteSet<string>();
  private inflight = new Set<number>();
  private generation = 0;

  setFilters(filters: LibraryFilters): void {
    this.filters = filters;
    this.reset();
  }

  reset(): void {
    this.generation++;
    this.pages.clear();
    this.inflight.clear();
    this.selected.clear();
    this.loaded = false;
    this.error = null;
    void this.fetchPage(0);
  }

  row(index: number): DocumentView | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  ensure(pages: number[]): void {
    for (const page of pages) if (!this.pages.has(page)) void this.fetchPage(page);
  }

  /** Re-reads the pages already shown (status chips change live on library.changed). */
  async refreshLoaded(): Promise<void> {
    const pages = [...this.pages.keys()];
    if (pages.length === 0) { await this.fetchPage(0); return; }
    await Promise.all(pages.map((p) => this.fetchPage(p, true)));
  }

  async fetchPage(page: number, force = false): Promise<void> {
    if (this.inflight.has(page) && !force) return;
    this.inflight.add(page);
    const generation = this.generation;
    // Absent filters must be left out (the contract's strict schema rejects undefined-valued keys over some bridges).
    const query = Object.fromEntries(Object.entries({ ...$state.snapshot(this.filters), limit: PAGE_SIZE, offset: page * PAGE_SIZE })
      .filter(([, value]) => value !== undefined && value !== '')) as Partial<LibraryQuery>;
    try {
      const result = await desktop()['library.list'](query);
      if (generation !== this.generation) return;
      this.total = result.total;
      this.pages.set(page, result.items);
      this.loaded = true;
      this.error = null;
    } catch (error) {
      if (generation === this.generation) { this.error = errorMessage(error); this.loaded = true; }
    } finally {
      this.inflight.delete(page);
    }
  }

  loadedRows(): DocumentView[] {
    return [...this.pages.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, rows]) => rows);
  }
}
