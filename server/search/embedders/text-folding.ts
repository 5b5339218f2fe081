/**
 * Text normalisation shared by the hashed embedder and by snippet marking, so that what counts as "the same word"
 * is decided in one place: NFKD, combining marks stripped ("Kündigung" → "kundigung"), lower case, ß → ss.
 */
export function foldText(text: string): string {
  // Printable ASCII needs lower case only (NFKD leaves it as it is, no marks, no ß); most words are just that.
  if (!/[^\x20-\x7e]/.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replaceAll('ß', 'ss');
}

/** Folded words (letters and digits) of a text, in order. */
export function foldedWords(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const isNumeric = (word: string): boolean => /^\p{N}+$/u.test(word);

/**
 * Function words of German and English. They occur in every document, so leaving them in would make any two
 * documents look alike; with no corpus statistics (an IDF) at hand, a list is the cheapest fix.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by for from has have he her his i if in into is it its me my no not of on or our ' +
    'she so that the their them then there these they this to was we were what when which who will with you your ' +
    'aber als am an auch auf aus bei bin bis bist da dann das dass dem den der des die dir du durch ein eine einem ' +
    'einen einer eines er es fur hat hatte ich ihm ihn ihr ihre im in ist ja kein mit nach nicht noch nur ob oder ' +
    'sein seine sich sie sind so uber um und uns unter vom von vor war wie wir wird zu zum zur'
  ).split(' '),
);

/** Character trigrams of a folded word padded with word boundaries ("<ab>" → "<ab", "ab>"). */
export function trigrams(word: string): Set<string> {
  const padded = `<${word}>`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/** Dice coefficient of the two words' trigram sets: 1 for equal words, about 0.6 for one typo in an 8-letter word. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a),
    tb = trigrams(b);
  let shared = 0;
  for (const gram of ta) if (tb.has(gram)) shared++;
  return (2 * shared) / (ta.size + tb.size);
}
