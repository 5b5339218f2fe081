import { dot } from './embedders/embedder.ts';
import { HashedEmbedder } from './embedders/hashed-embedder.ts';
import { queryWordMatcher } from './query-word-matcher.ts';

// Search snippets as HTML: the text escaped, the words that answer the query in <mark>.

/** About how many words a snippet shows, FTS5's and vectorSnippet's alike. */
const SNIPPET_WORDS = 24;

// Markers from Unicode's private use area cannot occur in extracted text, so escaping around them is safe.
const OPEN = '\uE000',
  CLOSE = '\uE001';
/** How FTS5 cuts the snippets of full-text hits (its markers become <mark> in highlightFts). */
export const SNIPPET_FORMAT = { open: OPEN, close: CLOSE, ellipsis: '…', tokens: SNIPPET_WORDS };

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** FTS5's snippet with its markers turned into <mark> after escaping the text around them. */
export function highlightFts(snippet: string): string {
  return escapeHtml(snippet).replaceAll(OPEN, '<mark>').replaceAll(CLOSE, '</mark>');
}

const snippetEmbedder = new HashedEmbedder();

/**
 * A snippet for a hit that FTS did not find: the sentence of the text (or the title, which the vector also saw) with
 * the most words that answer the query (ties: the one the hashed embedder finds closest, then the earliest), cut to
 * about 24 words around its first match, HTML-escaped, with those words in <mark>.
 */
export function vectorSnippet(
  content: string,
  title: string,
  query: string,
  isMatch = queryWordMatcher(query),
): string {
  const sentences = content
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 500);
  if (title.trim()) sentences.push(title.trim());
  if (sentences.length === 0) return '';
  // Most marks first; only the sentences that have the most are embedded for the tie-break (earliest wins a tie).
  const marks = sentences.map((sentence) => {
    let count = 0;
    for (const word of sentence.match(/[\p{L}\p{N}]+/gu) ?? []) if (isMatch(word)) count++;
    return count;
  });
  const most = Math.max(...marks);
  const queryVector = snippetEmbedder.embedText(query);
  let best = { at: 0, similarity: -Infinity };
  marks.forEach((count, at) => {
    if (count !== most) return;
    const similarity = dot(queryVector, snippetEmbedder.embedText(sentences[at]!));
    if (similarity > best.similarity) best = { at, similarity };
  });
  const tokens = sentences[best.at]!.match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? [];
  const wordPositions = tokens.flatMap((token, i) => (/^[\p{L}\p{N}]/u.test(token) ? [i] : []));
  const firstMark = wordPositions.findIndex((i) => isMatch(tokens[i]!));
  const startWord = Math.max(
    0,
    Math.min(firstMark - Math.floor(SNIPPET_WORDS / 3), wordPositions.length - SNIPPET_WORDS),
  );
  const endWord = Math.min(wordPositions.length, startWord + SNIPPET_WORDS);
  const from = startWord === 0 ? 0 : wordPositions[startWord]!;
  const to = endWord >= wordPositions.length ? tokens.length : wordPositions[endWord]!;
  let html = tokens
    .slice(from, to)
    .map((token) =>
      /^[\p{L}\p{N}]/u.test(token) && isMatch(token) ? `<mark>${escapeHtml(token)}</mark>` : escapeHtml(token),
    )
    .join('')
    .trim();
  if (from > 0 || best.at > 0) html = `…${html}`;
  if (to < tokens.length || best.at < sentences.length - 1) html = `${html}…`;
  return html;
}
