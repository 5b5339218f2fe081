import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';

/** Where the renderer finds pdf.js's run-time data, relative to index.html (renderer/src/lib/pdf.ts builds the URLs). */
const PDFJS_DATA_DIR = 'pdfjs';
/**
 * pdf.js fetches these only when a document needs them: wasm/ (OpenJPEG for JPEG 2000 scans, JBIG2, the ICC colour
 * engine), cmaps/ (CJK and other CID fonts), standard_fonts/ (the 14 standard fonts when a PDF does not embed them),
 * iccs/ (the CMYK profile). Copied as they are after the bundle is written, so they are no part of the module graph:
 * nothing of them is in the entry or its static imports, and their names stay the ones pdf.js asks for.
 */
const PDFJS_DATA = ['wasm', 'cmaps', 'standard_fonts', 'iccs'] as const;

function pdfjsData(): Plugin {
  const pdfjsRoot = dirname(dirname(createRequire(import.meta.url).resolve('pdfjs-dist')));
  let outDir = '';
  return {
    name: 'desktop-archive:pdfjs-data',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      for (const folder of PDFJS_DATA)
        await cp(join(pdfjsRoot, folder), join(outDir, PDFJS_DATA_DIR, folder), { recursive: true });
    },
  };
}

/**
 * index.html's first script: renderer/src/early-start.ts, bundled on its own (it shares the first page's query and the
 * bridge's address with the app through its imports) and inlined at the top of the head, so it runs before the
 * browser has even asked for the app's scripts. Inline, it costs no request; the shells allow it by its hash.
 */
function earlyStart(): Plugin {
  let code: Promise<string> | undefined;
  return {
    name: 'desktop-archive:early-start',
    // Right after the charset declaration, which must come within the first 1,024 bytes.
    transformIndexHtml: async (html) => {
      const script = `<script>${await (code ??= bundleEarlyStart())}</script>`;
      const charset = /<meta charset="utf-8" \/>/i;
      if (!charset.test(html)) throw new Error('renderer/index.html must declare <meta charset="utf-8" />');
      return html.replace(charset, (meta) => `${meta}\n    ${script}`);
    },
  };
}

async function bundleEarlyStart(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      target: 'es2022',
      lib: {
        entry: resolve(import.meta.dirname, 'renderer/src/early-start.ts'),
        formats: ['iife'],
        name: 'earlyStart',
      },
    },
  });
  const [output] = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = output?.output.find((item) => item.type === 'chunk');
  if (!chunk) throw new Error('renderer/src/early-start.ts built to nothing');
  // An inline script ends at the first "</script" whatever the JavaScript around it means.
  if (/<\/script/i.test(chunk.code)) throw new Error('renderer/src/early-start.ts must not contain "</script"');
  return chunk.code.trim();
}

/** Builds the Svelte renderer into dist/renderer with relative asset paths (the Electron shell loads it from disk). */
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte(), pdfjsData(), earlyStart()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
  },
});
