import type { Settings } from '../../../common/settings.ts';

/** The renderer's copy of the schema's choices (common/settings.ts would pull zod into the entry chunk). */
export const THEMES = ['light', 'dark', 'system'] as const satisfies ReadonlyArray<Settings['ui']['appearance']>;
export type Theme = (typeof THEMES)[number];

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** `system` follows the OS through the stylesheet's prefers-color-scheme rules. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}
