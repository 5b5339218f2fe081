/**
 * Tells OOXML and ODF documents apart from other zips (epub, jar, a zip of PDFs) by their entry
 * names, read from the central directory with yauzl. Only ODF's tiny `mimetype` entry is ever
 * decompressed. Any zip error (truncated, corrupt, bad entry names) means "not a supported
 * document": the result is null, never an exception.
 */
import { openPromise, type Entry, type ZipFile } from 'yauzl';

export type ZipFormat = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp';

/** Bounds the central-directory walk for zips with absurd entry counts. */
const MAX_ENTRIES = 100_000;
/** Longest valid ODF mimetype is 46 bytes; anything much bigger is not one. */
const MAX_MIMETYPE_BYTES = 64;

/** OPC part names are case-insensitive, so these are matched on the lower-cased entry name. */
const OOXML_CONTENT_TYPES = '[content_types].xml';
const OOXML_MAIN_PARTS: ReadonlyMap<string, ZipFormat> = new Map([
  ['word/document.xml', 'docx'],
  ['xl/workbook.xml', 'xlsx'],
  ['ppt/presentation.xml', 'pptx'],
]);

const ODF_MIMETYPES: ReadonlyMap<string, ZipFormat> = new Map([
  ['application/vnd.oasis.opendocument.text', 'odt'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'ods'],
  ['application/vnd.oasis.opendocument.presentation', 'odp'],
]);

/** The next central-directory entry, or null at the end. */
function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry): void => {
      cleanup();
      resolve(entry);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(null);
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

/** The ODF format named by a `mimetype` entry, whose content must be exactly the MIME type. */
async function readOdfMimetype(zip: ZipFile, entry: Entry): Promise<ZipFormat | null> {
  if (entry.uncompressedSize > MAX_MIMETYPE_BYTES || entry.isEncrypted()) return null;
  // yauzl validates the actual size against the declared one, so this stays tiny.
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return ODF_MIMETYPES.get(Buffer.concat(chunks).toString('latin1')) ?? null;
}

async function scanEntries(zip: ZipFile): Promise<ZipFormat | null> {
  let hasContentTypes = false;
  let ooxml: ZipFormat | null = null;
  for (let i = 0; i < MAX_ENTRIES; i++) {
    const entry = await nextEntry(zip);
    if (entry === null) return null;
    if (entry.fileName === 'mimetype') {
      const odf = await readOdfMimetype(zip, entry);
      if (odf !== null) return odf;
      continue;
    }
    const name = entry.fileName.toLowerCase();
    if (name === OOXML_CONTENT_TYPES) hasContentTypes = true;
    else ooxml ??= OOXML_MAIN_PARTS.get(name) ?? null;
    if (hasContentTypes && ooxml !== null) return ooxml;
  }
  return null;
}

/** Which zip-based document format the zip file at `path` is, or null. */
export async function probeZipContainer(path: string): Promise<ZipFormat | null> {
  let zip: ZipFile;
  try {
    zip = await openPromise(path, { lazyEntries: true, autoClose: true });
  } catch {
    return null;
  }
  // Errors surface through nextEntry while scanning; this keeps a late one (e.g. from closing the
  // file after an early return) from becoming an unhandled 'error' event.
  zip.on('error', () => {});
  try {
    return await scanEntries(zip);
  } catch {
    return null;
  } finally {
    zip.close(); // idempotent; needed when we stop before the last entry
  }
}
