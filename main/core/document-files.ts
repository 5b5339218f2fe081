import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveDocument } from '../../common/archive-types.ts';
import { sha256Hex, uuid } from '../../common/archive-schemas.ts';
import { downloadFileName } from '../../common/download-name.ts';
import { fileProblem } from '../../common/file-problems.ts';
import { detectFormat } from '../../shared/formats/detect-format.ts';
import type { ArchiveClient } from './client/archive-client.ts';
import { ArchiveError } from './client/archive-error.ts';
import type { LibraryCache } from './library/library-cache.ts';
import { resolveInside } from './safe-path.ts';

export interface DocumentFilesOptions {
  appDataDir: string;
  cache: LibraryCache;
  /** The client of the running core: replaced when the connection changes, so asked for on every use. */
  client: () => ArchiveClient;
}

export interface PreviewFile {
  path: string;
  mimeType: string;
  fileName: string;
  size: number;
}

/**
 * Local copies of documents' files: the preview cache (`<appDataDir>/preview-cache/<sha256>/file`, downloaded once
 * through a signed URL) and the copies handed to the system's app (`<appDataDir>/open/<sha256>/<name>`). Every path is
 * built from values a service sent, so each goes through a schema check and resolveInside.
 */
export class DocumentFiles {
  private readonly appDataDir: string;
  private readonly previewCache: string;
  private readonly cache: LibraryCache;
  private readonly client: () => ArchiveClient;
  /** The detected MIME type of each file in the preview cache, by path; dropped when the file is downloaded again. */
  private readonly detected = new Map<string, string>();

  constructor(options: DocumentFilesOptions) {
    this.appDataDir = options.appDataDir;
    this.previewCache = join(options.appDataDir, 'preview-cache');
    this.cache = options.cache;
    this.client = options.client;
  }

  /** A cached copy of a document's file for the preview protocol. */
  async previewFile(id: string): Promise<PreviewFile> {
    const { document, path, mimeType } = await this.cachedFile(id);
    return {
      path,
      mimeType,
      fileName: downloadFileName(document.original_filename, mimeType),
      size: document.size_bytes,
    };
  }

  /**
   * A copy of the cached file under its original name, for the system's app: the preview cache's `file` has no
   * extension, so no desktop would know what opens it. Written to a temporary name and renamed, so an app never opens
   * a half-copied file; an existing copy of the right size is reused.
   */
  async openableCopy(id: string): Promise<string> {
    const { document, path, mimeType } = await this.cachedFile(id);
    const directory = resolveInside(this.appDataDir, 'open', document.sha256);
    const target = resolveInside(directory, downloadFileName(document.original_filename, mimeType));
    const existing = await stat(target).catch(() => null);
    if (existing?.size === document.size_bytes) return target;
    await mkdir(directory, { recursive: true });
    const temp = resolveInside(directory, `.${process.pid}.${Date.now()}.part`);
    await copyFile(path, temp);
    await rename(temp, target);
    return target;
  }

  /**
   * The document's file in the preview cache, and its MIME type as detected from the cached bytes: the service's
   * `mime_type` is not trusted, so a hostile one cannot have HTML or a script served to the renderer or opened by the
   * OS. A file of no supported format is refused.
   */
  private async cachedFile(id: string): Promise<{ document: ArchiveDocument; path: string; mimeType: string }> {
    requireValid(uuid, id, 'document id');
    const document = this.cache.getDocument(id) ?? (await this.client().getDocument(id));
    // The client checked the digest when the document arrived; a cache written by an older version was not.
    requireValid(sha256Hex, document.sha256, `SHA-256 of document ${id}`);
    const directory = resolveInside(this.previewCache, document.sha256);
    const path = resolveInside(directory, 'file');
    const existing = await stat(path).catch(() => null);
    if (!existing || existing.size !== document.size_bytes) {
      this.detected.delete(path);
      await this.client().download(id, directory, { fileName: 'file', overwrite: true });
    }
    // Detected once per cached file: a PDF preview asks for many byte ranges of the same file.
    let mimeType = this.detected.get(path);
    if (mimeType === undefined) {
      const format = await detectFormat(path);
      if (!format) {
        throw new ArchiveError(fileProblem('unsupportedFormat', { id }), { status: 502 });
      }
      mimeType = format.mimeType;
      this.detected.set(path, mimeType);
    }
    return { document, path, mimeType };
  }
}

/** A value that becomes part of a local path, checked with its schema first: a clear error instead of a bad path. */
function requireValid(schema: typeof uuid | typeof sha256Hex, value: string, what: string): void {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ArchiveError(
      `Invalid ${what}: ${JSON.stringify(value)} (${result.error.issues[0]?.message ?? 'malformed'})`,
      { status: 400 },
    );
}
