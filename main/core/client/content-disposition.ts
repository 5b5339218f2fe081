import { basename } from 'node:path';

/**
 * The file name of a Content-Disposition header (RFC 6266): `filename*` (RFC 5987, UTF-8 percent-encoded) wins over
 * `filename`. The result is reduced to a safe base name: no directories, no control characters, never empty.
 */
export function filenameFromContentDisposition(header: string | undefined, fallback: string): string {
  if (!header) return safeFileName(fallback);
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      const charset = extended[1]!.trim().toLowerCase();
      const raw = extended[2]!.trim();
      const bytes = Buffer.from(raw.replace(/%([0-9a-f]{2})|([\s\S])/gi, (_, hex: string | undefined, ch: string | undefined) =>
        (hex ? String.fromCharCode(parseInt(hex, 16)) : ch!)), 'latin1');
      const decoded = new TextDecoder(charset || 'utf-8', { fatal: true }).decode(bytes);
      return safeFileName(decoded, fallback);
    } catch {
      // A malformed extended value: fall through to the plain one.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return safeFileName(quoted[1]!.replace(/\\(.)/g, '$1'), fallback);
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return safeFileName(token ? token[1]! : fallback, fallback);
}

export function safeFileName(name: string, fallback = 'document'): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const cleaned = basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').trim();
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return fallback === name ? 'document' : safeFileName(fallback);
  return cleaned.slice(0, 200);
}
