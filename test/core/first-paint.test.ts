/**
 * The library's first paint on the shells' side (main/core/shell/first-paint.ts): what goes into index.html and what
 * keeps it out, and the library cache that keeps the snapshot with the archive's data.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import {
  buildOf,
  linkedStylesheets,
  pageWithFirstPaint,
  pageWithSettings,
  type FirstPaintUi,
} from '../../main/core/shell/first-paint.ts';
import { inlineScriptHashes, readStylesheets } from '../../main/core/shell/renderer-files.ts';

/** index.html in the form vite builds it (an inline early start, the entry, preloads and the style sheet). */
const INDEX = `<!doctype html>
<html lang="en" data-theme="system">
  <head>
    <meta charset="utf-8" />
    <script>(function(){window.early=1})()</script>
    <title>Archive</title>
    <script type="module" crossorigin src="./assets/index-AbC123.js"></script>
    <link rel="modulepreload" crossorigin href="./assets/i18n-XyZ.js">
    <link rel="modulepreload" crossorigin href="./assets/desktop-Q1w.js">
    <link rel="stylesheet" crossorigin href="./assets/index-Css987.css">
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>
`;
const BUILD = 'index-AbC123.js index-Css987.css';
const ROWS =
  '<div class="shell"><div data-testid="library-row" data-id="d1">Invoice &lt;b&gt; &amp; "more"</div></div>';
const UI: FirstPaintUi = { appearance: 'dark', language: null, onboarded: true, library_view: 'list' };

