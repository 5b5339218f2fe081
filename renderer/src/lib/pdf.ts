import { getDocument, GlobalWorkerOptions, TextLayer, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

// The worker is a same-origin asset emitted by Vite, so the CSP's worker-src 'self' covers it.
GlobalWorkerOptions.workerSrc = workerUrl;

export type { PDFDocumentProxy };
export { TextLayer };

/** Opens a PDF by URL; pdf.js fetches it with Range requests, so large files show their first page early. */
export function openPdf(url: string): { promise: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  const task = getDocument({ url, isEvalSupported: false, disableAutoFetch: false });
  return { promise: task.promise, destroy: () => task.destroy() };
}

export { nextZoom, ZOOM_STEPS } from './zoom.ts';
