import { createHash } from 'node:crypto';
import { joinedText } from '../db/sql-dialect.ts';
import { nowIso, type Sql } from '../db/sql.ts';
import { createEmbedder, type DocumentField, type Embedder, type EmbedderConfig } from './embedders/embedder.ts';
import { HashedEmbedder } from './embedders/hashed-embedder.ts';
import { fullTextIndexFor } from './full-text-index.ts';
import { VectorCache, type VectorHit } from './vector-cache.ts';

/** How much of a document is embedded: enough to say what it is about, bounded so one embedding stays cheap. */
export const MAX_EMBEDDED_WORDS = 2000;

/** The text a document is embedded from, as weighted fields (title first: it says most about the document). */
export interface EmbeddingSource {
  fields: DocumentField[];
  text: string;
  hash: string;
}

export async function embeddingSource(db: Sql, documentId: string): Promise<EmbeddingSource | null> {
  const row = await db.get<{ title: string; content: string; sender: string | null; tags: string | null }>(
    `SELECT d.title, d.content, s.name AS sender,
      (SELECT ${joinedText(db.dialect, 't.name', "' '")} FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
        WHERE dt.document_id = d.id) AS tags
    FROM documents d LEFT JOIN senders s ON s.id = d.sender_id WHERE d.id = ?`,
    documentId,
  );
  return row ? embeddingSourceOf(row) : null;
}

/** What of a document its embedding sees (title, sender and tags weighted above the text), and its hash. */
export function embeddingSourceOf(row: {
  title: string;
  content: string;
  sender: string | null;
  tags: string | null;
}): EmbeddingSource {
  const fields: DocumentField[] = [
    { text: row.title, weight: 2 },
    { text: row.sender ?? '', weight: 1.5 },
    { text: row.tags ?? '', weight: 1.5 },
    { text: firstWords(row.content, MAX_EMBEDDED_WORDS), weight: 1 },
  ].filter((field) => field.text.trim() !== '');
  const text = fields.map((field) => field.text).join('\n');
  return { fields, text, hash: createHash('sha256').update(text).digest('hex') };
}

/** The first `count` words of a text, its spacing kept. */
function firstWords(text: string, count: number): string {
  const pattern = /\S+/g;
  let end = 0;
  for (let n = 0; n < count; n++) {
    const match = pattern.exec(text);
    if (!match) return text;
    end = match.index + match[0].length;
  }
  return text.slice(0, end);
}

async function embedSources(embedder: Embedder, sources: readonly EmbeddingSource[]): Promise<Float32Array[]> {
  const vectors = embedder.embedDocuments
    ? await embedder.embedDocuments(sources.map((source) => source.fields))
    : await embedder.embed(sources.map((source) => source.text));
  if (vectors.length !== sources.length)
    throw new Error(`Embedder ${embedder.id} returned ${vectors.length} vectors for ${sources.length} texts`);
  for (const vector of vectors) {
    if (vector.length !== embedder.dimensions) {
      throw new Error(
        `Embedder ${embedder.id} returned a vector of ${vector.length} dimensions, expected ${embedder.dimensions}`,
      );
    }
  }
  return vectors;
}

async function storeVector(
  db: Sql,
  documentId: string,
  embedder: Embedder,
  vector: Float32Array,
  sourceHash: string,
): Promise<void> {
  await db.run(
    `INSERT INTO document_embeddings (document_id, model, dims, vector, source_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (document_id) DO UPDATE SET model = excluded.model, dims = excluded.dims, vector = excluded.vector,
      source_hash = excluded.source_hash, updated_at = excluded.updated_at`,
    documentId,
    embedder.id,
    embedder.dimensions,
    new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength),
    sourceHash,
    nowIso(),
  );
}

const toVector = (blob: Uint8Array): Float32Array => new Float32Array(blob.slice().buffer);

export type IndexOutcome = 'indexed' | 'unchanged' | 'missing';

/**
 * Embeds one document (title, sender, tags and the first MAX_EMBEDDED_WORDS words of its text) and stores the vector
 * with the embedder's model id. Skips the embedder when the stored vector is of the same model and text.
 * Call it wherever the full-text index is refreshed (after processing, after a hand edit).
 */
export async function indexDocument(db: Sql, embedder: Embedder, documentId: string): Promise<IndexOutcome> {
  const [outcome] = await indexDocuments(db, embedder, [documentId]);
  return outcome!;
}

