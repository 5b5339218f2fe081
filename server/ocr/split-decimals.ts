import type { OcrWord, Recognition } from './tesseract-workers.ts';

/**
 * Amounts that OCR split at the decimal point: the wide, evenly spaced digits of till printers make tesseract see
 * a gap after the point, so "39.80" comes out as "39. 80" and is read as 39. The two parts are joined where the
 * second is exactly two digits and nothing but figures or the line's end follows: "1. 25 kg" or a numbered list's
 * "2. 10 days" keep their gap.
 */
const SPLIT_IN_TEXT = /(\d[.,]) (\d{2})(?=[ \t]*$|[ \t]+[^\p{L}\s])/gmu;

export function joinSplitDecimals(reading: Recognition): Recognition {
  if (!SPLIT_IN_TEXT.test(reading.text)) return reading;
  SPLIT_IN_TEXT.lastIndex = 0;
  return { ...reading, text: reading.text.replace(SPLIT_IN_TEXT, '$1$2'), words: joinWords(reading.words) };
}

/** The same join on the word boxes: "39." and "80" side by side on one line become one box "39.80". */
function joinWords(words: readonly OcrWord[]): OcrWord[] {
  const out: OcrWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const after = words[i + 2];
    if (
      next &&
      /\d[.,]$/u.test(word.text) &&
      /^\d{2}$/u.test(next.text) &&
      sameLine(word, next) &&
      next.left - (word.left + word.width) < word.height * 1.5 &&
      !(after && sameLine(next, after) && /^\p{L}/u.test(after.text))
    ) {
      const right = next.left + next.width;
      const bottom = Math.max(word.top + word.height, next.top + next.height);
      const top = Math.min(word.top, next.top);
      out.push({
        text: `${word.text}${next.text}`,
        left: word.left,
        top,
        width: right - word.left,
        height: bottom - top,
      });
      i++;
    } else {
      out.push(word);
    }
  }
  return out;
}

const sameLine = (a: OcrWord, b: OcrWord): boolean =>
  b.left > a.left && Math.abs(a.top + a.height / 2 - (b.top + b.height / 2)) < Math.max(a.height, b.height) / 2;
