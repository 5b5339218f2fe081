/**
 * The name a stored document gets when it leaves the archive: the download's Content-Disposition, the desktop's local
 * copies and the file handed to the operating system's opener. The uploader chose the name, so it is not trusted: the
 * extension is always that of the format detected from the bytes (a PDF named `setup.exe` is saved as `setup.pdf`),
 * and characters that can disguise a name or escape a folder are removed.
 */
import { FILE_EXTENSIONS, formatOfMimeType } from './file-formats.ts';

// C0 and C1 controls and DEL; bidirectional formatting (ALM, LRM, RLM, LRE…RLO, LRI…PDI), which can show
// "invoice" + U+202E + "fdp.exe" as "invoiceexe.pdf"; zero-width characters and the BOM, which hide inside names.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;
/** Characters Windows refuses in file names; replaced so a name made here can be written on every system. */
const RESERVED = /[<>:"|?*]/g;
/** Device names Windows opens instead of a file, whatever the extension (`CON.pdf` is the console). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
/** An extension worth replacing: letters and digits with at least one letter (`v1.2` keeps its `.2`). */
const EXTENSION = /\.([a-z0-9]*[a-z][a-z0-9]*)$/i;
/** Room for the extension within the 255 bytes most file systems allow. */
const MAX_BASE_BYTES = 200;

/**
 * The uploaded name, cleaned: no folders, no control, bidirectional or zero-width characters, no leading dots (hidden
 * files), no surrounding spaces. Empty when nothing is left.
 */
export function cleanFileName(name: string): string {
  const lastPart = name.normalize('NFC').split(/[\\/]/).pop() ?? '';
  return lastPart.replace(INVISIBLE, '').trim().replace(/^\.+/, '').trim();
}

/**
 * The file name for a document of this MIME type (the detected one): the uploader's name before its extension, then
 * the format's extension. A name that already ends in one of the format's extensions (`scan.jpeg` for a JPEG) keeps
 * it. A MIME type of no supported format gets `.bin`, never the uploader's extension.
 */
export function downloadFileName(originalName: string, mimeType: string): string {
  const format = formatOfMimeType(mimeType);
  const extensions = format ? FILE_EXTENSIONS[format] : ['bin'];
  const cleaned = cleanFileName(originalName).replace(RESERVED, '_');
  const current = EXTENSION.exec(cleaned);
  const kept = current?.[1] !== undefined && extensions.includes(current[1].toLowerCase()) ? current[1] : null;
  // Windows drops trailing dots and spaces, which would join what is left of the name to the extension oddly.
  let base = truncateUtf8(current ? cleaned.slice(0, current.index) : cleaned, MAX_BASE_BYTES).replace(/[. ]+$/, '');
  if (base === '') base = 'document';
  if (WINDOWS_DEVICE.test(base)) base = `_${base}`;
  return `${base}.${kept ?? extensions[0]}`;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, cut between code points. */
function truncateUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(text).length <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += encoder.encode(char).length;
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}
