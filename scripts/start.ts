/**
 * `npm start`: the desktop app. Builds the renderer when its sources are newer than dist/renderer, then runs the
 * Electron shell when the Electron runtime is installed; otherwise (these machines cannot download it) says so in one
 * line and serves the same app through the browser shell on 127.0.0.1, printing the URL to open.
 *
 * Environment: DESKTOP_WEB_PORT fixes the browser shell's port (default: a free one); DESKTOP_ARCHIVE_DATA_DIR moves
 * the app's data directory.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { errorMessage } from '../common/errors.ts';
import { DesktopApp } from '../main/core/desktop-app.ts';
import { defaultAppDataDir } from '../main/core/desktop-core.ts';
import { redactSecrets } from '../main/core/keychain/redact.ts';
import { openConfBackend } from '../main/core/settings/conf-backend.ts';
import { SettingsStore } from '../main/core/settings/settings-store.ts';
import { installProcessGuard } from '../shared/process-guard.ts';
import { newWebShellToken, startWebShell, webPreviewUrl } from '../main/web/web-shell.ts';
import { buildElectron, buildRenderer, rendererIsStale } from './build-shells.ts';

const ROOT = resolve(import.meta.dirname, '..');
export const NO_ELECTRON_LINE =
  'Electron is not available on this machine (its runtime could not be downloaded); starting the browser shell instead.';

const log = (line: string): void => console.log(`${new Date().toISOString()} ${redactSecrets(line)}`);

/** The Electron binary when the package and its downloaded runtime are both there, else null. */
export function electronBinary(): string | null {
  try {
    // The electron package's main export is the path of the runtime it downloaded; it throws when none was.
    const binary: unknown = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function webPort(): number {
  const raw = process.env.DESKTOP_WEB_PORT;
  if (raw === undefined || raw === '') return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`DESKTOP_WEB_PORT must be a port number (0-65535), got "${raw}"`);
  return port;
}

async function runElectron(binary: string): Promise<number> {
  await buildElectron();
  const child = spawn(binary, [join(ROOT, 'dist', 'electron', 'main.js'), ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: ROOT,
  });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolveExit, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolveExit(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Opens a file with the desktop's app for its type. The browser shell only listens on 127.0.0.1 and runs as the user
 * on their own machine, so the app opens on the same desktop as the browser. Detached and without stdio: the app
 * outlives this process and its output is not ours. `start` is a cmd built-in whose first quoted argument is a window
 * title, hence the empty one; cmd parses its own command line, so the arguments go verbatim with the path quoted
 * (Windows paths cannot contain a double quote).
 */
export function systemOpenCommand(
  path: string,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[]; verbatim: boolean } {
  if (platform === 'win32') return { command: 'cmd', args: ['/d', '/c', 'start', '""', `"${path}"`], verbatim: true };
  if (platform === 'darwin') return { command: 'open', args: [path], verbatim: false };
  return { command: 'xdg-open', args: [path], verbatim: false };
}

export function openWithSystemApp(path: string): Promise<void> {
  const { command, args, verbatim } = systemOpenCommand(path);
  return new Promise((resolveOpen, reject) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
    child.once('error', (error) => reject(new Error(`Cannot open the file with ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolveOpen();
    });
  });
}

/** The browser shell until Ctrl+C or SIGTERM; exported for the test that signals a real process. */
export async function runBrowserShell(rendererDir = join(ROOT, 'dist', 'renderer')): Promise<void> {
  // An unhandled rejection or exception stops the shell and the app as Ctrl+C does, then exits 1.
  const guard = installProcessGuard({ name: 'npm start', log });
  // Ctrl+C or SIGTERM: the shell, then the app (journal, cache, embedded service) close before the exit.
  guard.stopOnSignals(() => console.log('Stopping…'));
  const port = webPort();
  const settings = new SettingsStore(openConfBackend({}), { log });
  for (const problem of settings.problems) log(`settings: ${problem.message}`);
  const token = newWebShellToken();
  // No folder picker: a browser has none that tells the page a path.
  const app = await DesktopApp.open({
    appDataDir: defaultAppDataDir(),
    settings,
    log,
    previewUrl: (id) => webPreviewUrl(id, token),
    openPath: openWithSystemApp,
  });
  guard.onShutdown(() => app.stop());
  await app.start();
  const shell = await startWebShell({ app, rendererDir, port, token, log }).catch(async (error: unknown) => {
    await app.stop();
    throw error;
  });

  guard.onShutdown(() => shell.close());
  console.log(`\nDesktop Archive is running at ${shell.url}`);
  console.log("Open that address in a browser (it carries this session's access token). Ctrl+C stops it.\n");
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'renderer', 'index.html')))
    throw new Error('renderer/index.html is missing: there is no renderer to build');
  if (rendererIsStale(ROOT)) {
    console.log('Building the renderer…');
    await buildRenderer();
  }
  const binary = electronBinary();
  if (binary) {
    process.exitCode = await runElectron(binary);
    return;
  }
  console.log(NO_ELECTRON_LINE);
  await runBrowserShell();
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`npm start: ${redactSecrets(errorMessage(error))}`);
    process.exit(1);
  });
}
