import type { Appearance } from '../../../common/settings.ts';

/**
 * The page's background colour (`--bg` in renderer/src/app.css, light and dark), for the window behind the page: what
 * shows before the first paint and at a window edge while it is resized. A dark window behind a light page (or the
 * other way round) flashes.
 */
export const PAGE_BACKGROUND = { light: '#f6f7f9', dark: '#12151b' } as const;

/** The window's background for the settings' appearance; `systemDark` is the OS's choice, for "system". */
export function windowBackground(appearance: Appearance, systemDark: boolean): string {
  const dark = appearance === 'dark' || (appearance === 'system' && systemDark);
  return dark ? PAGE_BACKGROUND.dark : PAGE_BACKGROUND.light;
}