describe('pageWithFirstPaint', () => {
  it('puts the snapshot in #app, inert, takes the entry out and names it, with the theme, language and settings', () => {
    const page = pageWithFirstPaint(INDEX, { html: ROWS, lang: 'de', build: BUILD, view: 'list' as const }, UI);
    expect(page).toContain(
      `<div id="app"><div class="first-paint" data-first-paint inert aria-hidden="true">${ROWS}` +
        '<span id="first-paint-end"></span></div></div>',
    );
    // No frame shows a part of it: rendering waits for the element after it.
    expect(page).toContain('<link rel="expect" href="#first-paint-end" blocking="render" />\n</head>');
    // The entry and its preloads are asked for once the snapshot is painted (early-start.ts), not by the head.
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain('modulepreload');
    const html = /<html\b[^>]*>/.exec(page)![0];
    expect(html).toContain('lang="de"');
    expect(html).toContain('data-theme="dark"');
    expect(html).toContain('data-entry="./assets/index-AbC123.js"');
    expect(html).toContain('data-preload="./assets/i18n-XyZ.js ./assets/desktop-Q1w.js"');
    // The settings as JSON in an attribute: every quote escaped, so the attribute cannot end early.
    const ui = /data-ui="([^"]*)"/.exec(html)![1]!;
    expect(JSON.parse(ui.replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toEqual(UI);
    // The rest of the page is the built one: the style sheet (none was read here), the early start.
    expect(page).toContain('<link rel="stylesheet" crossorigin href="./assets/index-Css987.css">');
    expect(inlineScriptHashes(page)).toEqual(inlineScriptHashes(INDEX));
  });

  it('inlines the style sheets the shell has read, named by their href, so no request holds the first frame', () => {
    const snapshot = { html: ROWS, lang: 'en', build: BUILD, view: 'list' as const };
    expect(linkedStylesheets(INDEX)).toEqual(['./assets/index-Css987.css']);
    const css = '.row{color:red}';
    const page = pageWithFirstPaint(INDEX, snapshot, UI, new Map([['./assets/index-Css987.css', css]]));
    expect(page).toContain(`<style data-href="./assets/index-Css987.css">${css}</style>`);
    expect(page).not.toContain('rel="stylesheet"');
    // A sheet that would close its <style> early stays a link.
    const closing = pageWithFirstPaint(INDEX, snapshot, UI, new Map([['./assets/index-Css987.css', 'a{}</STYLE><b>']]));
    expect(closing).toContain('<link rel="stylesheet" crossorigin href="./assets/index-Css987.css">');
    expect(closing).not.toContain('<style');
  });

  it('refuses markup a snapshot never holds, so nothing in it can run or restructure the page', () => {
    for (const html of [
      '<div><script>alert(1)</script></div>',
      '<div></div></div><SCRIPT src="x.js"></SCRIPT>',
      '<template><div></div></template>',
      '<iframe src="https://example.org"></iframe>',
      '<div></body><body onload="x()"></div>',
      '<meta http-equiv="refresh" content="0;url=https://example.org">',
      '<base href="https://example.org/">',
      '<style>body{display:none}</style>',
    ]) {
      expect(pageWithFirstPaint(INDEX, { html, lang: 'en', build: BUILD, view: 'list' as const }, UI), html).toBe(
        pageWithSettings(INDEX, UI),
      );
    }
  });

  it('shows nothing in another language than the chosen one, of another view, from another build, or before the welcome guide', () => {
    const snapshot = { html: ROWS, lang: 'en', build: BUILD, view: 'list' as const };
    // Without a picture the page still carries the settings' values (pageWithSettings).
    const noPicture = (ui: FirstPaintUi): string => pageWithSettings(INDEX, ui);
    expect(pageWithFirstPaint(INDEX, snapshot, { ...UI, onboarded: false })).toBe(
      noPicture({ ...UI, onboarded: false }),
    );
    expect(pageWithFirstPaint(INDEX, snapshot, { ...UI, language: 'de' })).toBe(noPicture({ ...UI, language: 'de' }));
    expect(pageWithFirstPaint(INDEX, snapshot, { ...UI, language: 'en' })).not.toBe(INDEX);
    // The language that follows the OS cannot be told here: the snapshot's own is used.
    expect(pageWithFirstPaint(INDEX, snapshot, { ...UI, language: null })).not.toBe(INDEX);
    expect(pageWithFirstPaint(INDEX, { ...snapshot, build: 'index-Old000.js index-Css987.css' }, UI)).toBe(
      noPicture(UI),
    );
    expect(pageWithFirstPaint(INDEX, null, UI)).toBe(noPicture(UI));
    // A start shows the settings' view: a picture of the list is not shown to a grid, nor the other way round.
    expect(pageWithFirstPaint(INDEX, snapshot, { ...UI, library_view: 'grid' })).toBe(
      noPicture({ ...UI, library_view: 'grid' }),
    );
    const grid = { ...snapshot, view: 'grid' as const };
    expect(pageWithFirstPaint(INDEX, grid, UI)).toBe(noPicture(UI));
    expect(pageWithFirstPaint(INDEX, grid, { ...UI, library_view: 'grid' })).toContain('data-first-paint');
  });

  it('leaves an index.html of another form as it is', () => {
    const snapshot = { html: ROWS, lang: 'en', build: BUILD, view: 'list' as const };
    const noEntry = INDEX.replace(/<script type="module"[^>]*><\/script>/, '');
    expect(pageWithFirstPaint(noEntry, { ...snapshot, build: buildOf(noEntry) }, UI)).toBe(
      pageWithSettings(noEntry, UI),
    );
    const noRoot = INDEX.replace('<div id="app"></div>', '<main id="app"></main>');
    expect(pageWithFirstPaint(noRoot, snapshot, UI)).toBe(pageWithSettings(noRoot, UI));
    const noHtmlTag = INDEX.replace(/<html[^>]*>/, '');
    expect(pageWithFirstPaint(noHtmlTag, snapshot, UI)).toBe(noHtmlTag);
  });

  it('replaces no `$` pattern of the snapshot (String.replace would read `$&` as the matched text)', () => {
    const html = '<div class="shell">costs $& and $1 and $$</div>';
    expect(pageWithFirstPaint(INDEX, { html, lang: 'en', build: BUILD, view: 'list' as const }, UI)).toContain(html);
  });
});

