export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
const KEY = 'archive.theme';

/** The settings schema has no appearance field, so the theme lives in localStorage; `system` follows the OS. */
export function loadTheme(): Theme {
  let stored: string | null = null;
  try { stored = localStorage.getItem(KEY); } catch { /* storage may be disabled */ }
  return (THEMES as readonly string[]).includes(stored ?? '') ? (stored as Theme) : 'system';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try { localStorage.setItem(KEY, theme); } catch { /* storage may be disabled */ }
}

const ONBOARDED = 'archive.onboarded';
export function isOnboarded(): boolean {
  try { return localStorage.getItem(ONBOARDED) === '1'; } catch { return true; }
}
export function setOnboarded(done: boolean): void {
  try {
    if (done) localStorage.setItem(ONBOARDED, '1');
    else localStorage.removeItem(ONBOARDED);
  } catch { /* storage may be disabled */ }
}
