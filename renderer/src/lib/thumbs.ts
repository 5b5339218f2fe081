import { desktop } from './desktop.ts';
import { previewKind } from './format.ts';
import type { DocumentView } from '../../../common/ipc.ts';

/**
 * Thumbnails for the grid: images use their preview URL, PDFs get page 1 rendered small by pdf.js and TIFFs their
 * first page decoded by utif2 (two at a time,
 * cached as object URLs by sha256, so scrolling back is free). Only cells in the window ask, so 10,000 documents cost
 * nothing until they are seen.
 */
const cache = new Map<string, Promise<string | null>>();
const queue: Array<() => void> = [];
let running = 0;
const MAX_CACHED = 400;
const THUMB_WIDTH = 320;

/** How long the grid must rest before its cells ask for thumbnails: a fast scroll passes hundreds of cells. */
export const SCROLL_REST_MS = 150;
let lastScrollAt = Number.NEGATIVE_INFINITY;

/** The grid scrolled (its scroll handler): thumbnails wait until it rests. */
export function noteScroll(now = performance.now()): void {
  lastScrollAt = now;
}

/** How much longer a cell should wait before it asks for its thumbnail: 0 once the grid has rested long enough. */
export function restRemaining(now = performance.now()): number {
  return Math.max(0, lastScrollAt + SCROLL_REST_MS - now);
}

/** A job whose cell left the window before its turn came: nothing was rendered and nothing is cached. */
class NotWanted extends Error {}

function schedule<T>(job: () => Promise<T>, wanted: () => boolean): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const run = () => {
      if (!wanted()) {
        reject(new NotWanted());
        queue.shift()?.();
        return;
      }
      running++;
      job()
        .then(resolve, reject)
        .finally(() => {
          running--;
          queue.shift()?.();
        });
    };
    if (running < 2) run();
    else queue.push(run);
  });
}

/**
 * The thumbnail of a document, or null when it has none. `wanted` is asked when the job's turn comes (two run at a
 * time): a cell that has left the window by then costs nothing, and a later visit asks again.
 */
export function thumbnail(doc: DocumentView, wanted: () => boolean = () => true): Promise<string | null> {
  const kind = previewKind(doc.mime_type, doc.file_format);
  if (kind !== 'pdf' && kind !== 'image' && kind !== 'tiff') return Promise.resolve(null);
  const key = `${doc.sha256}:${doc.id}`;
  let entry = cache.get(key);
  if (!entry) {
    const job = schedule(async () => {
      const preview = await desktop()['documents.preview']({ id: doc.id });
      if (kind === 'image') return preview.url;
      if (kind === 'tiff') {
        const { tiffPreviewUrl } = await import('./tiff.ts');
        return tiffPreviewUrl(preview.url, THUMB_WIDTH);
      }
      const { openPdf } = await import('./pdf.ts');
      const task = openPdf(preview.url);
      try {
        const pdf = await task.promise;
        const page = await pdf.getPage(1);
        const base = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: THUMB_WIDTH / base.width });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        const context = canvas.getContext('2d');
        if (!context) return null;
        await page.render({ canvas, canvasContext: context, viewport }).promise;
        const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
        return blob ? URL.createObjectURL(blob) : null;
      } finally {
        void task.destroy();
      }
    }, wanted);
    entry = job.catch((error: unknown) => {
      if (error instanceof NotWanted && cache.get(key) === entry) cache.delete(key);
      return null;
    });
    cache.set(key, entry);
    if (cache.size > MAX_CACHED) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) {
        void cache.get(oldest)?.then((url) => {
          if (url?.startsWith('blob:')) URL.revokeObjectURL(url);
        });
        cache.delete(oldest);
      }
    }
  }
  return entry;
}
