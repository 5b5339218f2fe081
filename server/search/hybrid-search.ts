import type { SearchHit } from '../../common/archive-types.ts';
import { spaceFilter } from '../auth/access.ts';
import type { ApiKeyPrincipal } from '../auth/api-keys.ts';
import { jsonArrayRows } from '../db/sql-dialect.ts';
import type { Sql } from '../db/sql.ts';
import { documentRowsByRowid, toDocument } from '../documents/document-rows.ts';
import type { EmbeddingIndex } from './embedding-index.ts';
import { fullTextIndexFor, type FullTextIndex, type FullTextPlan, type VisibleRows } from './full-text-index.ts';
import { queryWordMatcher } from './query-word-matcher.ts';
import { highlightFts, SNIPPET_FORMAT, vectorSnippet } from './snippets.ts';
import type { VectorHit } from './vector-cache.ts';

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
 * BM25 ranks at most this many full-text matches: all of them while a query has no more visible matches than this,
 * else the RANK_WINDOW most recent (highest rowid, i.e. latest uploaded), and `total` becomes an estimate.
 * Why: FTS5 computes bm25() for every row (its term positions and column sizes) before ORDER BY … LIMIT can pick
 * the best, so a word that most documents of a large archive contain would be scored in every one. Read newest
 * first, FTS5 stops after the window (bm25() still reads each term's document list once for its statistics).
 * Recency is the archive's natural order, and the semantic half still searches every document, so an older document
 * that fits the query well can come in through the vectors.
 */
export const RANK_WINDOW = 1000;

/**
 * A vector hit must also reach this share of the best hit's similarity. Without it, a query that matches one
 * document very well drags in the whole tail of documents that merely share a few n-grams with it.
 */
export const RELATIVE_SIMILARITY = 0.35;

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
  /** RANK_WINDOW unless given (tests use a small one). */
  rankWindow?: number;
}

export interface HybridSearchResult {
  items: SearchHit[];
  /** Full-text matches plus vector-only hits; an estimate when totalIsEstimate. */
  total: number;
  /** True when the query had more than RANK_WINDOW visible full-text matches, so they were not all counted. */
  totalIsEstimate: boolean;
}

/** Candidates are keyed by the documents rowid, which is also the full-text row's rowid. */
interface Candidate {
  rowid: number;
  lexicalRank?: number;
  semanticRank?: number;
  similarity?: number;
}

/** Who may see a row: the key's spaces (and space_id when given), never deleted documents; on search_visibility `v`. */
interface Access extends VisibleRows {
  spaces: ReadonlySet<string> | null;
}

function accessOf(principal: ApiKeyPrincipal, spaceId: string | undefined): Access {
  const spaces = spaceFilter(principal, 'v.space_id');
  const where = ['v.deleted = 0', spaces.sql];
  const args = [...spaces.params];
  if (spaceId) {
    where.push('v.space_id = ?');
    args.push(spaceId);
  }
  const spacesSeen = spaceId ? new Set([spaceId]) : principal.spaces;
  return { sql: where.join(' AND '), args, spaces: spacesSeen, everySpace: spacesSeen === null };
}

/**
 * BM25 (FTS5) and vector similarity fused by reciprocal rank. Both lists obey the same access rule:
 * only documents of spaces the key can read (and of space_id when given), never deleted ones.
 */
