/**
 * The first script the page runs (the build puts it in index.html before the app's bundle): a few kilobytes that open
 * the bridge to the app and ask for the settings and the library's first page, so both answers travel while the
 * browser still fetches, compiles and runs the app. main.ts takes them from here. Nothing here may import Svelte or
 * the dictionaries: that would make this script as slow to arrive as the app.
 */
import { setDesktop } from './lib/desktop.ts';
import { prefetchFirstPage } from './lib/library-query.ts';
import { parseRoute } from './lib/routes.ts';
import { createWebDesktop, SESSION_ENDED } from './lib/web-desktop.ts';

let sessionEndedText = (): string => SESSION_ENDED;

/** main.ts hands over the message in the UI's language once the dictionaries are loaded. */
export function translateSessionEnded(text: () => string): void {
  sessionEndedText = text;
}

// The Electron preload provides window.desktop; in the browser shell the WebSocket bridge stands in for it.
const api = window.desktop ?? createWebDesktop(location, { sessionEndedMessage: () => sessionEndedText() });
setDesktop(api);

/** The settings, asked for at once (preferences.load takes this answer). */
export const earlySettings = api['settings.get']();
// main.ts reports a failure where it awaits the answer; until then it must not count as unhandled.
earlySettings.catch(() => undefined);

// Read after the bridge took the token out of the address (#token=… is not a route).
const route = parseRoute(location.hash);
/** The library's first page when the window opens on the library (the store takes it from library-query.ts). */
export const firstPage = route.name === 'library' && !route.deleted ? prefetchFirstPage() : null;
