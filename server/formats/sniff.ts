/**
 * Runtime-neutral part of format detection (no Node imports): the MIME table, signature checks on
 * the head of a file, and Content-Type matching. detect-format.ts re-exports all of it and adds
 * the on-disk detection; a browser bundle can import this module directly.
 */
import type { FileFormat } from '../../common/archive-types.ts';
import { FILE_EXTENSIONS, MIME_TYPES } from '../../common/file-formats.ts';
import { hasOleSignature, probeOleBytes } from './ole-compound.ts';

export { MIME_TYPES } from '../../common/file-formats.ts';

export interface DetectedFormat { format: FileFormat; mimeType: string; extension: string }

const ZIP_ALIASES = ['application/zip', 'application/x-zip-compressed'];
const OLE_ALIASES = ['application/vnd.ms-office', 'application/x-tika-msoffice'];

/** Other Content-Types that clients commonly send for a format, besides the canonical one. */
const MIME_ALIASES: Record<FileFormat, readonly string[]> = {
  pdf: ['application/x-pdf'],
  jpeg: ['image/jpg', 'image/pjpeg'],
  png: [],
  tiff: ['image/tif', 'image/x-tiff'],
  docx: ZIP_ALIASES, xlsx: ZIP_ALIASES, pptx: ZIP_ALIASES,
  odt: ZIP_ALIASES, ods: ZIP_ALIASES, odp: ZIP_ALIASES,
  doc: OLE_ALIASES, xls: OLE_ALIASES, ppt: OLE_ALIASES,
};

/** How many leading bytes the signature checks look at (the PDF header may start anywhere in them). */
export const HEAD_BYTES = 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4": every OOXML/ODF file starts with one
const PDF_MARKER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const TIFF_SIGNATURES = [
  [0x49, 0x49, 0x2a, 0x00], // II*\0  little-endian
  [0x4d, 0x4d, 0x00, 0x2a], // MM\0*  big-endian
  [0x49, 0x49, 0x2b, 0x00], // II+\0  BigTIFF
  [0x4d, 0x4d, 0x00, 0x2b], // MM\0+  BigTIFF
];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

function containsPdfMarker(head: Uint8Array): boolean {
  const end = Math.min(head.length, HEAD_BYTES) - PDF_MARKER.length;
  for (let i = 0; i <= end; i++) if (startsWith(head, PDF_MARKER, i)) return true;
  return false;
}

export function detected(format: FileFormat): DetectedFormat {
  return { format, mimeType: MIME_TYPES[format], extension: FILE_EXTENSIONS[format][0] };
}

/**
 * What the head of a file says: a format, 'zip' / 'ole' when the container must be opened to
 * know, or null. Signatures at offset 0 are checked first, so a zip whose first entry is a stored
 * PDF (with "%PDF-" in its first KB) is judged as a zip, not a PDF.
 */
export function classifyHead(head: Uint8Array): DetectedFormat | 'zip' | 'ole' | null {
  if (startsWith(head, ZIP_LOCAL_HEADER)) return 'zip';
  if (hasOleSignature(head)) return 'ole';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return detected('jpeg');
  if (startsWith(head, PNG_SIGNATURE)) return detected('png');
  if (TIFF_SIGNATURES.some((s) => startsWith(head, s))) return detected('tiff');
  // PDF readers accept junk before the header, within the first 1024 bytes.
  if (containsPdfMarker(head)) return detected('pdf');
  return null;
}

/**
 * Same check on an in-memory head of a file, for the client's pre-check; for zip/OLE it needs the
 * whole file so it returns 'needs-file' when the head alone is inconclusive. Pass at least
 * HEAD_BYTES bytes (or the whole file if shorter): the head is not assumed to be the whole file,
 * except that an OLE file given in full is answered definitively.
 */
export function detectFormatFromHead(head: Uint8Array): DetectedFormat | null | 'needs-file' {
  const kind = classifyHead(head);
  // yauzl is asynchronous and reads the central directory at the end of the file.
  if (kind === 'zip') return 'needs-file';
  if (kind === 'ole') {
    const format = probeOleBytes(head);
    if (format === 'needs-more') return 'needs-file';
    return format === null ? null : detected(format);
  }
  return kind;
}

/**
 * Whether a declared Content-Type (as sent in a multipart part header, may contain parameters and
 * any case) is acceptable for a detected format. `application/octet-stream`, empty or missing
 * means "undeclared" and is always acceptable.
 */
export function contentTypeMatches(declared: string | undefined, detectedFormat: DetectedFormat): boolean {
  const essence = (declared ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (essence === '' || essence === 'application/octet-stream') return true;
  const { format } = detectedFormat;
  return essence === MIME_TYPES[format] || MIME_ALIASES[format].includes(essence);
}
