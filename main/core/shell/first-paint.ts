import type { LibraryView, Settings } from '../../../common/settings.ts';

/**
 * The library's first paint, shared by both shells: index.html served with the library screen as the renderer last
 * painted it (kept in the library cache by `library.saveFirstPaint`), so a start shows the archive at once instead of
 * after the app's scripts have loaded, run and mounted (most of a cold start: see docs/benchmarks.md).
 *
 * The page then differs from the built index.html in four places:
 * - `<html>` carries the settings' theme and language values (`data-ui`, read by ui-prefs.ts instead of waiting for
 *   settings.get), the snapshot's language and theme, the app's entry script (`data-entry`) and its modulepreloads
 *   (`data-preload`);
 * - `#app` holds the snapshot, inert, which main.ts replaces with the mounted app in one task; the head asks the
 *   browser to render nothing before the snapshot is parsed whole;
 * - the entry's `<script type="module">` and the modulepreloads are taken out of the head, and early-start.ts adds
 *   them after the snapshot's first frame (or at once, on a route that is not the library, hiding the snapshot), so
 *   neither their requests nor their evaluation and the mount hold the first frame back;
 * - the style sheets are inlined (`<style data-href>`), when the shell has read them: a fresh page otherwise waits
 *   for one more request before it may render anything.
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
  /** The Library's view it shows. */
  view: LibraryView;
}

/** The settings' values the renderer needs before settings.get answers (ui-prefs.ts reads them from `data-ui`). */
export type FirstPaintUi = Pick<Settings['ui'], 'appearance' | 'language' | 'onboarded' | 'library_view'>;

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
const STYLESHEET = /<link rel="stylesheet"[^>]* href="([^"<>]+)"[^>]*>/g;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]* href="([^"<>\s]+)"[^>]*>\s*/g;
/** A style sheet with this in it would end its `<style>` element early; it stays a link. */
const STYLE_END = /<\/style/i;

/** The style sheets index.html links, as their hrefs are written: what the shells read for pageWithFirstPaint. */
export function linkedStylesheets(index: string): string[] {
  return [...index.matchAll(STYLESHEET)].map((match) => match[1]!);
}

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
 * index.html with the settings' values the first frame needs on `<html>` (`data-ui`, the theme, and the language when
 * one is chosen), for a page that gets no first paint: the browser shell's origin changes with its port at every
 * start, so its page has no cache of them, and would otherwise show the default theme, language and Library view
 * until settings.get answers. `index` unchanged when it has no `<html>` tag to carry them.
 */
export function pageWithSettings(index: string, ui: FirstPaintUi): string {
  // The built page's own values of these give way; its language stays unless one is chosen.
  const replaced =
    ui.language === null ? /\s(?:data-theme|data-ui)="[^"]*"/g : /\s(?:lang|data-theme|data-ui)="[^"]*"/g;
  const lang = ui.language === null ? '' : ` lang="${attribute(ui.language)}"`;
  const values = `${lang} data-theme="${attribute(ui.appearance)}" data-ui="${attribute(JSON.stringify(ui))}"`;
  return index.replace(HTML_TAG, (tag) => `${tag.slice(0, -1).replace(replaced, '')}${values}>`);
}

/**
 * index.html with the library's first paint in it, or with the settings' values only (pageWithSettings) when there is
 * no picture to show: no snapshot, the welcome guide not done, one in another language than the one chosen, of
 * another view or from another build, markup a snapshot never has, or an index.html of another form. `styles` holds
 * the contents of the style sheets the shell has read (by href, linkedStylesheets); a sheet not among them stays a
 * link.
 */
export function pageWithFirstPaint(
  index: string,
  snapshot: FirstPaintSnapshot | null,
  ui: FirstPaintUi,
  styles: ReadonlyMap<string, string> = new Map(),
): string {
  // Built only when the picture is refused.
  const withoutPicture = (): string => pageWithSettings(index, ui);
  if (!snapshot || NOT_IN_A_SNAPSHOT.test(snapshot.html)) return withoutPicture();
  // A start before the welcome guide is done opens the guide, not the library.
  if (!ui.onboarded || (ui.language !== null && ui.language !== snapshot.lang)) return withoutPicture();
  // A start shows the Library in the settings' view; a picture of the other would flip over when the app mounts.
  if (snapshot.view !== ui.library_view) return withoutPicture();
  if (snapshot.build !== buildOf(index)) return withoutPicture();
  const entry = ENTRY_SCRIPT.exec(index);
  if (!entry || !index.includes(APP_ROOT) || !HTML_TAG.test(index) || !index.includes(HEAD_END))
    return withoutPicture();
  const preloads = [...index.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  const html =
    `<html lang="${attribute(snapshot.lang)}" data-theme="${attribute(ui.appearance)}"` +
    ` data-entry="${attribute(entry[1]!)}" data-preload="${attribute(preloads.join(' '))}"` +
    ` data-ui="${attribute(JSON.stringify(ui))}">`;
  return (
    index
      // Requested once the snapshot is painted (early-start.ts): before, their requests and compiling cost its frame.
      .replace(ENTRY_SCRIPT, '')
      .replace(MODULE_PRELOAD, '')
      .replace(STYLESHEET, (link, href: string) => {
        const css = styles.get(href);
        return css === undefined || STYLE_END.test(css) ? link : `<style data-href="${attribute(href)}">${css}</style>`;
      })
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
