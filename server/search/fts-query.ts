/**
 * Turns what a person types into a safe FTS5 query: every word must match (as a prefix, so "rechn" finds
 * "Rechnung"); quotes and operators typed by the user are taken as plain text, never as FTS syntax.
 * Returns null when nothing searchable is left.
 */
export function toFtsQuery(input: string): string | null {
  const words = input.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  return words.slice(0, 32).map((w) => `"${w}"*`).join(' ');
}
