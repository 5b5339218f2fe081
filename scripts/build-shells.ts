/**
 * Builds what the shells run: the renderer (Vite with the root vite.config.ts, into dist/renderer) and the Electron
 * bundles (dist/electron/main.js with its chunks and the analysis worker, dist/electron/preload.cjs).
 *
 * Why bundle at all: a sandboxed preload may only require('electron'), so the contract it loops over must be inlined;
 * and Electron's Node does not run .ts sources. Dependencies of the main bundle stay in node_modules (native
 * modules, data packages resolved at run time) except electron-store, a devDependency that is inlined.
 *
 * `node scripts/build-shells.ts` builds everything; `--electron` only the Electron bundles.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'vite';

const ROOT = resolve(import.meta.dirname, '..');

export interface BuildOptions {
  root?: string;
  /** Where the output goes; default dist/renderer and dist/electron under the root. */
  outDir?: string;
  /** Vite's log level; 'warn' by default so a build prints only what matters. */
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
}

/** The child's arguments: `--renderer-only ROOT OUT_DIR LOG_LEVEL` (see buildRenderer). */
const RENDERER_ONLY = '--renderer-only';

/**
 * Always a production build. Vite and the Svelte plugin decide by the process's NODE_ENV, not by the command: under
 * the test runner (NODE_ENV=test) the same call made Svelte's development build (its dev runtime, warnings and
 * component tags), and `npm start` then served that build to the user until a source file changed. So when NODE_ENV
 * is anything else, the build runs in a child process with NODE_ENV=production.
 */
export async function buildRenderer(options: BuildOptions = {}): Promise<string> {
  const root = options.root ?? ROOT;
  const outDir = options.outDir ?? join(root, 'dist', 'renderer');
  const logLevel = options.logLevel ?? 'warn';
  if (process.env.NODE_ENV === 'production') {
    await build({
      configFile: join(root, 'vite.config.ts'),
      root: join(root, 'renderer'),
      logLevel,
      build: { outDir, emptyOutDir: true },
    });
    return outDir;
  }
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [import.meta.filename, RENDERER_ONLY, root, outDir, logLevel], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', fail);
    child.once('exit', (code, signal) =>
      code === 0 ? done() : fail(new Error(`the renderer's build stopped (${signal ?? `exit code ${code}`})`)),
    );
  });
  return outDir;
}

/** True when dist/renderer/index.html is missing or older than a file of renderer/ or the Vite config. */
export function rendererIsStale(root = ROOT): boolean {
  const built = join(root, 'dist', 'renderer', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const sources = [
    join(root, 'vite.config.ts'),
    join(root, 'svelte.config.js'),
    ...walk(join(root, 'renderer')),
    ...walk(join(root, 'common')),
  ];
  return sources.some((file) => existsSync(file) && statSync(file).mtimeMs > builtAt);
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The analysis worker is started with `new URL('./analysis-worker.ts', import.meta.url)`. In the bundle it is an entry
 * of its own, written beside main.js with every chunk in the same directory, so the URL only needs the new extension.
 */
const workerUrl: Plugin = {
  name: 'desktop-archive:analysis-worker-url',
  enforce: 'pre',
  transform(code, id) {
    if (!id.replaceAll('\\', '/').endsWith('server/pipeline/worker-pool.ts')) return null;
    const next = code.replace(
      /new URL\((['"])\.\/analysis-worker\.ts\1, import\.meta\.url\)/,
      "new URL('./analysis-worker.js', import.meta.url)",
    );
    if (next === code)
      throw new Error('worker-pool.ts no longer starts ./analysis-worker.ts: update scripts/build-shells.ts');
    return { code: next, map: null };
  },
};

export async function buildElectron(options: BuildOptions = {}): Promise<string> {
  const root = options.root ?? ROOT;
  const outDir = options.outDir ?? join(root, 'dist', 'electron');
  const logLevel = options.logLevel ?? 'warn';
  await build({
    configFile: false,
    root,
    logLevel,
    plugins: [workerUrl],
    ssr: { noExternal: ['electron-store'], external: ['electron'] },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      sourcemap: true,
      copyPublicDir: false,
      rolldownOptions: {
        input: {
          main: join(root, 'main/electron/main.ts'),
          'analysis-worker': join(root, 'server/pipeline/analysis-worker.ts'),
        },
        external: ['electron'],
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name]-[hash].js' },
      },
    },
  });
  await build({
    configFile: false,
    root,
    logLevel,
    build: {
      outDir,
      emptyOutDir: false,
      target: 'chrome130',
      minify: false,
      sourcemap: true,
      copyPublicDir: false,
      lib: { entry: join(root, 'preload/preload.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
      rolldownOptions: { external: ['electron'] },
    },
  });
  return outDir;
}

if (import.meta.main && process.argv[2] === RENDERER_ONLY) {
  const [root, outDir, logLevel] = process.argv.slice(3) as [string, string, BuildOptions['logLevel']];
  await buildRenderer({ root, outDir, logLevel });
} else if (import.meta.main) {
  const onlyElectron = process.argv.includes('--electron');
  if (!onlyElectron) console.log(`renderer → ${await buildRenderer({ logLevel: 'info' })}`);
  console.log(`electron → ${await buildElectron({ logLevel: 'info' })}`);
}