export async function hybridSearch(
  db: Sql,
  index: EmbeddingIndex | null,
  request: HybridSearchRequest,
  options: HybridSearchOptions = {},
): Promise<HybridSearchResult> {
  const { query, limit, spaceId, principal } = request;
  const access = accessOf(principal, spaceId);
  const fullText = fullTextIndexFor(db);
  const plan = await fullText.plan(db, query);
  const window = options.rankWindow ?? RANK_WINDOW;
  // The halves are independent: the database runs the full-text statement while this process scans the vectors.
  const [lexical, semantic] = await Promise.all([
    plan?.match ? lexicalSearch(db, fullText, plan, access, window) : null,
    index ? semanticHits(db, index, query, access, options) : [],
  ]);

  const candidates = new Map<number, Candidate>();
  lexical?.ranked.forEach((rowid, i) => candidates.set(rowid, { rowid, lexicalRank: i + 1 }));

  semantic.forEach((hit, i) => {
    const candidate = candidates.get(hit.rowid);
    if (candidate) Object.assign(candidate, { semanticRank: i + 1, similarity: hit.similarity });
    else candidates.set(hit.rowid, { rowid: hit.rowid, semanticRank: i + 1, similarity: hit.similarity });
  });

  const ranked = [...candidates.values()]
    .map((candidate) => ({ candidate, score: fusedScore(candidate) }))
    .filter((entry) => entry.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.candidate.lexicalRank ?? Infinity) - (b.candidate.lexicalRank ?? Infinity) ||
        (b.candidate.similarity ?? 0) - (a.candidate.similarity ?? 0) ||
        b.candidate.rowid - a.candidate.rowid,
    )
    .slice(0, limit);

  // Snippets only for the page. FTS5 cuts them for its full-text hits: those of the window, and, when the window did
  // not hold every match, any hit from below it (which may or may not match: FTS5 says).
  const [snippets, rows] = await Promise.all([
    plan?.match && lexical
      ? fullText.snippets(
          db,
          plan.match,
          ranked
            .map((entry) => entry.candidate.rowid)
            .filter((rowid) => lexical.matched.has(rowid) || (lexical.totalIsEstimate && rowid < lexical.oldest)),
          SNIPPET_FORMAT,
        )
      : new Map<number, string>(),
    documentRowsByRowid(
      db,
      ranked.map(({ candidate }) => candidate.rowid),
    ),
  ]);
  // One matcher for the page: its verdicts per word carry over from one document to the next.
  let matcher: ((word: string) => boolean) | undefined;
  const items: SearchHit[] = ranked.map(({ candidate, score }) => {
    const row = rows.get(candidate.rowid)!;
    const fts = snippets.get(candidate.rowid);
    return {
      document: toDocument(row),
      score: Math.round(score * 10_000) / 10_000,
      // Vector-only hits have no full-text match to cut a snippet around.
      snippet:
        fts !== undefined
          ? highlightFts(fts)
          : vectorSnippet(row.content, row.title, query, (matcher ??= queryWordMatcher(query))),
    };
  });
  if (!lexical?.totalIsEstimate) {
    // Every full-text match is known: a vector hit among them is counted once.
    const semanticOnly = semantic.filter((hit) => !lexical?.matched.has(hit.rowid)).length;
    return { items, total: (lexical?.total ?? 0) + semanticOnly, totalIsEstimate: false };
  }
  // From the window's oldest rowid up every match is known, so the vector hits there show what share of vector hits
  // are no full-text match; the hits further down are assumed to be like them.
  let inWindow = 0,
    outsideText = 0,
    below = 0;
  for (const hit of semantic) {
    if (hit.rowid < lexical.oldest) below++;
    else {
      inWindow++;
      if (!lexical.matched.has(hit.rowid)) outsideText++;
    }
  }
  const semanticOnly = outsideText + (inWindow > 0 ? below * (outsideText / inWindow) : below);
  return { items, total: roughly(lexical.total + semanticOnly, window + 1), totalIsEstimate: true };
}

/** An estimate rounded to two significant digits (it is no more precise than that), at least `floor`. */
function roughly(estimate: number, floor: number): number {
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, estimate))) - 1);
  return Math.max(floor, Math.round(estimate / magnitude) * magnitude);
}

interface LexicalResult {
  /** Rowids, best BM25 first, at most CANDIDATES. */
  ranked: number[];
  /** Every visible match read: all of them unless totalIsEstimate, else all from `oldest` up. */
  matched: Set<number>;
  /** The lowest rowid read. */
  oldest: number;
  total: number;
  totalIsEstimate: boolean;
}

/**
 * One pass over the full-text index, newest first, only visible rows counted and ranked; it stops after
 * RANK_WINDOW + 1 rows (the one more says whether there are more).
 */
async function lexicalSearch(
  db: Sql,
  fullText: FullTextIndex,
  plan: FullTextPlan,
  access: Access,
  window: number,
): Promise<LexicalResult> {
  const rows = await fullText.matches(db, plan.match!, access, window + 1);
  const complete = rows.length <= window;
  if (!complete) rows.pop();
  const oldest = rows.at(-1)?.rowid ?? 0;
  const matched = new Set(rows.map((row) => row.rowid));
  // bm25() is lower for better matches; among equals the newer document first.
  const ranked = rows
    .sort((a, b) => a.rank - b.rank || b.rowid - a.rowid)
    .slice(0, CANDIDATES)
    .map((row) => row.rowid);
  if (complete) return { ranked, matched, oldest, total: rows.length, totalIsEstimate: false };
  return {
    ranked,
    matched,
    oldest,
    total: await estimateMatches(db, access, window, oldest, plan.maxMatches),
    totalIsEstimate: true,
  };
}

/**
 * How many visible documents match, from the window: `seen` matches among the visible documents with a rowid from
 * `oldest` up, scaled to all rowids the key can see (as if matches were spread evenly over time), and never above
 * the index's own bound (which catches a word that only recent documents have). Always more than the window, which
 * is known to be exceeded.
 */
