import { processingMessage } from '../../../common/processing-messages.ts';

/** The note on a document longer than the page limit (PDF and TIFF alike). */
export const pageLimitNote = (read: number, total: number): string => processingMessage('pageLimit', { read, total });
