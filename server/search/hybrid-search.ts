import type { SearchHit } from '../../common/archive-types.ts';
import { spaceFilter } from '../auth/access.ts';
import type { ApiKeyPrincipal } from '../auth/api-keys.ts';
import type { Database } from '../db/database.ts';
import { DOCUMENT_SELECT, toDocument, type DocumentRow } from '../documents/document-rows.ts';
import type { EmbeddingIndex, VectorHit } from './embedding-index.ts';
import { dot } from './embedders/embedder.ts';
import { HashedEmbedder } from './embedders/hashed-embedder.ts';
import { conceptsOfWord } from './embedders/synonyms.ts';
import { foldedWords, foldText, isNumeric, STOPWORDS, trigramSimilarity } from './embedders/text-folding.ts';
import { toFtsQuery } from './fts-query.ts';

/**
 * Fusion: reciprocal rank fusion, score = Σ weight · (K + 1) / (K + rank) over the BM25 list and the vector list.
 * Chosen over a weighted sum of normalised scores because the two scores live on unrelated scales: BM25 is unbounded
 * and depends on the corpus and the query length, and a cosine means different things per embedder (0.3 is a strong
 * match for the hashed embedder, a weak one for most neural models). A weighted sum would need calibrating for each
 * embedder and drift with the archive; ranks need neither. K = 60 is the value from the RRF paper, which keeps one list's
 * top hit from swamping a document that both lists rank well. The factor K + 1 scales a first place in one list to 1,
 * so the score reads as "how many lists put it first" (2 at most).
 * BM25 gets a slightly higher weight: a document that has every word of the query is the safer bet (it also breaks the
 * tie between "first in BM25, second in vectors" and the other way round in favour of the exact match).
 */
export const RRF_K = 60;
export const LEXICAL_WEIGHT = 1;
export const SEMANTIC_WEIGHT = 0.9;
/** How deep each list is read for the fusion. */
const CANDIDATES = 200;
/**
 * A vector hit must also reach this share of the best hit's similarity. Without it, a query that matches one
 * document very well drags in the whole tail of documents that merely share a few n-grams with it.
 */
export const RELATIVE_SIMILARITY = 0.35;

// Markers from Unicode's private use area cannot occur in extracted text, so escaping around them is safe.
const OPEN = '\uE000', CLOSE = '\uE001';

export interface HybridSearchRequest {
  query: string;
  limit: number;
  /** Restrict to one space (the caller has checked that the principal can read it). */
  spaceId?: string;
  principal: ApiKeyPrincipal;
}

export interface HybridSearchOptions {
  /** Told when the embedder fails; the search then answers from BM25 alone. */
  onEmbedderError?: (error: unknown) => void;
}

interface Candidate { id: string; lexicalRank?: number; semanticRank?: number; similarity?: number }

/**
 * BM25 (FTS5) and vector similarity fused by reciprocal rank. Both lists obey the same access rule as before:
 * only documents of spaces the key can read (and of space_id when given), never deleted ones.
 */
