/**
 * Runtime-neutral part of format detection (no Node imports): the MIME table, signature checks on
 * the head of a file, and Content-Type matching. detect-format.ts re-exports all of it and adds
 * the on-disk detection; a browser bundle can import this module directly.
 */
import type { FileFormat } from '../../common/archive-types.ts';
import { FILE_EXTENSIONS, MIME_TYPES } from '../../common/file-formats.ts';
import { hasOleSignature, probeOleBytes } from './ole-compound.ts';

export { MIME_TYPES } from '../../common/file-formats.ts';

export interface DetectedFormat {
  format: FileFormat;
  mimeType: string;
  extension: string;
}

const ZIP_ALIASES = ['application/zip', 'application/x-zip-compressed'];
const OLE_ALIASES = ['application/vnd.ms-office', 'application/x-tika-msoffice'];

/** Other Content-Types that clients commonly send for a format, besides the canonical one. */
const MIME_ALIASES: Record<FileFormat, readonly string[]> = {
  pdf: ['application/x-pdf'],
  jpeg: ['image/jpg', 'image/pjpeg'],
  png: [],
  tiff: ['image/tif', 'image/x-tiff'],
  docx: ZIP_ALIASES,
  xlsx: ZIP_ALIASES,
  pptx: ZIP_ALIASES,
  odt: ZIP_ALIASES,
  ods: ZIP_ALIASES,
  odp: ZIP_ALIASES,
  doc: OLE_ALIASES,
  xls: OLE_ALIASES,
  ppt: OLE_ALIASES,
};

/** How many leading bytes the signature checks look at (the PDF header may follow white-space within them). */
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

/** PDF white-space (ISO 32000-1, 7.2.2): NUL, tab, line feed, form feed, carriage return, space. */
const PDF_WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Where the content starts: after a UTF-8 byte order mark and PDF white-space, within the head. */
function contentStart(head: Uint8Array): number {
  let at = startsWith(head, UTF8_BOM) ? UTF8_BOM.length : 0;
  const end = Math.min(head.length, HEAD_BYTES);
  while (at < end && PDF_WHITESPACE.has(head[at]!)) at++;
  return at;
}

/**
 * Content that an operating system or a browser would run or render rather than show as a document: a Windows
 * executable ("MZ"), an ELF binary, a script with a "#!" line, or HTML/XML markup. Refused whatever follows, so a
 * polyglot (an executable with "%PDF-" in its DOS stub) never becomes a document.
 */
function isExecutableOrMarkup(head: Uint8Array): boolean {
  if (startsWith(head, [0x4d, 0x5a]) || startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) || startsWith(head, [0x23, 0x21]))
    return true;
  const at = contentStart(head);
  const next = head[at + 1] ?? 0;
  const lower = next | 0x20;
  // "<" then "!", "?" or a letter: <!DOCTYPE, <!--, <?xml, <html, <script, <svg …
  return head[at] === 0x3c && (next === 0x21 || next === 0x3f || (lower >= 0x61 && lower <= 0x7a));
}

export function detected(format: FileFormat): DetectedFormat {
  return { format, mimeType: MIME_TYPES[format], extension: FILE_EXTENSIONS[format][0] };
}

/**
 * What the head of a file says: a format, 'zip' / 'ole' when the container must be opened to
 * know, or null. Executables, scripts and markup are refused before anything else.
 */
export function classifyHead(head: Uint8Array): DetectedFormat | 'zip' | 'ole' | null {
  if (isExecutableOrMarkup(head)) return null;
  if (startsWith(head, ZIP_LOCAL_HEADER)) return 'zip';
  if (hasOleSignature(head)) return 'ole';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return detected('jpeg');
  if (startsWith(head, PNG_SIGNATURE)) return detected('png');
  if (TIFF_SIGNATURES.some((s) => startsWith(head, s))) return detected('tiff');
  // Readers tolerate junk before the header, but a file that is something else first (an executable, a script with
  // a "%PDF-" comment) would be run as that something else: only a byte order mark and white-space may precede it.
  if (startsWith(head, PDF_MARKER, contentStart(head))) return detected('pdf');
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
