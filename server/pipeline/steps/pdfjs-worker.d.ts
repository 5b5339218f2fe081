// pdf.js ships no types for its worker module; pdf-text.ts only hands it to pdf.js (preloadPdfWorker).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
