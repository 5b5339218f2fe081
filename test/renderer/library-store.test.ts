import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallInput, CallOutput, DesktopApi, DocumentView } from '../../common/ipc.ts';
import { setDesktop } from '../../renderer/src/lib/desktop.ts';
import {
  defaultFilters,
  LibraryStore,
  PAGE_SIZE,
  pageQuery,
  prefetchFirstPage,
} from '../../renderer/src/lib/library-store.svelte.ts';

type List = CallOutput<'library.list'>;
type Query = CallInput<'library.list'>;

function doc(n: number): DocumentView {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    space_id: 's',
    category_id: null,
    category_name: null,
    status: 'completed',
    title: `Doc ${n}`,
    original_filename: `doc-${n}.pdf`,
    mime_type: 'application/pdf',
    file_format: 'pdf',
    size_bytes: 1,
    sha256: String(n).padStart(64, '0'),
    page_count: 1,
    language: null,
    sender_name: null,
    document_date: null,
    tags: [],
    duplicate_of: null,
    processing_note: null,
    error: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    processed_at: null,
    deleted_at: null,
  };
}

/** A library of `total` documents; each answer waits until released (or answers at once with `auto`). */
function fakeLibrary(total: number, auto = true) {
  const calls: Query[] = [];
  const pending: Array<{ query: Query; release: (error?: Error) => void }> = [];
  const answer = (query: Query): List => {
    const offset = query.offset ?? 0;
    const count = Math.max(0, Math.min(query.limit ?? 100, total - offset));
    return { items: Array.from({ length: count }, (_, i) => doc(offset + i)), total };
  };
  const list = vi.fn((query: Query): Promise<List> => {
    calls.push(query);
    if (auto) return Promise.resolve(answer(query));
    return new Promise<List>((resolve, reject) => {
      pending.push({ query, release: (error) => (error ? reject(error) : resolve(answer(query))) });
    });
  });
  setDesktop({ 'library.list': list } as unknown as DesktopApi);
  return { calls, pending, list };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe('LibraryStore', () => {
  it('asks for one page at a time with only the filters that are set', () => {
    expect(pageQuery({ ...defaultFilters(), space_id: '', status: undefined }, 2)).toEqual({
      sort_by: 'created_at',
      sort_order: 'desc',
      deleted: false,
      limit: PAGE_SIZE,
      offset: 2 * PAGE_SIZE,
    });
    expect(pageQuery({ ...defaultFilters(true), tags: ['tax'] }, 0)).toMatchObject({
      deleted: true,
      tags: ['tax'],
      offset: 0,
    });
  });

  it('pages: fetches page 0 on reset, further pages only when asked, each once, and maps rows into them', async () => {
    const library = fakeLibrary(450);
    const store = new LibraryStore();
    store.reset();
    await settle();
    expect(store.loaded).toBe(true);
    expect(store.total).toBe(450);
    expect(store.row(0)?.title).toBe('Doc 0');
    expect(store.row(PAGE_SIZE)).toBeUndefined();

    store.ensure([0, 1, 2]);
    store.ensure([1, 2]);
    await settle();
    expect(library.calls.map((q) => q.offset)).toEqual([0, PAGE_SIZE, 2 * PAGE_SIZE]);
    expect(store.row(PAGE_SIZE + 5)?.title).toBe(`Doc ${PAGE_SIZE + 5}`);
    expect(store.row(449)?.title).toBe('Doc 449');
    expect(store.row(450)).toBeUndefined();
    expect(store.loadedRows()).toHaveLength(450);

    await store.refreshLoaded();
    expect(library.calls).toHaveLength(6);
  });

  it('drops a stale answer: a reply to the previous filters never lands after the filters changed', async () => {
    const library = fakeLibrary(3, false);
    const store = new LibraryStore();
    store.reset();
    store.setFilters({ ...defaultFilters(), status: 'failed' });
    expect(library.pending.map((p) => p.query.status)).toEqual([undefined, 'failed']);

    library.pending[1]!.release();
    await settle();
    expect(store.total).toBe(3);
    const fresh = store.row(0);

    // The first request answers late (and then one fails late): neither touches the store.
    library.pending[0]!.release();
    await settle();
    expect(store.row(0)).toBe(fresh);
    store.ensure([1]);
    store.setFilters(defaultFilters());
    library.pending[2]!.release(new Error('late failure'));
    await settle();
    expect(store.error).toBeNull();

    library.pending[3]!.release(new Error('archive unreachable'));
    await settle();
    expect(store.error).toBe('archive unreachable');
    expect(store.loaded).toBe(true);
  });

  it('clears the selection and the pages when the filters change', async () => {
    fakeLibrary(5);
    const store = new LibraryStore();
    store.reset();
    await settle();
    store.selected.add(doc(1).id);
    store.setFilters({ ...defaultFilters(), sort_order: 'asc' });
    expect(store.selected.size).toBe(0);
    expect(store.loaded).toBe(false);
    await settle();
    expect(store.loaded).toBe(true);
  });

  it('takes the prefetched first page instead of asking again, only for the same query and while fresh', async () => {
    const library = fakeLibrary(2);
    prefetchFirstPage();
    const store = new LibraryStore();
    store.reset();
    await settle();
    expect(library.list).toHaveBeenCalledTimes(1);
    expect(store.total).toBe(2);

    // Another query (the Deleted view) does not take it; the prefetch is used up either way.
    prefetchFirstPage();
    const deleted = new LibraryStore();
    deleted.setFilters(defaultFilters(true));
    await settle();
    expect(library.list).toHaveBeenCalledTimes(3);
    store.reset();
    await settle();
    expect(library.list).toHaveBeenCalledTimes(4);

    // Older than three seconds: asked again.
    const now = performance.now();
    const clock = vi.spyOn(performance, 'now').mockReturnValue(now);
    prefetchFirstPage();
    clock.mockReturnValue(now + 3_001);
    store.reset();
    await settle();
    expect(library.list).toHaveBeenCalledTimes(6);
  });

  it('shows a prefetched first page that has arrived at once, so the first render has its rows', async () => {
    const library = fakeLibrary(3);
    await prefetchFirstPage();
    const store = new LibraryStore();
    store.setFilters(defaultFilters());
    // No await in between: the answer is applied in the same task.
    expect(store.loaded).toBe(true);
    expect(store.total).toBe(3);
    expect(store.row(2)?.title).toBe('Doc 2');
    expect(library.list).toHaveBeenCalledTimes(1);
  });

  it('reports a failed prefetch when the store takes it', async () => {
    const list = vi.fn(() => Promise.reject(new Error('socket closed')));
    setDesktop({ 'library.list': list } as unknown as DesktopApi);
    prefetchFirstPage();
    await settle();
    const store = new LibraryStore();
    store.reset();
    await settle();
    expect(list).toHaveBeenCalledTimes(1);
    expect(store.error).toBe('socket closed');
  });
});