describe('pageWithSettings', () => {
  /** The `<html>` tag's attributes, and the settings in its data-ui. */
  const htmlOf = (page: string): { tag: string; ui: unknown } => {
    const tag = /<html\b[^>]*>/.exec(page)![0];
    const ui = /data-ui="([^"]*)"/.exec(tag)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    return { tag, ui: JSON.parse(ui) };
  };

  it("puts the settings' theme and values on <html> and changes nothing else, so a page without a picture still starts in them", () => {
    const page = pageWithSettings(INDEX, UI);
    const { tag, ui } = htmlOf(page);
    expect(ui).toEqual(UI);
    // The built page's theme gives way (one attribute each); its language stays while none is chosen.
    expect(tag).toBe(`<html lang="en" data-theme="dark" data-ui="${/data-ui="([^"]*)"/.exec(tag)![1]}">`);
    expect(page.replace(tag, '')).toBe(INDEX.replace(/<html\b[^>]*>/, ''));
    // A chosen language is the page's.
    const german = htmlOf(pageWithSettings(INDEX, { ...UI, language: 'de', library_view: 'grid' }));
    expect(german.tag).toMatch(/^<html lang="de" data-theme="dark" data-ui="[^"]*">$/);
    expect(german.ui).toEqual({ ...UI, language: 'de', library_view: 'grid' });
    // Values that could end the attribute stay inside it.
    const odd = { ...UI, appearance: '"><script>' } as unknown as FirstPaintUi;
    expect(pageWithSettings(INDEX, odd)).not.toContain('"><script>');
  });
});

describe('buildOf', () => {
  it("names the entry script and the style sheets, not the preloads: the files a snapshot's classes come from", () => {
    expect(buildOf(INDEX)).toBe(BUILD);
    expect(buildOf(INDEX.replace('index-Css987.css', 'index-Css988.css'))).not.toBe(BUILD);
  });
});

/** The temporary folder of the test that made one. */
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('readStylesheets', () => {
  it('reads the sheets inside the renderer by their href, and leaves out any it cannot or must not read', async () => {
    dir = await mkdtemp(join(tmpdir(), 'first-paint-css-'));
    const renderer = join(dir, 'renderer');
    await mkdir(join(renderer, 'assets'), { recursive: true });
    await writeFile(join(renderer, 'assets', 'index-Css987.css'), '.row{color:red}');
    await writeFile(join(dir, 'secret.css'), 'outside');
    const sheets = await readStylesheets(renderer, [
      './assets/index-Css987.css',
      './assets/missing.css',
      '../secret.css',
      './assets/%2e%2e/%2e%2e/secret.css',
    ]);
    expect([...sheets]).toEqual([['./assets/index-Css987.css', '.row{color:red}']]);
  });
});

describe('the library cache keeps the first paint', () => {
  it('keeps one snapshot, replaces it, and forgets it with the rest when the cache starts over', async () => {
    dir = await mkdtemp(join(tmpdir(), 'first-paint-cache-'));
    const path = join(dir, 'library.sqlite');
    const cache = new LibraryCache(path);
    try {
      expect(cache.firstPaint()).toBeNull();
      cache.saveFirstPaint({ html: '<div>one</div>', lang: 'en', build: BUILD, view: 'list' as const });
      cache.saveFirstPaint({ html: '<div>two</div>', lang: 'de', build: BUILD, view: 'grid' });
      expect(cache.firstPaint()).toEqual({ html: '<div>two</div>', lang: 'de', build: BUILD, view: 'grid' });
      cache.close();
      // Kept across a restart of the app.
      const reopened = new LibraryCache(path);
      expect(reopened.firstPaint()?.html).toBe('<div>two</div>');
      // Another archive (reconnect): the library screen of the old one must not be painted.
      reopened.clear();
      expect(reopened.firstPaint()).toBeNull();
      reopened.close();
    } finally {
      if (cache.db.isOpen) cache.close();
    }
  });
});
