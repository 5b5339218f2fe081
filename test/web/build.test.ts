import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, buildRenderer } from '../../scripts/build-shells.ts';
import { NO_ELECTRON_LINE, electronBinary, systemOpenCommand } from '../../scripts/start.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
let dir: string;
const cleanup: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shell-build-test-'));
});

afterAll(async () => {
  for (const path of [dir, ...cleanup]) await rm(path, { recursive: true, force: true });
});

/**
 * Stands in for the electron module so the main bundle can be loaded under Node: every import of the bundle must
 * resolve, and its top level must run (register the schemes, ask for the single-instance lock: refused here, so it
 * quits before creating anything).
 */
const ELECTRON_STUB = `
const record = (what) => console.log('electron-stub ' + what);
const noop = () => {};
export const app = {
  isPackaged: false, setName: (name) => record('setName ' + name), requestSingleInstanceLock: () => false,
  quit: () => record('quit'), on: noop, whenReady: () => new Promise(noop),
};
export const protocol = { registerSchemesAsPrivileged: (schemes) => record('schemes ' + JSON.stringify(schemes)) };
export class BrowserWindow {}
export class Tray {}
export class Notification {}
export const Menu = {}, nativeImage = {}, nativeTheme = {}, ipcMain = {}, powerMonitor = {}, session = {}, shell = {};
export const dialog = {};
export default {
  app, protocol, BrowserWindow, Tray, Notification, Menu, nativeImage, nativeTheme, ipcMain, powerMonitor, session, shell,
  dialog,
};
`;

describe('building the shells', () => {
  it('builds the renderer and the Electron bundles (main with its worker, a self-contained preload)', async () => {
    expect(existsSync(join(ROOT, 'renderer', 'index.html')), 'renderer/index.html (the renderer) exists').toBe(true);
    const rendererDir = await buildRenderer({ outDir: join(dir, 'renderer') });
    const html = await readFile(join(rendererDir, 'index.html'), 'utf8');
    expect(html).toMatch(/<script type="module"[^>]* src="[^"]+\.js"/);
    // The CSP allows no inline script but the page's own by its hash: the early start (renderer/src/early-start.ts),
    // bundled whole (nothing imported at run time), and nothing else.
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    expect(inline[0]).toContain('__desktopEarly');
    expect(inline[0]).not.toMatch(/\bimport\b/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    // Svelte's production build, even when the build is started from the test runner (NODE_ENV=test): its development
    // runtime prints "[svelte] …" warnings and is what a user got from `npm start` after `npm test`.
    expect(process.env.NODE_ENV).toBe('test');
    const assets = join(rendererDir, 'assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    for (const name of scripts) expect(await readFile(join(assets, name), 'utf8'), name).not.toContain('[svelte] ');

    // Inside the repository, so that the bundle's external dependencies resolve from its node_modules.
    const electronDir = await buildElectron({
      outDir: join(ROOT, 'node_modules', '.cache', `shell-build-test-${process.pid}`),
    });
    cleanup.push(electronDir);
    for (const file of ['main.js', 'analysis-worker.js', 'preload.cjs'])
      expect(existsSync(join(electronDir, file)), file).toBe(true);

    // A sandboxed preload can require nothing but electron: the contract must be inlined.
    const preload = await readFile(join(electronDir, 'preload.cjs'), 'utf8');
    expect([...preload.matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2])).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld("desktop"');

    const main = await readFile(join(electronDir, 'main.js'), 'utf8');
    expect(main).toContain('new URL("./analysis-worker.js", import.meta.url)');
    expect(main).not.toMatch(/from ["'][^"']+\.ts["']/);
    expect(main).not.toMatch(/from ["']electron-store["']/);

    const stub = join(dir, 'electron-stub.mjs');
    await writeFile(stub, ELECTRON_STUB);
    const loader = join(dir, 'load-main.mjs');
    await writeFile(
      loader,
      [
        "import { registerHooks } from 'node:module';",
        `registerHooks({ resolve: (specifier, context, next) => specifier === 'electron' ? { url: ${JSON.stringify(pathToFileURL(stub).href)}, shortCircuit: true } : next(specifier, context) });`,
        `await import(${JSON.stringify(pathToFileURL(join(electronDir, 'main.js')).href)});`,
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [loader], { cwd: ROOT, timeout: 30_000 });
    expect(stdout).toContain('electron-stub setName Desktop Archive');
    expect(stdout).toContain('electron-stub schemes [{"scheme":"app"');
    expect(stdout).toContain('"scheme":"app-preview"');
    expect(stdout).toContain('electron-stub quit');
  }, 120_000);

  it("opens a file with the platform's opener (the browser shell's documents.open)", () => {
    const path = '/home/me/.local/share/desktop-archive/open/ab12/Angebot 2026.docx';
    expect(systemOpenCommand(path, 'linux')).toEqual({ command: 'xdg-open', args: [path], verbatim: false });
    expect(systemOpenCommand(path, 'darwin')).toEqual({ command: 'open', args: [path], verbatim: false });
    const windows = 'C:\\Users\\me\\AppData\\open\\ab12\\Angebot & Co.docx';
    expect(systemOpenCommand(windows, 'win32')).toEqual({
      command: 'cmd',
      args: ['/d', '/c', 'start', '""', `"${windows}"`],
      verbatim: true,
    });
  });

  it.skipIf(electronBinary() !== null)(
    'npm start says in one line that Electron is missing and serves the browser shell',
    async () => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.ts')], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DESKTOP_ARCHIVE_DATA_DIR: join(dir, 'data'),
          XDG_CONFIG_HOME: join(dir, 'config'),
          DESKTOP_WEB_PORT: '',
        },
      });
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const url = await new Promise<string>((resolveUrl, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 90_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolveUrl(match[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
      });
      try {
        expect(output.split('\n').filter((line) => line === NO_ELECTRON_LINE)).toHaveLength(1);
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
        expect(await page.text()).toMatch(/<script type="module"/);
      } finally {
        const exit = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
        child.kill('SIGINT');
        expect(await exit).toBe(0);
      }
    },
    120_000,
  );
});
