import { cleanFileName } from '../../../common/download-name.ts';

/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*` (RFC 5987, UTF-8 percent-encoded) wins over
 * `filename`. The name is cleaned (no folders, no control or bidirectional characters); the extension is still the
 * sender's, so a file is saved under `downloadFileName(name, detected format)`.
 */
export function filenameFromContentDisposition(header: string | undefined, fallback: string): string {
  return cleanFileName(rawFileName(header) ?? '') || fallback;
}

function rawFileName(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      const charset = extended[1]!.trim().toLowerCase();
      const raw = extended[2]!.trim();
      const bytes = Buffer.from(
        raw.replace(/%([0-9a-f]{2})|([\s\S])/gi, (_, hex: string | undefined, ch: string | undefined) =>
          hex ? String.fromCharCode(parseInt(hex, 16)) : ch!,
        ),
        'latin1',
      );
      return new TextDecoder(charset || 'utf-8', { fatal: true }).decode(bytes);
    } catch {
      // A malformed extended value: fall through to the plain one.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return token ? token[1]! : null;
}