/** indexDocument for many documents, embedded in one call to the embedder. */
export async function indexDocuments(
  db: Sql,
  embedder: Embedder,
  documentIds: readonly string[],
): Promise<IndexOutcome[]> {
  const outcomes: IndexOutcome[] = [];
  const todo: Array<{ at: number; id: string; source: EmbeddingSource }> = [];
  for (const [at, id] of documentIds.entries()) {
    const source = await embeddingSource(db, id);
    if (!source) {
      outcomes[at] = 'missing';
      continue;
    }
    const stored = await db.get<{ model: string; source_hash: string }>(
      'SELECT model, source_hash FROM document_embeddings WHERE document_id = ?',
      id,
    );
    if (stored?.model === embedder.id && stored.source_hash === source.hash) outcomes[at] = 'unchanged';
    else todo.push({ at, id, source });
  }
  if (todo.length === 0) return outcomes;
  const vectors = await embedSources(
    embedder,
    todo.map((item) => item.source),
  );
  const index = registry.get(db);
  // One commit per batch, not per vector, with deferred durability: vectors are derived data, and a missing one is
  // made again by the start-up sync. Called inside a transaction (db a transaction's handle), it joins that one.
  await db.transaction(async (tx) => {
    for (const [i, item] of todo.entries()) {
      // The document may have gone while the embedder worked (a remote embedder can take seconds).
      if (!(await tx.get('SELECT 1 FROM documents WHERE id = ?', item.id))) {
        outcomes[item.at] = 'missing';
        continue;
      }
      await storeVector(tx, item.id, embedder, vectors[i]!, item.source.hash);
      await index?.noteStored(tx, item.id, embedder.id, vectors[i]!);
      outcomes[item.at] = 'indexed';
    }
  }, 'deferred');
  return outcomes;
}

/** Deletes vectors made by another model than the embedder's; returns how many. */
export async function removeStale(db: Sql, embedder: Embedder): Promise<number> {
  const removed = (await db.run('DELETE FROM document_embeddings WHERE model <> ?', embedder.id)).changes;
  if (removed > 0) registry.get(db)?.invalidate();
  return removed;
}

/**
 * Searchable documents (those with a full-text row) without a vector of the embedder's model, in rowid order after
 * `afterRowid` (so a sync walks the table once instead of rescanning it for every batch).
 */
export function documentsToEmbed(
  db: Sql,
  embedder: Embedder,
  limit = 1000,
  afterRowid = 0,
): Promise<Array<{ id: string; rowid: number }>> {
  return db.all<{ id: string; rowid: number }>(
    `SELECT d.rowid AS rowid, d.id FROM documents d
    WHERE d.rowid > ? AND ${fullTextIndexFor(db).hasEntry('d.rowid')}
      AND NOT EXISTS (SELECT 1 FROM document_embeddings e WHERE e.document_id = d.id AND e.model = ?)
    ORDER BY d.rowid LIMIT ?`,
    afterRowid,
    embedder.id,
    limit,
  );
}

/**
 * Brings the stored vectors in line with the embedder: drops other models' vectors, then embeds every searchable
 * document without one, in batches. Run it at start-up (after a model change it re-embeds the archive).
 */