export async function hybridSearch(db: Database, index: EmbeddingIndex | null, request: HybridSearchRequest,
  options: HybridSearchOptions = {}): Promise<{ items: SearchHit[]; total: number }> {
  const { query, limit, spaceId, principal } = request;
  const spaces = spaceFilter(principal, 'd.space_id');
  const where = ['d.deleted_at IS NULL', spaces.sql];
  const args: string[] = [...spaces.params];
  if (spaceId) {
    where.push('d.space_id = ?');
    args.push(spaceId);
  }
  const match = toFtsQuery(query);
  const ftsFrom = 'FROM documents_fts JOIN documents d ON d.rowid = documents_fts.rowid';
  const ftsWhere = ['documents_fts MATCH ?', ...where].join(' AND ');

  // BM25 in two steps, so FTS5's snippet() (costly on long texts) runs only for the first `limit` hits, as before:
  // the top `limit` with snippets, then (only when there are more) the ranks down to CANDIDATES without.
  const candidates = new Map<string, Candidate>();
  const ftsSnippets = new Map<string, string>();
  let lexicalTotal = 0;
  if (match) {
    const rank = 'bm25(documents_fts, 10.0, 1.0, 5.0, 5.0)';
    const top = db.prepare(`SELECT d.id, ${rank} AS rank, snippet(documents_fts, -1, '${OPEN}', '${CLOSE}', '…', 24) AS snippet
      ${ftsFrom} WHERE ${ftsWhere} ORDER BY rank LIMIT ?`).all(match, ...args, limit) as Array<{ id: string; snippet: string }>;
    for (const row of top) ftsSnippets.set(row.id, highlightFts(row.snippet));
    const lexical = top.length < limit ? top
      : db.prepare(`SELECT d.id, ${rank} AS rank ${ftsFrom} WHERE ${ftsWhere} ORDER BY rank LIMIT ?`).all(match, ...args, CANDIDATES) as Array<{ id: string }>;
    lexical.forEach((row, i) => candidates.set(row.id, { id: row.id, lexicalRank: i + 1 }));
    lexicalTotal = lexical.length < CANDIDATES ? lexical.length
      : (db.prepare(`SELECT count(*) AS n ${ftsFrom} WHERE ${ftsWhere}`).get(match, ...args) as { n: number }).n;
  }

  // A vector hit outside the BM25 list counts as vector-only. That is exact while BM25 has at most CANDIDATES
  // matches (the list is complete); beyond, it may be a full-text match further down, so `total` can then overcount by
  // up to the number of such vector hits. Asking FTS5 about single rowids would be exact but costs milliseconds each.
  const semantic = index ? await semanticHits(db, index, query, { where: where.join(' AND '), args, spaceId, principal }, options) : [];
  let semanticOnly = 0;
  semantic.forEach((hit, i) => {
    const candidate = candidates.get(hit.id);
    if (candidate) Object.assign(candidate, { semanticRank: i + 1, similarity: hit.similarity });
    else {
      candidates.set(hit.id, { id: hit.id, semanticRank: i + 1, similarity: hit.similarity });
      semanticOnly++;
    }
  });

  const ranked = [...candidates.values()].map((candidate) => ({ candidate, score: fusedScore(candidate) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score
      || (a.candidate.lexicalRank ?? Infinity) - (b.candidate.lexicalRank ?? Infinity)
      || (b.candidate.similarity ?? 0) - (a.candidate.similarity ?? 0)
      || a.candidate.id.localeCompare(b.candidate.id))
    .slice(0, limit);

  const byId = db.prepare(`${DOCUMENT_SELECT} WHERE d.id = ?`);
  const items: SearchHit[] = ranked.map(({ candidate, score }) => {
    const row = byId.get(candidate.id) as unknown as DocumentRow;
    return {
      document: toDocument(row),
      score: Math.round(score * 10_000) / 10_000,
      // Hits without an FTS snippet: vector-only ones, and (rarely) full-text hits ranked below `limit` by BM25.
      snippet: ftsSnippets.get(candidate.id) ?? vectorSnippet(row.content, row.title, query),
    };
  });
  return { items, total: lexicalTotal + semanticOnly };
}

function fusedScore(candidate: Candidate): number {
  let score = 0;
  if (candidate.lexicalRank !== undefined) score += LEXICAL_WEIGHT * (RRF_K + 1) / (RRF_K + candidate.lexicalRank);
  if (candidate.semanticRank !== undefined) score += SEMANTIC_WEIGHT * (RRF_K + 1) / (RRF_K + candidate.semanticRank);
  return score;
}

/** The nearest documents the principal may see, verified against the database (deleted, space) in rank order. */
async function semanticHits(db: Database, index: EmbeddingIndex, query: string,
  scope: { where: string; args: string[]; spaceId: string | undefined; principal: ApiKeyPrincipal },
  options: HybridSearchOptions): Promise<VectorHit[]> {
  let vector: Float32Array;
  try {
    vector = await index.embedQuery(query);
  } catch (error) {
    options.onEmbedderError?.(error);
    return [];
  }
  const spaces = scope.spaceId ? new Set([scope.spaceId]) : scope.principal.spaces;
  // Over-fetch: some of the nearest may be deleted, and those are only known to the database.
  const nearest = index.nearest(vector, spaces, CANDIDATES * 2);
  if (nearest.length === 0) return [];
  const floor = nearest[0]!.similarity * RELATIVE_SIMILARITY;
  const close = nearest.filter((hit) => hit.similarity >= floor);
  const visible = new Set((db.prepare(`SELECT d.id FROM json_each(?) AS ids CROSS JOIN documents d ON d.id = ids.value WHERE ${scope.where}`)
    .all(JSON.stringify(close.map((hit) => hit.id)), ...scope.args) as Array<{ id: string }>).map((row) => row.id));
  return close.filter((hit) => visible.has(hit.id)).slice(0, CANDIDATES);
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** FTS5's snippet with its markers turned into <mark> after escaping the text around them. */
export function highlightFts(snippet: string): string {
  return escapeHtml(snippet).replaceAll(OPEN, '<mark>').replaceAll(CLOSE, '</mark>');
}

/** Decides whether a word of a document answers a word of the query: same word, prefix, shared stem, close spelling, synonym. */
export function queryWordMatcher(query: string): (word: string) => boolean {
  const terms = [...new Set(foldedWords(query))].filter((word) => !STOPWORDS.has(word) && (word.length >= 2 || isNumeric(word)));
  const concepts = new Set(terms.flatMap((term) => conceptsOfWord(term).map((match) => match.concept)));
  const cache = new Map<string, boolean>();
  const decide = (word: string): boolean => {
    if (STOPWORDS.has(word)) return false;
    for (const term of terms) {
      if (word === term) return true;
      if (isNumeric(term) || isNumeric(word)) continue;
      if (term.length >= 3 && word.startsWith(term)) return true;
      if (sharedPrefix(word, term) >= 5) return true;
      if (term.length >= 4 && word.length >= 4 && trigramSimilarity(word, term) >= 0.5) return true;
    }
    return word.length >= 3 && conceptsOfWord(word).some((match) => concepts.has(match.concept));
  };
  return (raw) => {
    const word = foldText(raw);
    let verdict = cache.get(word);
    if (verdict === undefined) cache.set(word, verdict = decide(word));
    return verdict;
  };
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const SNIPPET_WORDS = 24;
const snippetEmbedder = new HashedEmbedder();

/**
 * A snippet for a hit that FTS did not find: the sentence of the text (or the title, which the vector also saw) with
 * the most words that answer the query (ties: the one the hashed embedder finds closest, then the earliest), cut to
 * about 24 words around its first match, HTML-escaped, with those words in <mark>.
 */
export function vectorSnippet(content: string, title: string, query: string): string {
  const isMatch = queryWordMatcher(query);
  const sentences = content.split(/(?<=[.!?;])\s+|\n+/).map((s) => s.trim()).filter(Boolean).slice(0, 500);
  if (title.trim()) sentences.push(title.trim());
  if (sentences.length === 0) return '';
  const queryVector = snippetEmbedder.embedText(query);
  let best = { at: 0, marks: -1, similarity: -1 };
  sentences.forEach((sentence, at) => {
    const marks = (sentence.match(/[\p{L}\p{N}]+/gu) ?? []).filter(isMatch).length;
    if (marks < best.marks) return;
    const similarity = dot(queryVector, snippetEmbedder.embedText(sentence));
    if (marks > best.marks || similarity > best.similarity) best = { at, marks, similarity };
  });
  const tokens = sentences[best.at]!.match(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu) ?? [];
  const wordPositions = tokens.flatMap((token, i) => (/^[\p{L}\p{N}]/u.test(token) ? [i] : []));
  const firstMark = wordPositions.findIndex((i) => isMatch(tokens[i]!));
  const startWord = Math.max(0, Math.min(firstMark - Math.floor(SNIPPET_WORDS / 3), wordPositions.length - SNIPPET_WORDS));
  const endWord = Math.min(wordPositions.length, startWord + SNIPPET_WORDS);
  const from = startWord === 0 ? 0 : wordPositions[startWord]!;
  const to = endWord >= wordPositions.length ? tokens.length : wordPositions[endWord]!;
  let html = tokens.slice(from, to).map((token) => (
    /^[\p{L}\p{N}]/u.test(token) && isMatch(token) ? `<mark>${escapeHtml(token)}</mark>` : escapeHtml(token)
  )).join('').trim();
  if (from > 0 || best.at > 0) html = `…${html}`;
  if (to < tokens.length || best.at < sentences.length - 1) html = `${html}…`;
  return html;
}
