/** Small formatting helpers shared by the screens. */

/** Binary units, at most three digits before the separator: 1,019 bytes read "1 KB", not "1.019 B" (German). */
export function fileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes,
    unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 })} ${units[unit]}`;
}

/**
 * The service's snippet is HTML-escaped text with <mark>…</mark> around matches. It is shown with {@html}, so
 * anything else that looks like markup is escaped again: only <mark> survives, whatever a service sends.
 */
export function safeSnippet(snippet: string): string {
  return snippet
    .split(/(<\/?mark>)/)
    .map((part) =>
      part === '<mark>' || part === '</mark>'
        ? part
        : part.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
    )
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

/** One entry of extracted_data: its value as the service sent it (field-display.ts words it for the UI). */
export interface ExtractedField {
  name: string;
  raw: unknown;
  source: string;
  confidence: number | null;
}

export function extractedFields(data: Record<string, unknown>): ExtractedField[] {
  return Object.entries(data).map(([name, raw]) => {
    if (raw && typeof raw === 'object' && 'value' in raw) {
      const r = raw as { value: unknown; source?: unknown; confidence?: unknown };
      return {
        name,
        raw: r.value,
        source: typeof r.source === 'string' ? r.source : '—',
        confidence: typeof r.confidence === 'number' ? r.confidence : null,
      };
    }
    return { name, raw, source: '—', confidence: null };
  });
}

/** Times of day every `stepMinutes` as HH:MM, with `current` among them where it is off the grid (kept, not rounded). */
export function timesOfDay(stepMinutes: number, current: string): string[] {
  const times: string[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += stepMinutes)
    times.push(`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`);
  if (/^\d{2}:\d{2}$/.test(current) && !times.includes(current)) times.push(current);
  return times.sort();
}
