import type { Settings } from '../../../common/settings.ts';

/**
 * The library's first paint, shared by both shells: index.html served with the library screen as the renderer last
 * painted it (kept in the library cache by `library.saveFirstPaint`), so a start shows the archive at once instead of
 * after the app's scripts have loaded, run and mounted (most of a cold start: see docs/benchmarks.md).
 *
 * The page then differs from the built index.html in three places:
 * - `<html>` carries the settings' theme and language values (`data-ui`, read by ui-prefs.ts instead of waiting for
 *   settings.get), the snapshot's language and theme, and the app's entry script (`data-entry`);
 * - `#app` holds the snapshot, inert, which main.ts replaces with the mounted app in one task; the head asks the
 *   browser to render nothing before the snapshot is parsed whole;
 * - the entry's `<script type="module">` becomes a modulepreload (fetched and compiled at once), and early-start.ts
 *   runs it after the snapshot's first frame (or at once, on a route that is not the library, hiding the snapshot),
 *   so its evaluation and the mount do not hold the first frame back.
 *
 * Served only where the page is the user's: the Electron shell's private protocol, and the browser shell's page opened
 * with its token. Whatever the markup holds, it cannot run: no script or frame in it is accepted, the page's policy
 * allows the inline scripts of the built index.html only (hashes taken before the snapshot goes in), and the snapshot
 * is inert.
 */

export interface FirstPaintSnapshot {
  html: string;
  lang: string;
  /** The build the markup came from (buildOf): its class names and layout are that build's. */
  build: string;
}

/** The settings' values the renderer needs before settings.get answers (ui-prefs.ts reads them from `data-ui`). */
export type FirstPaintUi = Pick<Settings['ui'], 'appearance' | 'language' | 'onboarded'>;

const APP_ROOT = '<div id="app"></div>';
const HEAD_END = '</head>';
/** The element after the snapshot that the page's rendering waits for (`<link rel="expect" blocking="render">`). */
const SNAPSHOT_END = 'first-paint-end';
const HTML_TAG = /<html\b[^>]*>/;
/** Vite's entry tag (one per build); the page falls back to the plain index.html when a build changes its form. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"<>]+)"><\/script>\s*/;
/** What the serialised DOM of the library screen never contains, so a snapshot holding it is refused. */
const NOT_IN_A_SNAPSHOT =
  /<\/?(?:script|html|head|body|template|iframe|frame|object|embed|base|meta|link|style|noscript)\b/i;

const BUILD_FILES = /<(?:script type="module"[^>]* src|link rel="stylesheet"[^>]* href)="([^"<>]+)"/g;

/**
 * The build a page belongs to: the names of its entry script and style sheets, which change with their contents.
 * The renderer names its own the same way from its DOM (renderer/src/lib/first-paint.ts).
 */
export function buildOf(index: string): string {
  return [...index.matchAll(BUILD_FILES)]
    .map((match) => match[1]!.slice(match[1]!.lastIndexOf('/') + 1))
    .sort()
    .join(' ');
}

/** A value for a double-quoted attribute. */
function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * index.html with the library's first paint in it, or `index` unchanged when there is nothing to show: no snapshot,
 * the welcome guide not done, one in another language than the one chosen or from another build, markup a snapshot never has, or an index.html
 * of another form.
 */
export function pageWithFirstPaint(index: string, snapshot: FirstPaintSnapshot | null, ui: FirstPaintUi): string {
  if (!snapshot || NOT_IN_A_SNAPSHOT.test(snapshot.html)) return index;
  // A start before the welcome guide is done opens the guide, not the library.
  if (!ui.onboarded || (ui.language !== null && ui.language !== snapshot.lang)) return index;
  if (snapshot.build !== buildOf(index)) return index;
  const entry = ENTRY_SCRIPT.exec(index);
  if (!entry || !index.includes(APP_ROOT) || !HTML_TAG.test(index) || !index.includes(HEAD_END)) return index;
  const html =
    `<html lang="${attribute(snapshot.lang)}" data-theme="${attribute(ui.appearance)}"` +
    ` data-entry="${attribute(entry[1]!)}" data-ui="${attribute(JSON.stringify(ui))}">`;
  return (
    index
      // Still fetched (and compiled) at once, while the snapshot is painted; run once it is.
      .replace(ENTRY_SCRIPT, () => `<link rel="modulepreload" crossorigin href="${attribute(entry[1]!)}" />\n`)
      .replace(HTML_TAG, () => html)
      // Rendering waits until the whole snapshot is parsed: a frame never shows a part of it.
      .replace(HEAD_END, () => `<link rel="expect" href="#${SNAPSHOT_END}" blocking="render" />\n${HEAD_END}`)
      .replace(
        APP_ROOT,
        () =>
          `<div id="app"><div class="first-paint" data-first-paint inert aria-hidden="true">${snapshot.html}` +
          `<span id="${SNAPSHOT_END}"></span></div></div>`,
      )
  );
}
