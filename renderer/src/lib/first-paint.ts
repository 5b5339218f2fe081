import { FIRST_PAINT_MAX_CHARS } from '../../../common/first-paint.ts';
import { desktop } from './desktop.ts';
import { i18n } from './i18n.svelte.ts';
import type { LibraryView } from '../../../common/settings.ts';

/**
 * The renderer's side of the library's first paint (main/core/shell/first-paint.ts): the library screen, once it has
 * settled as a start shows it, is kept through `library.saveFirstPaint`, and the shells paint it at the next start
 * before the app's scripts have run.
 */

/** How long the library must stay as it is before it is kept: a list still loading or scrolling is not. */
export const SETTLE_MS = 1_500;
/** The app's screens (App.svelte); toasts, dialogs and the drop overlay are outside it and never kept. */
const SHELL = '#app > .shell';
const LIST = '[data-testid=library-list]';
const ITEM = '[data-testid=library-row], [data-testid=library-cell]';
const LOADING_ITEM = '[data-testid=library-row]:not([data-id]), [data-testid=library-cell]:not([data-id])';

/**
 * The build a page belongs to: the names of its entry script and style sheets, linked or inlined by a first paint,
 * which change with their contents (the shells name the built index.html's the same way: first-paint.ts buildOf).
 */
export function buildOf(page: Pick<Document, 'querySelectorAll'>): string {
  return [...page.querySelectorAll('script[type="module"][src], link[rel="stylesheet"][href], style[data-href]')]
    .map(
      (element) =>
        element.getAttribute('src') ?? element.getAttribute('href') ?? element.getAttribute('data-href') ?? '',
    )
    .map((path) => path.slice(path.lastIndexOf('/') + 1))
    .sort()
    .join(' ');
}

/**
 * The shell's markup as painted, without what only this page can show: its blob: images (thumbnails) die with it, and
 * what they covered shows instead (a cell's format). Items wholly below the list's visible end are left out: the
 * virtual window keeps them for scrolling, a first frame of the same window cannot show them, and each costs a fresh
 * page layout and paint before that frame.
 */
export function snapshotOf(shell: Element): string {
  const bottom = shell.querySelector(LIST)?.getBoundingClientRect().bottom ?? Infinity;
  const items = [...shell.querySelectorAll(ITEM)];
  const copy = shell.cloneNode(true) as Element;
  const copies = [...copy.querySelectorAll(ITEM)];
  items.forEach((item, index) => {
    if (item.getBoundingClientRect().top >= bottom) copies[index]?.remove();
  });
  for (const image of copy.querySelectorAll('img[src^="blob:"]')) image.remove();
  return copy.outerHTML;
}

/**
 * Keeps the library for the next start whenever it has settled (SETTLE_MS without a change in the page) the way a
 * start shows it: `startedView` names the view (list or grid) while the Library shows its unfiltered first items,
 * nothing searched or selected, and is null otherwise; the items must be at their top, every one loaded. The same
 * markup is not sent twice. Returns the stop.
 */
export function recordFirstPaint(startedView: () => LibraryView | null): () => void {
  const shell = document.querySelector(SHELL);
  if (!shell) return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sent = '';
  const record = (): void => {
    const list = shell.querySelector(LIST);
    const view = startedView();
    if (view === null || !list || list.scrollTop !== 0 || shell.querySelector(LOADING_ITEM)) return;
    const html = snapshotOf(shell);
    if (html === sent || html.length > FIRST_PAINT_MAX_CHARS) return;
    sent = html;
    desktop()
      ['library.saveFirstPaint']({ html, lang: i18n.locale, build: buildOf(document), view })
      .catch(() => {
        // Not kept (the app is stopping, the cache is busy): the next settled change tries again.
        sent = '';
      });
  };
  const settle = (): void => {
    clearTimeout(timer);
    timer = setTimeout(record, SETTLE_MS);
  };
  const observer = new MutationObserver(settle);
  observer.observe(shell, { subtree: true, childList: true, characterData: true, attributes: true });
  settle();
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}
