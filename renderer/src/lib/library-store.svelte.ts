import type { CallOutput, DocumentView } from '../../../common/ipc.ts';
import { desktop } from './desktop.ts';
import { t } from './i18n.svelte.ts';
import { serviceMessage } from './service-messages.ts';
import { defaultFilters, PAGE_SIZE, pageQuery, takePrefetched, type LibraryFilters } from './library-query.ts';
import { SvelteMap, SvelteSet } from 'svelte/reactivity';

export { defaultFilters, PAGE_SIZE, pageQuery, prefetchFirstPage, type LibraryFilters } from './library-query.ts';

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
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping of requests in flight; nothing renders it
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
    if (pages.length === 0) {
      await this.fetchPage(0);
      return;
    }
    await Promise.all(pages.map((p) => this.fetchPage(p, true)));
  }

  async fetchPage(page: number, force = false): Promise<void> {
    if (this.inflight.has(page) && !force) return;
    this.inflight.add(page);
    const generation = this.generation;
    const query = pageQuery($state.snapshot(this.filters), page);
    const prefetched = takePrefetched(query);
    // A first page already here is shown at once: a Library made with it renders its rows in its first pass.
    if (prefetched && !(prefetched instanceof Promise)) {
      this.show(page, prefetched);
      this.inflight.delete(page);
      return;
    }
    try {
      const result = await (prefetched ?? desktop()['library.list'](query));
      if (generation !== this.generation) return;
      this.show(page, result);
    } catch (error) {
      if (generation === this.generation) {
        this.error = serviceMessage(error, t).text;
        this.loaded = true;
      }
    } finally {
      this.inflight.delete(page);
    }
  }

  private show(page: number, result: CallOutput<'library.list'>): void {
    this.total = result.total;
    this.pages.set(page, result.items);
    this.loaded = true;
    this.error = null;
  }

  /** Fetches every page not yet loaded (select all); the list is served from the local cache, a few ms a page. */
  async loadAll(): Promise<void> {
    const pages = Math.ceil(this.total / PAGE_SIZE);
    const missing = Array.from({ length: pages }, (_, page) => page).filter((page) => !this.pages.has(page));
    await Promise.all(missing.map((page) => this.fetchPage(page, true)));
  }

  /** Where the document is among the loaded pages, or -1. */
  indexOf(id: string): number {
    for (const [page, rows] of this.pages) {
      const at = rows.findIndex((d) => d.id === id);
      if (at >= 0) return page * PAGE_SIZE + at;
    }
    return -1;
  }

  loadedRows(): DocumentView[] {
    return [...this.pages.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, rows]) => rows);
  }
}
