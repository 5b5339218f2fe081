/**
 * The key titles sort by, as a person reads them: without regard to case or accents ("Ärger" with "Ampel", "rechnung"
 * with "Rechnung") and with numbers in numeric order ("Rechnung 2" before "Rechnung 10"). Plain strings compared byte
 * by byte (SQLite's BINARY, JavaScript's <) give that order, so the service and the library cache store this key in an
 * indexed column and sort by it: one function, the same order in both.
 */

/** Letters that no Unicode decomposition splits into a base letter, spelled as German and Nordic readers file them. */
const FOLDED_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th', ı: 'i' };
/** Digit counts are written in two digits; a longer number than this compares by its first digits only. */
const MAX_DIGITS = 99;

export function titleSortKey(title: string): string {
  return (
    title
      .normalize('NFKD') // splits "Ä" into "A" and a combining mark; full-width and superscript digits become 0-9
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[ßæœøđłþı]/g, (letter) => FOLDED_LETTERS[letter] ?? letter)
      .replace(/\s+/gu, ' ')
      .trim()
      // Each number is written after its digit count, so a shorter number sorts first: "2" → "012", "10" → "0210".
      .replace(/\d+/g, (digits) => {
        const significant = digits.replace(/^0+(?=\d)/, '').slice(0, MAX_DIGITS);
        return String(significant.length).padStart(2, '0') + significant;
      })
  );
}
