import { foldText } from './embedders/text-folding.ts';
import type { SnippetFormat } from './full-text-index.ts';

/** Characters either side of the first match that are cut into tokens: far more than a snippet's words need. */
const AROUND = 2_000;

/**
 * A full-text hit's snippet cut in this process: about `format.tokens` words of the text around its first word that
 * a query word starts (accents and case folded, as the index matched it), those words between the format's marks,
 * an ellipsis where the text goes on. What PostgreSQL's ts_headline did, without parsing every hit's whole text on
 * the database's CPU (about half a millisecond a document there, on the search's critical path).
 */
export function prefixSnippet(text: string, queryWords: readonly string[], format: SnippetFormat): string {
  const prefixes = queryWords.map(foldText).filter(Boolean);
  const matches = (word: string): boolean => {
    const folded = foldText(word);
    return prefixes.some((prefix) => folded.startsWith(prefix));
  };
  let at = 0;
  for (const word of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!matches(word[0])) continue;
    at = word.index;
    break;
  }
  // Only the stretch around the first match is cut into tokens; a word broken at its edge is dropped.
  const lead = Math.max(0, at - AROUND);
  const tail = Math.min(text.length, at + AROUND);
  const tokens = text.slice(lead, tail).match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? [];
  if (lead > 0) tokens.shift();
  if (tail < text.length) tokens.pop();
  const isWord = (token: string): boolean => /^[\p{L}\p{N}]/u.test(token);
  const words = tokens.flatMap((token, i) => (isWord(token) ? [i] : []));
  if (words.length === 0) return '';
  const first = Math.max(
    0,
    words.findIndex((i) => matches(tokens[i]!)),
  );
  const start = Math.max(0, Math.min(first - Math.floor(format.tokens / 3), words.length - format.tokens));
  const end = Math.min(words.length, start + format.tokens);
  const from = start === 0 ? 0 : words[start]!;
  const to = end >= words.length ? tokens.length : words[end]!;
  let snippet = tokens
    .slice(from, to)
    .map((token) => (isWord(token) && matches(token) ? `${format.open}${token}${format.close}` : token))
    .join('')
    .replace(/\s+/gu, ' ')
    .trim();
  if (from > 0 || lead > 0) snippet = `${format.ellipsis}${snippet}`;
  if (to < tokens.length || tail < text.length) snippet = `${snippet}${format.ellipsis}`;
  return snippet;
}
