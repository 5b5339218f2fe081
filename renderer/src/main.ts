import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { setDesktop } from './lib/desktop.ts';
import { prefetchFirstPage } from './lib/library-store.svelte.ts';
import { preferences } from './lib/preferences.svelte.ts';
import { router } from './lib/router.svelte.ts';
import { createWebDesktop } from './lib/web-desktop.ts';
import { t } from './lib/i18n.svelte.ts';
import { waitAtMost } from './lib/wait-at-most.ts';

/**
 * How long the mount waits for the library's first page. The local cache answers within tens of milliseconds on a
 * quiet machine and a few hundred on a busy one; with the app's scripts in the browser's cache (a reload, a second
 * tab) the mount is ready before that answer, and a screen mounted without it is laid out and painted twice (empty,
 * then with rows). A second without an answer means the shell is not answering, and the screen then shows why.
 */
const FIRST_PAGE_WAIT_MS = 1_000;

// Marks of the start-up's phases for `npm run bench -- ui` (a mark costs microseconds; nothing else reads them).
performance.mark('app:entry');

// Theme and language from the first-paint cache; the settings' values replace them when they arrive.
const cached = preferences.paintFromCache();
// The Electron preload provides window.desktop; in the browser shell the WebSocket bridge stands in for it.
const api = window.desktop ?? createWebDesktop(location, { sessionEndedMessage: () => t('desktop.sessionEnded') });
setDesktop(api);
const loaded = preferences.load();

async function start(): Promise<void> {
  // The library's first page is asked for now, together with the settings, not after them (a page the welcome guide
  // replaces costs one read of the local cache).
  const firstPage = router.route.name === 'library' && !router.route.deleted ? prefetchFirstPage() : null;
  // A first start opens the welcome guide; decided before anything renders, so the library never flashes. A page
  // whose cache says the guide was done renders at once; otherwise (a new origin, a first start) the settings decide.
  if (location.hash === '' && !(cached && preferences.onboarded)) {
    // A failed settings.get shows up as the boot error of app.init; the guide is then not forced on anyone.
    await loaded.catch(() => undefined);
    if (!preferences.onboarded) router.go({ name: 'welcome' });
  } else {
    loaded.catch(() => undefined);
  }
  // Mounted with the first page at hand, the first frame lays out and paints the list with its rows; mounted before
  // it, the window would lay out and paint an empty list first and then everything again when the rows arrive.
  if (firstPage && router.route.name === 'library') await waitAtMost(firstPage, FIRST_PAGE_WAIT_MS);
  // Loaded by early-start.ts rather than by the page's own tag, this script may run before the page is parsed.
  if (document.readyState === 'loading')
    await new Promise((parsed) => document.addEventListener('DOMContentLoaded', parsed, { once: true }));
  const target = document.getElementById('app');
  if (!target) throw new Error('#app is missing from index.html');
  performance.mark('app:mount');
  // The library's first paint the shell put in #app (main/core/shell/first-paint.ts) gives way to the app in this
  // very task, so no frame shows neither.
  target.replaceChildren();
  mount(App, { target });
  performance.mark('app:mounted');
}

void start();
