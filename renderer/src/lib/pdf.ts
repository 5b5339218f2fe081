import {
  getDocument,
  GlobalWorkerOptions,
  RenderingCancelledException,
  TextLayer,
  type PDFDocumentProxy,
  type RenderTask,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

// The worker is a same-origin asset emitted by Vite, so the CSP's worker-src 'self' covers it.
GlobalWorkerOptions.workerSrc = workerUrl;

export type { PDFDocumentProxy, RenderTask };
export { RenderingCancelledException, TextLayer };

/**
 * pdf.js's data folders, copied beside index.html by the build (vite.config.ts, pdfjsData): fetched only when a
 * document needs them. Absolute URLs, because the worker resolves them against its own location.
 */
function pdfjsData(folder: 'wasm' | 'cmaps' | 'standard_fonts' | 'iccs'): string {
  return new URL(`pdfjs/${folder}/`, document.baseURI).href;
}

/** Opens a PDF by URL; pdf.js fetches it with Range requests, so large files show their first page early. */
export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  const task = getDocument({
    url,
    isEvalSupported: false,
    disableAutoFetch: false,
    // JPEG 2000 and JBIG2 scans decode in WebAssembly; CID fonts need their CMaps; unembedded standard fonts and CMYK
    // images need the font files and the ICC profile. Without these a page renders blank or with wrong glyphs.
    wasmUrl: pdfjsData('wasm'),
    cMapUrl: pdfjsData('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: pdfjsData('standard_fonts'),
    iccUrl: pdfjsData('iccs'),
  });
  return { promise: task.promise, destroy: () => task.destroy() };
}

export { nextZoom, ZOOM_STEPS } from './zoom.ts';
