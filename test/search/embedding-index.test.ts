import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyPrincipal } from '../../server/auth/api-keys.ts';
import { nowIso, openDatabase } from '../../server/db/database.ts';
import type { SqliteSql } from '../../server/db/sqlite-sql.ts';
import { reindexDocument } from '../../server/documents/document-rows.ts';
import {
  documentsToEmbed,
  EmbeddingIndex,
  embeddingIndexFor,
  indexDocument,
  removeStale,
  syncEmbeddings,
  useEmbeddingIndex,
} from '../../server/search/embedding-index.ts';
import { dot, l2Normalize, type Embedder } from '../../server/search/embedders/embedder.ts';
import { HashedEmbedder } from '../../server/search/embedders/hashed-embedder.ts';
import { createInt8DotKernel } from '../../server/search/embedders/int8-dot.ts';
import { hybridSearch } from '../../server/search/hybrid-search.ts';
import { vectorSnippet } from '../../server/search/snippets.ts';
import { VectorCache } from '../../server/search/vector-cache.ts';

let dir = '';
let db: SqliteSql;
let spaceId = '';

async function addDocument(
  title: string,
  content: string,
  options: { space?: string; searchable?: boolean } = {},
): Promise<string> {
  const id = randomUUID();
  const now = nowIso();
  db.raw
    .prepare(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes, sha256,
    content, created_at, updated_at) VALUES (?, ?, 'completed', ?, 'x.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?, ?)`,
    )
    .run(id, options.space ?? spaceId, title, randomUUID(), content, now, now);
  if (options.searchable !== false) await reindexDocument(db, id);
  return id;
}

const admin: ApiKeyPrincipal = { id: 'k', name: 'admin', role: 'editor', scopes: new Set(), spaces: null };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'embedding-index-'));
  db = await openDatabase(join(dir, 'archive.sqlite'));
  spaceId = (db.raw.prepare('SELECT id FROM spaces WHERE is_default = 1').get() as { id: string }).id;
});
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('indexing', () => {
  it('stores a vector with its model, skips unchanged text, re-embeds changed text', async () => {
    const embedder = new HashedEmbedder();
    const id = await addDocument('Electricity bill', 'Consumption 312 kWh');
    expect(await indexDocument(db, embedder, id)).toBe('indexed');
    expect(await indexDocument(db, embedder, id)).toBe('unchanged');
    db.raw.prepare('UPDATE documents SET title = ? WHERE id = ?').run('Gas bill', id);
    expect(await indexDocument(db, embedder, id)).toBe('indexed');
    expect(await indexDocument(db, embedder, randomUUID())).toBe('missing');
    const row = db.raw.prepare('SELECT model, dims, vector FROM document_embeddings WHERE document_id = ?').get(id) as {
      model: string;
      dims: number;
      vector: Uint8Array;
    };
    expect(row.model).toBe(embedder.id);
    const stored = new Float32Array(row.vector.slice().buffer);
    const expected = embedder.embedFields([
      { text: 'Gas bill', weight: 2 },
      { text: 'Consumption 312 kWh', weight: 1 },
    ]);
    expect(dot(stored, expected)).toBeCloseTo(1, 5);
  });

  it('embeds only the first 2,000 words of long content', async () => {
    const embedder = new HashedEmbedder();
    const filler = Array.from({ length: 2000 }, (_, i) => `word${i % 50}`).join(' ');
    const a = await addDocument('Long', `${filler} zebrafant`);
    const b = await addDocument('Long', `${filler} quokka`);
    await indexDocument(db, embedder, a);
    await indexDocument(db, embedder, b);
    const hashes = db.raw
      .prepare('SELECT source_hash FROM document_embeddings WHERE document_id IN (?, ?)')
      .all(a, b) as Array<{ source_hash: string }>;
    expect(new Set(hashes.map((h) => h.source_hash)).size).toBe(1);
  });

  it('a new model id drops the old vectors and sync re-embeds every searchable document', async () => {
    const old = new HashedEmbedder();
    await addDocument('Not yet processed', 'no full-text row', { searchable: false });
    await syncEmbeddings(db, old);
    expect(await documentsToEmbed(db, old)).toEqual([]);
    const searchable = (db.raw.prepare('SELECT count(*) AS n FROM documents_fts').get() as { n: number }).n;
    expect((db.raw.prepare('SELECT count(*) AS n FROM document_embeddings').get() as { n: number }).n).toBe(searchable);

    const next = new HashedEmbedder(256);
    expect((await documentsToEmbed(db, next)).map((row) => row.id)).toHaveLength(searchable);
    const result = await syncEmbeddings(db, next, { batchSize: 2 });
    expect(result).toEqual({ removed: searchable, embedded: searchable });
    const models = db.raw.prepare('SELECT DISTINCT model, dims FROM document_embeddings').all();
    expect(models).toEqual([{ model: 'hashed-ngram-v1-256', dims: 256 }]);
    expect(await removeStale(db, next)).toBe(0);
    // Back to the default model for the tests below.
    await syncEmbeddings(db, old);
  });
});

