import { conceptsOfWord } from './embedders/synonyms.ts';
import { foldedWords, foldText, isNumeric, STOPWORDS } from './embedders/text-folding.ts';
import { dice, trigramCodes } from './trigrams.ts';

/** Decides whether a word of a document answers a word of the query: same word, prefix, shared stem, close spelling, synonym. */
export function queryWordMatcher(query: string): (word: string) => boolean {
  const terms = [...new Set(foldedWords(query))]
    .filter((word) => !STOPWORDS.has(word) && (word.length >= 2 || isNumeric(word)))
    .map((term) => ({ term, numeric: isNumeric(term), grams: term.length >= 4 ? new Set(trigramCodes(term)) : null }));
  const concepts = new Set(terms.flatMap(({ term }) => conceptsOfWord(term).map((match) => match.concept)));
  const decide = (facts: WordFacts): boolean => {
    const word = facts.folded;
    if (facts.stopword) return false;
    for (const { term, numeric: numericTerm, grams: termGrams } of terms) {
      if (word === term) return true;
      if (numericTerm || facts.numeric) continue;
      if (term.length >= 3 && word.startsWith(term)) return true;
      if (sharedPrefix(word, term) >= 5) return true;
      if (termGrams && word.length >= 4 && dice((facts.grams ??= trigramCodes(word)), termGrams) >= 0.5) return true;
    }
    return (
      concepts.size > 0 &&
      word.length >= 3 &&
      (facts.concepts ??= conceptsOfWord(word)).some((match) => concepts.has(match.concept))
    );
  };
  const verdicts = new Map<string, boolean>();
  return (raw) => {
    let verdict = verdicts.get(raw);
    if (verdict === undefined) verdicts.set(raw, (verdict = decide(factsOf(raw))));
    return verdict;
  };
}

/** What the matcher needs to know of a word as written, whatever the query. */
interface WordFacts {
  folded: string;
  stopword: boolean;
  numeric: boolean;
  grams?: number[];
  concepts?: ReturnType<typeof conceptsOfWord>;
}

/**
 * Word facts remembered across searches: they depend on the word alone (folding, fixed synonym tables) and a
 * snippet needs them for every word of a document, where folding (NFKD), the trigrams and conceptsOfWord (a long
 * word's one-edit variants and compound cuts) cost microseconds each. Emptied when full, which bounds it to a few MB.
 */
const wordFacts = new Map<string, WordFacts>();
function factsOf(raw: string): WordFacts {
  let facts = wordFacts.get(raw);
  if (!facts) {
    if (wordFacts.size >= 50_000) wordFacts.clear();
    const folded = foldText(raw);
    wordFacts.set(raw, (facts = { folded, stopword: STOPWORDS.has(folded), numeric: isNumeric(folded) }));
  }
  return facts;
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