export async function syncEmbeddings(
  db: Sql,
  embedder: Embedder,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<{ removed: number; embedded: number }> {
  const removed = await removeStale(db, embedder);
  let embedded = 0;
  let after = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const batch = await documentsToEmbed(db, embedder, options.batchSize ?? 32, after);
    if (batch.length === 0) return { removed, embedded };
    after = batch.at(-1)!.rowid;
    const outcomes = await indexDocuments(
      db,
      embedder,
      batch.map((row) => row.id),
    );
    embedded += outcomes.filter((outcome) => outcome === 'indexed').length;
    // The built-in embedder computes synchronously: let requests through between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface EmbeddingIndexOptions {
  /**
   * Vector-only hits below this cosine are dropped. Each model has its own scale (for the hashed embedder unrelated
   * texts score about 0 ± 0.05 and a one-word match in a long document about 0.15), so it is set per embedder.
   */
  minSimilarity?: number;
}

/** The embedder of an archive plus the vector cache that search scans. One per database (see embeddingIndexFor). */
export class EmbeddingIndex {
  readonly db: Sql;
  readonly embedder: Embedder;
  readonly minSimilarity: number;
  private cache: VectorCache | null = null;
  private watermark = '';
  private dataVersion: number | null = -1;

  constructor(db: Sql, embedder: Embedder, options: EmbeddingIndexOptions = {}) {
    this.db = db;
    this.embedder = embedder;
    this.minSimilarity = options.minSimilarity ?? defaultMinSimilarity(embedder);
  }

  /** See indexDocument; the cache follows. */
  index(documentId: string): Promise<IndexOutcome> {
    return indexDocument(this.db, this.embedder, documentId);
  }

  sync(options: { batchSize?: number; signal?: AbortSignal } = {}): Promise<{ removed: number; embedded: number }> {
    return syncEmbeddings(this.db, this.embedder, options);
  }

  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await this.embedder.embed([query]);
    if (!vector || vector.length !== this.embedder.dimensions)
      throw new Error(`Embedder ${this.embedder.id} returned no usable query vector`);
    return vector;
  }

  /** The nearest documents of the given spaces (null = every space). Deleted documents are not filtered here. */
  async nearest(
    query: Float32Array,
    spaces: ReadonlySet<string> | null,
    max: number,
    minSimilarity = this.minSimilarity,
  ): Promise<VectorHit[]> {
    return (await this.vectors()).search(query, spaces, minSimilarity, max);
  }

  /** Called by indexDocuments after storing a vector (db: the handle it stored through). */
  async noteStored(db: Sql, documentId: string, model: string, vector: Float32Array): Promise<void> {
    if (!this.cache || model !== this.embedder.id) return;
    const cache = this.cache;
    const row = await db.get<{ rowid: number; space_id: string }>(
      'SELECT rowid, space_id FROM documents WHERE id = ?',
      documentId,
    );
    if (row) cache.upsert(documentId, row.space_id, vector, row.rowid);
  }

  /** Drops the cache; the next search reloads it from the database. */
  invalidate(): void {
    this.cache = null;
  }

  /**
   * The cache, loaded on first use. Vectors written by another process (another connection: the data version
   * moves) are picked up by their updated_at; vectors this process writes arrive through noteStored.
   */
  private async vectors(): Promise<VectorCache> {
    const version = await dataVersionOf(this.db);
    if (!this.cache) {
      const cache = (this.cache = new VectorCache(this.embedder.dimensions));
      this.watermark = '';
      await this.load(cache, '');
    } else if (version === null || version !== this.dataVersion) {
      await this.load(this.cache, this.watermark);
    }
    this.dataVersion = version;
    return this.cache;
  }

  /**
   * Loads the cache in slices, yielding to the event loop between them (100k vectors take seconds to read and
   * quantise). Call it once at start-up; a search that comes earlier sees the vectors loaded so far.
   */
  async warm(options: { sliceSize?: number } = {}): Promise<void> {
    if (this.cache) return;
    const cache = new VectorCache(this.embedder.dimensions);
    this.cache = cache;
    // Anything written from here on is caught by the incremental load that the forced data_version check runs.
    this.watermark =
      (await this.db.get<{ at: string | null }>('SELECT max(updated_at) AS at FROM document_embeddings'))?.at ?? '';
    this.dataVersion = -1;
    for (let after = 0; ;) {
      const rows = await this.db.all<{
        id: string;
        doc_rowid: number;
        space_id: string;
        vector: Uint8Array;
      }>(
        // Paged by documents.rowid: document_embeddings has no rowid on PostgreSQL.
        `SELECT e.document_id AS id, d.rowid AS doc_rowid, d.space_id, e.vector
        FROM documents d JOIN document_embeddings e ON e.document_id = d.id
        WHERE d.rowid > ? AND e.model = ? AND e.dims = ? ORDER BY d.rowid LIMIT ?`,
        after,
        this.embedder.id,
        this.embedder.dimensions,
        options.sliceSize ?? 2000,
      );
      if (rows.length === 0 || this.cache !== cache) return;
      for (const row of rows) cache.upsert(row.id, row.space_id, toVector(row.vector), row.doc_rowid);
      after = rows.at(-1)!.doc_rowid;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async load(cache: VectorCache, since: string): Promise<void> {
    const rows = await this.db.all<{
      id: string;
      doc_rowid: number;
      space_id: string;
      vector: Uint8Array;
      updated_at: string;
    }>(
      `SELECT e.document_id AS id, d.rowid AS doc_rowid, d.space_id, e.vector, e.updated_at
      FROM document_embeddings e JOIN documents d ON d.id = e.document_id WHERE e.model = ? AND e.dims = ? AND e.updated_at >= ?`,
      this.embedder.id,
      this.embedder.dimensions,
      since,
    );
    for (const row of rows) {
      cache.upsert(row.id, row.space_id, toVector(row.vector), row.doc_rowid);
      if (row.updated_at > this.watermark) this.watermark = row.updated_at;
    }
  }
}

/**
 * SQLite's PRAGMA data_version: it moves when another connection commits. Null where the back end has no such number;
 * then each search loads what changed since the watermark.
 */
async function dataVersionOf(db: Sql): Promise<number | null> {
  if (db.dialect !== 'sqlite') return null;
  return (await db.get<{ data_version: number }>('PRAGMA data_version'))!.data_version;
}

export function defaultMinSimilarity(embedder: Embedder): number {
  return embedder.id.startsWith('hashed-') ? 0.12 : 0.3;
}

const registry = new WeakMap<Sql, EmbeddingIndex>();

/** The embedding index of a database: the one installed with useEmbeddingIndex, else one with the built-in embedder. */
export function embeddingIndexFor(db: Sql): EmbeddingIndex {
  let index = registry.get(db);
  if (!index) {
    index = new EmbeddingIndex(db, new HashedEmbedder());
    registry.set(db, index);
  }
  return index;
}

/** Installs a configured index (another embedder or threshold) for a database; search and indexing use it from then on. */
export function useEmbeddingIndex(index: EmbeddingIndex): EmbeddingIndex {
  registry.set(index.db, index);
  return index;
}

/** createEmbedder + useEmbeddingIndex in one step (for start-up code). */
export async function configureEmbeddings(
  db: Sql,
  config: EmbedderConfig = { kind: 'hashed' },
  options: EmbeddingIndexOptions = {},
): Promise<EmbeddingIndex> {
  return useEmbeddingIndex(new EmbeddingIndex(db, await createEmbedder(config), options));
}
