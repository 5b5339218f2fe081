/** Text helpers shared by the extractors: line splitting, word boundaries that know umlauts, label lookup. */

/** JavaScript's \b treats ä, ö, ü, ß as non-word characters; these look-arounds do not. */
export const WORD_START = '(?<![\\p{L}\\p{N}])';
export const WORD_END = '(?![\\p{L}\\p{N}])';

/** A case-insensitive, Unicode-aware regex of whole words from a list of alternatives (regex source each). */
export function wordsRegex(alternatives: readonly string[], flags = 'giu'): RegExp {
  return new RegExp(`${WORD_START}(?:${alternatives.join('|')})${WORD_END}`, flags);
}

/**
 * Splits text into trimmed lines with single spaces. Non-breaking and thin spaces become plain spaces so
 * that "1 234,56" reads the same whichever space the producer used.
 */
export function toLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\u00a0\u2007\u2009\u202f\u200a]/g, ' ')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim());
}

/** Evidence for a field: the matched snippet, on one line, at most 120 characters. */
export function evidence(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= 120 ? clean : `${clean.slice(0, 119)}…`;
}

export interface LabelHit<K extends string> { kind: K; label: string; distance: number }

/**
 * The label closest before a value: among all matches of the given label patterns in `segment` (the text before
 * the value), the one that ends last; at equal ends the longer one. `distance` counts the characters between.
 */
export function nearestLabel<K extends string>(segment: string, labels: ReadonlyArray<readonly [K, RegExp]>): LabelHit<K> | null {
  let best: { kind: K; label: string; end: number; length: number } | null = null;
  for (const [kind, pattern] of labels) {
    pattern.lastIndex = 0;
    for (const m of segment.matchAll(pattern)) {
      const end = m.index + m[0].length;
      if (!best || end > best.end || (end === best.end && m[0].length > best.length)) {
        best = { kind, label: m[0], end, length: m[0].length };
      }
    }
  }
  return best ? { kind: best.kind, label: best.label, distance: segment.length - best.end } : null;
}

/** True when the text between a label and its value is only punctuation and filler (":", "#", "Nr.", "vom", "am"). */
export function onlyFiller(between: string): boolean {
  return /^[\s:#.,;()\-–/=*]*(?:(?:nr|no|nummer|number|vom|am|zum|bis|of|on|dated|in|eur|€)[\s:#.,;()\-–/=*]*)*$/iu.test(between);
}

/** Letters in a string (any script). */
export function letterCount(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

export function clamp01(value: number): number {
  return Math.max(0, Math.min(1, Math.round(value * 100) / 100));
}
