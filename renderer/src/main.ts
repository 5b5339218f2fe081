import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { setDesktop } from './lib/desktop.ts';
import { i18n } from './lib/i18n.svelte.ts';
import { applyTheme, loadTheme } from './lib/theme.ts';
import { createWebDesktop } from './lib/web-desktop.ts';

applyTheme(loadTheme());
i18n.init();
// The Electron preload provides window.desktop; in the browser shell the WebSocket bridge stands in for it.
const api = window.desktop ?? createWebDesktop(location);
setDesktop(api);

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');
mount(App, { target });
