import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import {
  linkedStylesheets,
  pageWithFirstPaint,
  pageWithSettings,
  type FirstPaintSnapshot,
  type FirstPaintUi,
} from './first-paint.ts';

/**
 * Serving the built renderer, shared by the browser shell (node:http) and the Electron shell (the app:// protocol):
 * which file a request path means, its Content-Type, and the Content-Security-Policy of the page.
 */

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  // pdf.js: binary CMaps and standard fonts it fetches at run time.
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
};

export function mimeTypeFor(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export type RendererFile = { path: string; isIndex: boolean } | { error: 403 | 404 };

/**
 * The file under `root` a request path (still percent-encoded, without the query) names. Paths without an extension
 * that match no file get index.html, so a reload on a client-side route still opens the app; `..`, backslashes and
 * NUL are refused outright rather than normalised, because no path the app builds contains them.
 */
export async function resolveRendererFile(rendererDir: string, rawPath: string): Promise<RendererFile> {
  const root = resolve(rendererDir);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { error: 403 };
  }
  if (
    !path.startsWith('/') ||
    path.includes('\0') ||
    path.includes('\\') ||
    path.split('/').some((segment) => segment === '..')
  ) {
    return { error: 403 };
  }
  const index = { path: join(root, 'index.html'), isIndex: true };
  if (path.endsWith('/')) return path === '/' ? index : { error: 404 };
  const candidate = join(root, path);
  const inside = relative(root, candidate);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return { error: 403 };
  const info = await stat(candidate).catch(() => null);
  if (info?.isFile()) return { path: candidate, isIndex: candidate === index.path };
  if (extname(path) === '') return index;
  return { error: 404 };
}

/**
 * The contents of the style sheets `hrefs` (as index.html writes them, `./assets/…`) under `rendererDir`, by href, for
 * the first paint to inline; a sheet that cannot be resolved inside the renderer or read is left out (it stays a
 * link).
 */
export async function readStylesheets(rendererDir: string, hrefs: readonly string[]): Promise<Map<string, string>> {
  const sheets = new Map<string, string>();
  for (const href of hrefs) {
    const file = await resolveRendererFile(rendererDir, `/${href.replace(/^\.?\//, '')}`);
    if ('error' in file || file.isIndex) continue;
    const css = await readFile(file.path, 'utf8').catch(() => null);
    if (css !== null) sheets.set(href, css);
  }
  return sheets;
}

/**
 * index.html as a shell serves it: with the library's first paint (`paint`, from DesktopApp.firstPaint) and the style
 * sheets the page links read from `rendererDir` to be inlined (pageWithFirstPaint); with the settings' values only when
 * there is no snapshot to show, then with nothing read; `index` itself for a page that is not the user's (no `paint`).
 */
export async function servedIndex(
  rendererDir: string,
  index: string,
  paint: { snapshot: FirstPaintSnapshot | null; ui: FirstPaintUi } | null | undefined,
): Promise<string> {
  if (!paint) return index;
  if (!paint.snapshot) return pageWithSettings(index, paint.ui);
  const styles = await readStylesheets(rendererDir, linkedStylesheets(index));
  return pageWithFirstPaint(index, paint.snapshot, paint.ui, styles);
}

/**
 * The CSP sources ('sha256-…') of the inline scripts of the page `html` (the renderer's index.html has one, its early
 * start), so exactly those run and no other inline script does.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
}

export interface CspSources {
  /** Inline scripts allowed by their hashes (inlineScriptHashes of the page). */
  scripts?: readonly string[];
  /** Where the renderer's fetches and sockets may go besides itself (the browser shell's ws:// URL, app-preview:). */
  connect?: readonly string[];
  /** Where document previews come from when it is not the page's own origin (Electron's app-preview:). */
  preview?: readonly string[];
}

/**
 * The renderer page's policy: scripts only from the app itself (no inline script but the page's own, by hash; no
 * eval; WebAssembly for pdf.js's image decoders), no plugins, no framing, no forms, no <base>. Styles allow inline attributes because Svelte
 * templates carry style attributes; images allow blob:/data: for rendered pages and thumbnails; pdf.js runs its worker
 * from the app's own files or a blob.
 */
export function rendererCsp(sources: CspSources = {}): string {
  const extra = (list: readonly string[] | undefined): string => (list?.length ? ` ${list.join(' ')}` : '');
  return [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval'${extra(sources.scripts)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data:${extra(sources.preview)}`,
    `media-src 'self' blob:${extra(sources.preview)}`,
    "font-src 'self' data:",
    `connect-src 'self'${extra(sources.connect)}${extra(sources.preview)}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers for a document's bytes: never cached, never sniffed. Opened directly (a new tab), anything but a PDF also
 * gets a sandboxing policy so it can never act as a page; a PDF cannot, because the browser's own PDF viewer refuses
 * to run in a sandboxed document, and its type (detected from its bytes by the service) is not one a browser runs.
 */
export function previewHeaders(file: { mimeType: string; fileName: string }): Record<string, string> {
  return {
    'Content-Type': file.mimeType,
    'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(file.mimeType === 'application/pdf'
      ? {}
      : { 'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox" }),
    'Accept-Ranges': 'bytes',
  };
}

/** Vite's build output: `assets/<name>-<8 characters of the contents' hash>.<ext>`. */
const HASHED_ASSET = /^[\w.-]+-[\w-]{8}\.(?:js|mjs|css|wasm|svg|png|woff2?)$/;

function isHashedAsset(path: string): boolean {
  return basename(dirname(path)) === 'assets' && HASHED_ASSET.test(basename(path));
}

/** The headers every renderer file carries; the page itself also gets the CSP. */
export function rendererHeaders(path: string, csp: string | null): Record<string, string> {
  return {
    'Content-Type': mimeTypeFor(path),
    // A built asset's name holds a hash of its contents, so what a name serves never changes: the browser keeps it and
    // its compiled code (V8's code cache) across starts of the app. index.html, the icon and pdf.js's cmaps and fonts
    // keep their names from build to build: revalidated.
    'Cache-Control': isHashedAsset(path) ? 'max-age=31536000, immutable' : 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // No Cross-Origin-Opener-Policy: a page with one is moved into a browsing context group of its own, so a new tab or
    // window cannot use the renderer process started while the page was requested and starts another once the answer
    // is in (130-150 ms more to the first frame here: docs/benchmarks.md). The app opens no window and no other origin's
    // page, and a window another site opened on it gets a page without the token, so the policy would guard nothing.
    ...(csp === null ? {} : { 'Content-Security-Policy': csp }),
  };
}
