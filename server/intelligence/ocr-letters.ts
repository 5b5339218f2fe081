/**
 * Capital letters that OCR reads as the digits they resemble, inside a word of capitals: "1DEA" for "IDEA",
 * "D.1.Y." for "D.I.Y.", "G5T" for "GST". Used on names, where a digit among capitals is rarely meant.
 */

const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B' };

/**
 * Left alone: tokens with two digits in a row (numbers, years), fewer than two capitals ("A1", "3M"), any lower-case
 * letter or another digit ("B2B", "7ELEVEN"), ordinals ("1ST"), and a digit closing a word ("PS5", "X5": model names),
 * unless a dot stands before it ("T.A.5").
 */
export function withLettersForDigits(name: string): string {
  return name.replace(/[\p{L}\p{N}.]+/gu, (token) => {
    if (!/^[\p{Lu}0158.]+$/u.test(token) || /\d\d/.test(token) || /^\d+(?:ST|ND|RD|TH)\.?$/u.test(token)) return token;
    if ((token.match(/\p{Lu}/gu)?.length ?? 0) < 2 || /(?<=\p{Lu})\d\.?$/u.test(token)) return token;
    return token.replace(/\d/g, (digit) => LETTER_FOR_DIGIT[digit] ?? digit);
  });
}
