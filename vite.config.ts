import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';

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

/** Builds the Svelte renderer into dist/renderer with relative asset paths (the Electron shell loads it from disk). */
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte(), pdfjsData()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048,
  },
});
