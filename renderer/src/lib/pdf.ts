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

/** Zoom steps of the preview toolbar. */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4] as const;

export function nextZoom(current: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((z) => z > current + 0.001) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!;
  return [...ZOOM_STEPS].reverse().find((z) => z < current - 0.001) ?? ZOOM_STEPS[0];
}
