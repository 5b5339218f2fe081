/** The note on a document longer than the page limit (PDF and TIFF alike). */
export const pageLimitNote = (read: number, total: number): string =>
  `Only the first ${read} of ${total} pages were read (the limit per document).`;
