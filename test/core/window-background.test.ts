/**
 * The Electron window's background behind the page (main/core/shell/window-background.ts): the page's own colour in
 * the theme the settings choose, so no dark frame shows behind a light page before its first paint or while resizing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_BACKGROUND, windowBackground } from '../../main/core/shell/window-background.ts';

const APP_CSS = join(import.meta.dirname, '..', '..', 'renderer', 'src', 'app.css');

describe('windowBackground', () => {
  it("is the page's --bg of app.css, light and dark, so the two cannot drift apart", async () => {
    const css = await readFile(APP_CSS, 'utf8');
    // The first :root block is the light theme; the dark theme's block and its "system" twin carry the dark one.
    const light = /:root\s*\{[^}]*--bg:\s*(#[0-9a-f]{6})/i.exec(css)?.[1];
    const dark = /:root\[data-theme='dark'\]\s*\{[^}]*--bg:\s*(#[0-9a-f]{6})/i.exec(css)?.[1];
    const systemDark =
      /prefers-color-scheme: dark\)\s*\{\s*:root\[data-theme='system'\]\s*\{[^}]*--bg:\s*(#[0-9a-f]{6})/i.exec(
        css,
      )?.[1];
    expect(light?.toLowerCase()).toBe(PAGE_BACKGROUND.light);
    expect(dark?.toLowerCase()).toBe(PAGE_BACKGROUND.dark);
    expect(systemDark?.toLowerCase()).toBe(PAGE_BACKGROUND.dark);
  });

  it('follows the chosen appearance, and the OS for "system"', () => {
    expect(windowBackground('light', true)).toBe(PAGE_BACKGROUND.light);
    expect(windowBackground('dark', false)).toBe(PAGE_BACKGROUND.dark);
    expect(windowBackground('system', true)).toBe(PAGE_BACKGROUND.dark);
    expect(windowBackground('system', false)).toBe(PAGE_BACKGROUND.light);
  });
});
