/** Small formatting helpers shared by the screens. */

export function fileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toLocaleString(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}

/**
 * The service's snippet is HTML-escaped text with <mark>…</mark> around matches. It is shown with {@html}, so
 * anything else that looks like markup is escaped again: only <mark> survives, whatever a service sends.
 */
export function safeSnippet(snippet: string): string {
  return snippet
    .split(/(<\/?mark>)/)
    .map((part) => (part === '<mark>' || part === '</mark>' ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')))
    .join('');
}

/** `tiff`: an image the browser cannot show; its first page is decoded in the renderer (tiff.ts). */
export type PreviewKind = 'pdf' | 'image' | 'tiff' | 'office' | 'none';

export function previewKind(mime: string, format: string): PreviewKind {
  if (format === 'pdf' || mime === 'application/pdf') return 'pdf';
  if (format === 'jpeg' || format === 'png' || mime === 'image/jpeg' || mime === 'image/png') return 'image';
  if (format === 'tiff' || mime === 'image/tiff') return 'tiff';
  if (['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt'].includes(format)) return 'office';
  return 'none';
}

/** A field value of extracted_data as one readable line. */
export function fieldValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(fieldValue).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.value === 'number' && typeof o.currency === 'string') return `${o.value.toFixed(2)} ${o.currency}`;
    return JSON.stringify(value);
  }
  return String(value);
}

export interface ExtractedField { name: string; value: string; source: string; confidence: number | null }

export function extractedFields(data: Record<string, unknown>): ExtractedField[] {
  return Object.entries(data).map(([name, raw]) => {
    if (raw && typeof raw === 'object' && 'value' in raw) {
      const r = raw as { value: unknown; source?: unknown; confidence?: unknown };
      return {
        name, value: fieldValue(r.value), source: typeof r.source === 'string' ? r.source : '—',
        confidence: typeof r.confidence === 'number' ? r.confidence : null,
      };
    }
    return { name, value: fieldValue(raw), source: '—', confidence: null };
  });
}
