/**
 * The supported file formats' MIME types and file name extensions, shared by the service (which detects formats from
 * bytes) and the desktop (which names downloads and local copies after the detected format).
 */
import type { FileFormat } from './archive-types.ts';

export const MIME_TYPES: Record<FileFormat, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tiff: 'image/tiff',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** Extensions (without the dot) a file of each format may carry; the first is the one given to files we name. */
export const FILE_EXTENSIONS: Record<FileFormat, readonly [string, ...string[]]> = {
  pdf: ['pdf'],
  jpeg: ['jpg', 'jpeg', 'jpe'],
  png: ['png'],
  tiff: ['tif', 'tiff'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  pptx: ['pptx'],
  odt: ['odt'],
  ods: ['ods'],
  odp: ['odp'],
  doc: ['doc'],
  xls: ['xls'],
  ppt: ['ppt'],
};

/** The format whose canonical MIME type this is (parameters and case ignored), or null. */
export function formatOfMimeType(mimeType: string): FileFormat | null {
  const essence = mimeType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const entry = Object.entries(MIME_TYPES).find(([, type]) => type === essence);
  return entry ? (entry[0] as FileFormat) : null;
}
