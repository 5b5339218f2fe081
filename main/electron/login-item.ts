import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app } from 'electron';
import { autostartEntry, HIDDEN_FLAG } from './autostart-entry.ts';

export { HIDDEN_FLAG } from './autostart-entry.ts';

/**
 * settings.ui.start_at_login. macOS and Windows have a login-item API; Linux desktops read
 * ~/.config/autostart/*.desktop (XDG Autostart), which Electron does not manage. Only a packaged app registers
 * itself: a development run would register the bare Electron binary.
 */
export async function applyStartAtLogin(enabled: boolean, log: (line: string) => void): Promise<void> {
  if (!app.isPackaged) {
    if (enabled) log('start at login: only a packaged app registers itself; skipped in this development run');
    return;
  }
  if (process.platform === 'linux') {
    const file = join(
      process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'),
      'autostart',
      'desktop-archive.desktop',
    );
    if (!enabled) return void (await rm(file, { force: true }));
    // An AppImage runs from a temporary mount: the stable path is the image itself.
    const executable = process.env.APPIMAGE ?? process.execPath;
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, autostartEntry(executable));
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
}