describe('vector cache', () => {
  const random = (seed: number, dims: number): Float32Array => {
    let x = seed;
    return l2Normalize(
      Float32Array.from({ length: dims }, () => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x / 2 ** 30 - 1;
      }),
    );
  };

  it('int8 scores stay within 0.01 of float cosine; order, threshold, max and spaces hold', () => {
    const dims = 64;
    const cache = new VectorCache(dims, { capacity: 2 }); // grows
    const vectors = Array.from({ length: 300 }, (_, i) => random(i + 1, dims));
    vectors.forEach((vector, i) => cache.upsert(`d${i}`, i % 3 === 0 ? 'a' : 'b', vector));
    const query = random(999, dims);
    const hits = cache.search(query, null, -1, 300);
    expect(hits).toHaveLength(300);
    for (const hit of hits)
      expect(Math.abs(hit.similarity - dot(query, vectors[Number(hit.id.slice(1))]!))).toBeLessThan(0.01);
    expect(hits.map((h) => h.similarity)).toEqual([...hits.map((h) => h.similarity)].sort((a, b) => b - a));
    expect(cache.search(query, null, 0.1, 5)).toHaveLength(5);
    expect(cache.search(query, null, 0.1, 1000).every((h) => h.similarity >= 0.1)).toBe(true);
    expect(cache.search(query, new Set(['a']), -1, 1000).every((h) => Number(h.id.slice(1)) % 3 === 0)).toBe(true);
    expect(cache.search(query, new Set(), -1, 1000)).toEqual([]);
  });

  it('the WebAssembly SIMD kernel and the JavaScript fallback agree exactly', () => {
    const dims = 100; // not a multiple of 16: rows are padded
    const simd = createInt8DotKernel();
    expect(simd.simd).toBe(true);
    const a = new VectorCache(dims, { kernel: simd });
    const b = new VectorCache(dims, { kernel: createInt8DotKernel({ forceJs: true }) });
    for (let i = 0; i < 50; i++) {
      const vector = random(i + 7, dims);
      a.upsert(`d${i}`, 's', vector);
      b.upsert(`d${i}`, 's', vector);
    }
    const query = random(4242, dims);
    expect(a.search(query, null, -1, 50)).toEqual(b.search(query, null, -1, 50));
  });

  it('updates and removes in place', () => {
    const cache = new VectorCache(8);
    const x = l2Normalize(Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]));
    const y = l2Normalize(Float32Array.from([0, 1, 0, 0, 0, 0, 0, 0]));
    cache.upsert('one', 's', x);
    cache.upsert('two', 's', y);
    cache.upsert('three', 's', y);
    expect(cache.search(x, null, 0.5, 10).map((h) => h.id)).toEqual(['one']);
    cache.upsert('one', 's', y);
    expect(cache.search(x, null, 0.5, 10)).toEqual([]);
    cache.remove('two');
    expect(cache.size).toBe(2);
    expect(
      cache
        .search(y, null, 0.5, 10)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['one', 'three']);
  });

  it('follows indexDocument in this process and picks up vectors written by another connection', async () => {
    const index = embeddingIndexFor(db);
    const query = await index.embedQuery('Quokkagehege');
    expect(await index.nearest(query, null, 5)).toEqual([]);
    const id = await addDocument('Quokkagehege Rechnung', 'Futter');
    await index.index(id);
    expect((await index.nearest(query, null, 5))[0]?.id).toBe(id);

    const other = await openDatabase(join(dir, 'archive.sqlite'));
    try {
      const id2 = randomUUID();
      const now = nowIso();
      other.raw
        .prepare(
          `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes, sha256,
        created_at, updated_at) VALUES (?, ?, 'completed', 'Quokkagehege', 'y.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?)`,
        )
        .run(id2, spaceId, randomUUID(), now, now);
      await reindexDocument(other, id2);
      await indexDocument(other, index.embedder, id2);
    } finally {
      await other.close();
    }
    expect((await index.nearest(query, null, 5)).map((hit) => hit.id)).toHaveLength(2);
  });
});

describe('warming the cache', () => {
  it('loads every vector of the model in slices', async () => {
    const index = new EmbeddingIndex(db, new HashedEmbedder());
    await index.warm({ sliceSize: 2 });
    const stored = (
      db.raw.prepare('SELECT count(*) AS n FROM document_embeddings WHERE model = ?').get(index.embedder.id) as {
        n: number;
      }
    ).n;
    const query = await index.embedQuery('Quokkagehege');
    expect(await index.nearest(query, null, 1000, -1)).toHaveLength(stored);
  });
});

describe('hybrid search without a working embedder', () => {
  it('answers from BM25 alone and reports the error', async () => {
    const failing: Embedder = {
      id: 'broken',
      dimensions: 4,
      embed: () => Promise.reject(new Error('model server down')),
    };
    const previous = embeddingIndexFor(db);
    const errors: unknown[] = [];
    try {
      useEmbeddingIndex(new EmbeddingIndex(db, failing));
      const result = await hybridSearch(
        db,
        embeddingIndexFor(db),
        { query: 'Quokkagehege', limit: 10, principal: admin },
        { onEmbedderError: (error) => errors.push(error) },
      );
      expect(result.items.map((item) => item.document.title).sort()).toEqual(['Quokkagehege', 'Quokkagehege Rechnung']);
      expect(result.total).toBe(2);
      expect(String(errors[0])).toContain('model server down');
    } finally {
      useEmbeddingIndex(previous);
    }
  });
});

describe('vector snippets', () => {
  it('pick the best sentence, cut it around the match, escape it and mark close words', () => {
    const content =
      'Sehr geehrte Damen und Herren. Anbei erhalten Sie die Rechnung für <Mai> & Juni. Mit freundlichen Grüßen.';
    expect(vectorSnippet(content, 'Scan 1', 'Rechnumg')).toBe(
      '…Anbei erhalten Sie die <mark>Rechnung</mark> für &#60;Mai&#62; &#38; Juni.…',
    );
    const long = `${Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')} insurance ${Array.from({ length: 40 }, (_, i) => `v${i}`).join(' ')}`;
    const snippet = vectorSnippet(long, '', 'Versicherung');
    expect(snippet).toMatch(/^….*<mark>insurance<\/mark>.*…$/);
    expect(snippet.split(' ').length).toBeLessThanOrEqual(26);
    expect(vectorSnippet('', 'Car Insurance Policy', 'insurence')).toBe('Car <mark>Insurance</mark> Policy');
  });
});