async function estimateMatches(
  db: Sql,
  access: Access,
  seen: number,
  oldest: number,
  maxMatches: number | null,
): Promise<number> {
  // One statement for every space: each space's first and last visible rowid is an index seek.
  const source = access.spaces === null ? '(SELECT id AS value FROM spaces) AS ids' : jsonArrayRows(db.dialect, 'text');
  const bounds = await db.get<{ low: number | null; high: number | null }>(
    `SELECT min(b.low) AS low, max(b.high) AS high FROM (SELECT
        (SELECT min(v.doc_rowid) FROM search_visibility v WHERE v.space_id = ids.value AND v.deleted = 0) AS low,
        (SELECT max(v.doc_rowid) FROM search_visibility v WHERE v.space_id = ids.value AND v.deleted = 0) AS high
      FROM ${source}) b`,
    ...(access.spaces === null ? [] : [JSON.stringify([...access.spaces])]),
  );
  const low = bounds?.low === null || bounds?.low === undefined ? Infinity : Number(bounds.low);
  const high = bounds?.high === null || bounds?.high === undefined ? -Infinity : Number(bounds.high);
  let estimate = high >= oldest && low <= oldest ? (seen * (high - low + 1)) / (high - oldest + 1) : seen + 1;
  if (maxMatches !== null) estimate = Math.min(estimate, maxMatches);
  return Math.max(seen + 1, estimate);
}

function fusedScore(candidate: Candidate): number {
  let score = 0;
  if (candidate.lexicalRank !== undefined) score += (LEXICAL_WEIGHT * (RRF_K + 1)) / (RRF_K + candidate.lexicalRank);
  if (candidate.semanticRank !== undefined) score += (SEMANTIC_WEIGHT * (RRF_K + 1)) / (RRF_K + candidate.semanticRank);
  return score;
}

/** The nearest documents the principal may see, verified against the database (deleted, space) in rank order. */
async function semanticHits(
  db: Sql,
  index: EmbeddingIndex,
  query: string,
  access: Access,
  options: HybridSearchOptions,
): Promise<Array<VectorHit & { rowid: number }>> {
  let vector: Float32Array;
  try {
    vector = await index.embedQuery(query);
  } catch (error) {
    options.onEmbedderError?.(error);
    return [];
  }
  // Over-fetch: some of the nearest may be deleted, and those are only known to the database.
  const nearest = await index.nearest(vector, access.spaces, CANDIDATES * 2);
  if (nearest.length === 0) return [];
  const floor = nearest[0]!.similarity * RELATIVE_SIMILARITY;
  const close = nearest.filter((hit) => hit.similarity >= floor);
  // Checked in rank order, a little more than needed at a time: nearly all of them are visible, so one round
  // usually does. The cache knows each vector's rowid, so search_visibility answers alone; hits without one (a
  // cache filled by other code) go through the id index of documents.
  // CROSS JOIN keeps SQLite's join order (the ids first); PostgreSQL takes no ON with it, hence the WHERE.
  const byRowid = `SELECT v.doc_rowid AS rowid FROM ${jsonArrayRows(db.dialect, 'integer')}
    CROSS JOIN search_visibility v WHERE v.doc_rowid = ids.value AND ${access.sql}`;
  const byId = `SELECT d.id AS id, d.rowid AS rowid FROM ${jsonArrayRows(db.dialect, 'text')}
    CROSS JOIN documents d CROSS JOIN search_visibility v
    WHERE d.id = ids.value AND v.doc_rowid = d.rowid AND ${access.sql}`;
  const hits: Array<VectorHit & { rowid: number }> = [];
  for (let from = 0; from < close.length && hits.length < CANDIDATES;) {
    const batch = close.slice(from, (from += Math.ceil((CANDIDATES - hits.length) * 1.1) + 10));
    const known = batch.filter((hit) => hit.rowid !== undefined);
    const visible = new Set(
      (await db.all<{ rowid: number }>(byRowid, JSON.stringify(known.map((hit) => hit.rowid)), ...access.args)).map(
        (row) => row.rowid,
      ),
    );
    const unknown = batch.filter((hit) => hit.rowid === undefined);
    const found = new Map(
      unknown.length === 0
        ? []
        : (
            await db.all<{ id: string; rowid: number }>(
              byId,
              JSON.stringify(unknown.map((hit) => hit.id)),
              ...access.args,
            )
          ).map((row) => [row.id, row.rowid]),
    );
    for (const hit of batch) {
      const rowid = hit.rowid ?? found.get(hit.id);
      if (rowid !== undefined && (hit.rowid === undefined || visible.has(rowid))) hits.push({ ...hit, rowid });
    }
  }
  return hits.slice(0, CANDIDATES);
}
