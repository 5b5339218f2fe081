import { templateReader, templateWriter } from './message-templates.ts';

/**
 * What the embedded service says about a document's processing, worded once: the notes (`processing_note`, one per
 * line) and the reasons of a failure (`error`). The service writes them in English, its API's language
 * (`processingMessage`); the app reads them back (`readProcessingMessage`) to show them in the UI's language, with the
 * English original as the detail. A hosted service's other wordings are shown as they came.
 *
 * Each template's {placeholders} are filled by the service and are the German catalogue's too (`processing.<kind>` in
 * common/i18n). Where two templates could match one text, the more specific one comes first: they are tried in order.
 */
export const PROCESSING_TEMPLATES = {
  duplicate: 'The same file is already in this space (see duplicate_of).',
  // OCR (server/pipeline/steps/ocr-report.ts)
  ocrLow: 'OCR confidence is low ({percent}%); the text may contain errors.',
  ocrLowOnPagesMore: 'OCR confidence is low on pages {pages} and {more} more; the text there may contain errors.',
  ocrLowOnPages: 'OCR confidence is low on pages {pages}; the text there may contain errors.',
  ocrLowOnPage: 'OCR confidence is low on page {page}; the text there may contain errors.',
  ocrFailedOn: 'OCR failed on page {page}: {reason}',
  ocrFailedOneMore: 'OCR failed on 1 more page.',
  ocrFailedMore: 'OCR failed on {count} more pages.',
  ocrLanguagesMissingOneOf: 'No OCR data for language(s) {missing}; read with one of {used}.',
  ocrLanguagesMissing: 'No OCR data for language(s) {missing}; read with {used}.',
  foreignScript: 'The scan appears to be in {scripts} script, which the installed OCR languages do not cover.',
  // Text of the file
  pdfLocked: 'The PDF is password-protected; its text could not be read.',
  noTextPdf: 'No text was found: the PDF has no text layer and OCR found no text on its pages.',
  noTextImage: 'No text was found: OCR found no text in the image.',
  noTextFile: 'No text was found: the {format} file contains no text.',
  officeUnreadable: 'The {format} file could not be read ({reason}); no text was extracted.',
  officeTruncated: 'The {format} file is very large; only its first {chars} characters of text were kept.',
  pageLimit: 'Only the first {read} of {total} pages were read (the limit per document).',
  oversizeImage: 'An image larger than {megapixels} megapixels ({sizes}) was left out; text in it was not read.',
  oversizeImages:
    '{count} images larger than {megapixels} megapixels ({sizes}) were left out; text in them was not read.',
  imagePartial: 'Only the first {pages} page(s) of the image could be read: {reason}',
  imageUnreadable: 'The image could not be read: {reason}',
  imageTruncated: 'The image file is truncated; only part of it could be read.',
  imageHeader: 'The image header is unreadable.',
  imageTooLarge: 'The image is too large to read ({size} pixels).',
  imageUndecodable: 'The image could not be decoded ({reason}).',
  tiffUnreadable: 'The TIFF structure is unreadable ({reason}).',
  tiffEmpty: 'The TIFF file has no image.',
  tiffPageTooLarge: 'A TIFF page is too large or has no size ({size} pixels).',
  tiffPageUndecodable: 'A TIFF page could not be decoded ({reason}).',
  // The language model (configured by the archive's administrator)
  llmNotUsed: 'Language model extractor not used: {reason}.',
  llmDropped: 'Language model values not printed in the document were dropped: {fields}.',
  llmFailed: "Language model extractor failed (the rules' fields stand): {reason}.",
  // Failures (`error`): "Processing failed: " and the reason, which may be one of the reasons below
  failed: 'Processing failed: {reason}',
  notTriedAgain: '{reason}; not tried again after {tries} tries',
  timeout: 'Processing took longer than {duration} (the limit per document).',
  memory: 'Too large to process: it needed more than {mb} MB of memory (the limit per document).',
  pdfStreamObject:
    'PDF too large to process: a compressed stream (object {object}) inflates to more than {mb} MB (the limit per stream).',
  pdfStream: 'PDF too large to process: a compressed stream inflates to more than {mb} MB (the limit per stream).',
  pdfStreams:
    'PDF too large to process: its compressed streams inflate to more than {mb} MB together (the limit per document).',
  pdfUnreadable: 'The PDF could not be read ({reason})',
  processNotStarted: 'the analysis process did not start within {duration}',
  processEnded: 'the analysis process ended unexpectedly ({how})',
  interrupted: 'it was interrupted {tries} times (the service stopped during it); not tried again',
  workerLost: 'the worker running it was lost {times} times; not tried again',
} as const;

/** Placeholders that hold a count or a size: read back as digits only, shown as numbers in the UI's locale. */
export const NUMERIC_PLACEHOLDERS: ReadonlySet<string> = new Set([
  'percent',
  'more',
  'count',
  'chars',
  'read',
  'total',
  'megapixels',
  'mb',
  'tries',
  'times',
]);

export type ProcessingKind = keyof typeof PROCESSING_TEMPLATES;

/**
 * A note or failure reason in the service's English. Numbers are written plainly ("2000"); a line break inside a
 * value (another program's reply) becomes a space, since notes are one per line.
 */
export const processingMessage = templateWriter(PROCESSING_TEMPLATES, (value) => value.replace(/\s*\n\s*/g, ' '));

/** The service joins a document's notes one per line (`processing_note`). */
export const joinProcessingNotes = (notes: readonly string[]): string | null => notes.join('\n') || null;

/** Which template a text was made from, and its placeholders' values; null for any other text. */
export const readProcessingMessage = templateReader(PROCESSING_TEMPLATES, {
  patterns: Object.fromEntries([...NUMERIC_PLACEHOLDERS].map((name) => [name, '\\d[\\d,]*'])),
});
