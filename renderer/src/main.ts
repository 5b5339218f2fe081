import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { setDesktop } from './lib/desktop.ts';
import { i18n } from './lib/i18n.svelte.ts';
import { prefetchFirstPage } from './lib/library-store.svelte.ts';
import { router } from './lib/router.svelte.ts';
import { applyTheme, isOnboarded, loadTheme } from './lib/theme.ts';
import { createWebDesktop } from './lib/web-desktop.ts';

applyTheme(loadTheme());
i18n.init();
// The Electron preload provides window.desktop; in the browser shell the WebSocket bridge stands in for it.
const api = window.desktop ?? createWebDesktop(location);
setDesktop(api);

// A first start opens the welcome guide; decided before anything renders, so the library never flashes.
if (!isOnboarded() && location.hash === '') router.go({ name: 'welcome' });
// The library's first page is asked for now, while the app mounts and the status calls go out, not after them.
if (router.route.name === 'library' && !router.route.deleted) prefetchFirstPage();

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');
mount(App, { target });
