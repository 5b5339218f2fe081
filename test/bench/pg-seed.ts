/**
 * Seeds a PostgreSQL archive with `count` documents for the server bench's PostgreSQL rows: the data set of the SQLite
 * rows (server.bench.ts seedArchive: three spaces, 300 senders and 20 tags per space, 8 categories, titles of type,
 * sender and month, 95% completed, 1% soft-deleted, content of 150-449 words of the same Zipf-distributed vocabulary)
 * generated inside PostgreSQL with INSERT … SELECT over generate_series, so a million documents take minutes, not
 * hours. Content is built from 65,536 phrases of 8 words each drawn from the Zipf vocabulary in this process; a document
 * strings 19-56 random phrases together. Every word still appears with its Zipf frequency; words co-occur in phrases
 * more often than in real text (a rare word comes with its phrase's seven neighbours).
 * Then the full-text rows (as the service's reindex writes them) and the embeddings of the built-in embedder (as the
 * service's own syncEmbeddings writes them, so no instance has any left to compute when the bench starts).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openPostgres } from '../../server/db/postgres/pg-schema.ts';
import { configureEmbeddings, embeddingSourceOf } from '../../server/search/embedding-index.ts';
import type { Embedder } from '../../server/search/embedders/embedder.ts';
import { registerFullTextIndex } from '../../server/search/full-text-index.ts';
import { pgFullTextIndex } from '../../server/search/pg-full-text-index.ts';
import {
  CATEGORY_NAMES,
  DOC_TYPES,
  prng,
  SEED,
  SENDER_FORMS,
  TAG_NAMES,
  vocabulary,
  zipfSampler,
} from './server.bench.ts';

const PHRASES = 65_536;
const PHRASE_WORDS = 8;
const SENDERS = 300;
/** Documents per INSERT … SELECT: one transaction each, so progress shows and no statement runs for minutes. */
const BATCH = 50_000;
const EMBED_BATCH = 2000;
/** The table that says the archive was seeded whole, and with how many documents. */
const SEED_MARK = 'bench_seeded';

export interface PgSeedResult {
  words: string[];
  seconds: { documents: number; fullText: number; indexes: number; embeddings: number; total: number };
  databaseBytes: number;
  embedded: number;
}

export async function seedPostgresArchive(
  url: string,
  count: number,
  log: (line: string) => void,
): Promise<PgSeedResult> {
  const started = performance.now();
  // The service's schema, by its own migrations.
  await (await openPostgres(url)).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const random = prng(SEED);
    const words = vocabulary(random);
    const nextWord = zipfSampler(words.length, random);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const q = (text: string, values: unknown[] = []) => client.query(text, values);

    await q('SET synchronous_commit = off'); // seeding only: a crash means seeding again
    const spaces = [
      (await q('SELECT id FROM spaces WHERE is_default = 1')).rows[0].id as string,
      randomUUID(),
      randomUUID(),
    ];
    const now = new Date().toISOString();
    await q(`INSERT INTO spaces (id, name, created_at) VALUES ($1, 'Privat', $3), ($2, 'Firma', $3)`, [
      spaces[1],
      spaces[2],
      now,
    ]);
    const senderNames = Array.from(
      { length: SENDERS },
      (_, i) => `${words[200 + i * 7]!.replace(/^./, (c) => c.toUpperCase())} ${pick(SENDER_FORMS)}`,
    );
    // Lookup tables of the generator (unlogged, dropped at the end): position → row, per space.
    await q(`CREATE UNLOGGED TABLE bench_spaces (idx int PRIMARY KEY, id text NOT NULL)`);
    await q(`INSERT INTO bench_spaces SELECT i - 1, id FROM unnest($1::text[]) WITH ORDINALITY AS s(id, i)`, [spaces]);
    await q(`CREATE UNLOGGED TABLE bench_categories (space_idx int, idx int, id text, PRIMARY KEY (space_idx, idx))`);
    await q(
      `CREATE UNLOGGED TABLE bench_senders (space_idx int, idx int, id text, label text, PRIMARY KEY (space_idx, idx))`,
    );
    await q(`CREATE UNLOGGED TABLE bench_tags (space_idx int, idx int, id bigint, PRIMARY KEY (space_idx, idx))`);
    for (const [spaceIdx, space] of spaces.entries()) {
      const categoryIds = CATEGORY_NAMES.map(() => randomUUID());
      await q(
        `INSERT INTO categories (id, space_id, name, created_at) SELECT id, $2, name, $3 FROM unnest($1::text[], $4::text[]) AS c(id, name)`,
        [categoryIds, space, now, CATEGORY_NAMES],
      );
      await q(`INSERT INTO bench_categories SELECT $2, i - 1, id FROM unnest($1::text[]) WITH ORDINALITY AS c(id, i)`, [
        categoryIds,
        spaceIdx,
      ]);
      const senderIds = senderNames.map(() => randomUUID());
      await q(
        `INSERT INTO senders (id, space_id, name, created_at)
        SELECT id, $2, name || ' ' || left(id, 4), $3 FROM unnest($1::text[], $4::text[]) AS s(id, name)`,
        [senderIds, space, now, senderNames],
      );
      await q(
        `INSERT INTO bench_senders SELECT $2, i - 1, id, name FROM unnest($1::text[], $3::text[]) WITH ORDINALITY AS s(id, name, i)`,
        [senderIds, spaceIdx, senderNames],
      );
      await q(
        `WITH t AS (INSERT INTO tags (space_id, name) SELECT $2, name FROM unnest($1::text[]) AS t(name) RETURNING id, name)
        INSERT INTO bench_tags SELECT $3, n.i - 1, t.id FROM t JOIN unnest($1::text[]) WITH ORDINALITY AS n(name, i) ON n.name = t.name`,
        [TAG_NAMES, space, spaceIdx],
      );
    }
    await q(`CREATE UNLOGGED TABLE bench_phrases (i int PRIMARY KEY, phrase text NOT NULL)`);
    const phrases = Array.from({ length: PHRASES }, () =>
      Array.from({ length: PHRASE_WORDS }, () => words[nextWord()]!).join(' '),
    );
    await q(`INSERT INTO bench_phrases SELECT i - 1, p FROM unnest($1::text[]) WITH ORDINALITY AS x(p, i)`, [phrases]);
    await q(`CREATE UNLOGGED TABLE bench_doc_types (i int PRIMARY KEY, name text NOT NULL)`);
    await q(`INSERT INTO bench_doc_types SELECT i - 1, n FROM unnest($1::text[]) WITH ORDINALITY AS x(n, i)`, [
      DOC_TYPES,
    ]);
    await q('ANALYZE bench_spaces, bench_categories, bench_senders, bench_tags, bench_phrases, bench_doc_types');

    // Bulk loading: the secondary indexes of the two big tables are built once at the end rather than row by row.
    const indexes = (
      await q(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.tablename IN ('documents', 'documents_fts') AND NOT EXISTS
          (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      )
    ).rows as Array<{ indexname: string; indexdef: string }>;
    for (const index of indexes) await q(`DROP INDEX ${index.indexname}`);

    const fiveYears = 5 * 365 * 24 * 3600 * 1000;
    const firstCreated = Date.now() - fiveYears;
    const documentsStarted = performance.now();
    for (let lo = 0; lo < count; lo += BATCH) {
      const hi = Math.min(count, lo + BATCH);
      await q(insertDocumentsSql, [lo, hi - 1, count, firstCreated, fiveYears, PHRASES, SENDERS]);
      await q(
        `INSERT INTO document_tags (document_id, tag_id)
        SELECT DISTINCT d.id, t.id FROM documents d
          JOIN bench_spaces s ON s.id = d.space_id
          CROSS JOIN LATERAL (SELECT floor(random() * random() * 4)::int AS n, d.rowid AS r OFFSET 0) k
          CROSS JOIN LATERAL generate_series(1, k.n) g(j)
          CROSS JOIN LATERAL (SELECT floor(random() * 20 + 0 * g.j)::int AS idx OFFSET 0) x
          JOIN bench_tags t ON t.space_idx = s.idx AND t.idx = x.idx
        WHERE d.rowid > $1 AND d.rowid <= $2`,
        [lo, hi],
      );
      log(`  seeded ${hi.toLocaleString('en')} documents (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    const documentsSeconds = (performance.now() - documentsStarted) / 1000;

    // The full-text rows, as reindex writes them (title, content, sender's name, tag names joined by spaces).
    const fullTextStarted = performance.now();
    for (let lo = 0; lo < count; lo += BATCH) {
      await q(
        `INSERT INTO documents_fts (rowid, title, content, sender, tags)
        SELECT d.rowid, d.title, d.content, coalesce(s.name, ''),
          coalesce((SELECT string_agg(t.name, ' ') FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
            WHERE dt.document_id = d.id), '')
        FROM documents d LEFT JOIN senders s ON s.id = d.sender_id WHERE d.rowid > $1 AND d.rowid <= $2`,
        [lo, lo + BATCH],
      );
    }
    const fullTextSeconds = (performance.now() - fullTextStarted) / 1000;
    log(`  full-text rows in ${fullTextSeconds.toFixed(0)} s; building indexes …`);
    const indexesStarted = performance.now();
    for (const index of indexes) await q(index.indexdef);
    for (const table of [
      'bench_spaces',
      'bench_categories',
      'bench_senders',
      'bench_tags',
      'bench_phrases',
      'bench_doc_types',
    ])
      await q(`DROP TABLE ${table}`);
    await q('VACUUM ANALYZE');
    const indexesSeconds = (performance.now() - indexesStarted) / 1000;

    log('  embeddings …');
    const embeddingsStarted = performance.now();
    registerFullTextIndex('postgres', pgFullTextIndex); // as openBackends does for the service
    const db = await openPostgres(url);
    let embedded = 0;
    try {
      const { embedder } = await configureEmbeddings(db, { kind: 'hashed' });
      embedded = await embedAll(client, embedder, log);
    } finally {
      await db.close();
    }
    await q('VACUUM ANALYZE document_embeddings');
    const embeddingsSeconds = (performance.now() - embeddingsStarted) / 1000;
    // Marks the archive as seeded whole, for a kept cluster's next run (keptSeed).
    await q(`CREATE TABLE ${SEED_MARK} AS SELECT $1::int AS documents`, [count]);
    const size = (await q('SELECT pg_database_size(current_database()) AS bytes')).rows[0].bytes as string;
    return {
      words,
      seconds: {
        documents: documentsSeconds,
        fullText: fullTextSeconds,
        indexes: indexesSeconds,
        embeddings: embeddingsSeconds,
        total: (performance.now() - started) / 1000,
      },
      databaseBytes: Number(size),
      embedded,
    };
  } finally {
    await client.end();
  }
}

/** A kept cluster's seeded archive (its document count and the vocabulary it was made of), or null if none is whole. */
export async function keptSeed(
  url: string,
): Promise<{ documents: number; words: string[]; databaseBytes: number } | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if ((await client.query(`SELECT to_regclass($1) AS mark`, [SEED_MARK])).rows[0].mark === null) return null;
    const row = (
      await client.query(`SELECT documents, pg_database_size(current_database()) AS bytes FROM ${SEED_MARK}`)
    ).rows[0] as { documents: number; bytes: string };
    return { documents: row.documents, words: vocabulary(prng(SEED)), databaseBytes: Number(row.bytes) };
  } finally {
    await client.end();
  }
}

/**
 * Documents $1..$2 of $3 (0-based positions). Created times spread evenly over five years from $4 (ms) over $5 ms, as in
 * the SQLite seeding; the rest of the row's shape follows seedArchive's draws (space 70/20/10 %, document date for 90 %,
 * a sender for 90 %, a category for 80 %, status 95 % completed / 2 % failed / 2 % skipped / 1 % pending, 1 % deleted).
 */
const insertDocumentsSql = `
  INSERT INTO documents (id, space_id, category_id, sender_id, status, title, original_filename, mime_type,
    file_format, size_bytes, sha256, page_count, language, document_date, content, extracted_data, error, created_at,
    updated_at, processed_at, deleted_at)
  SELECT gen_random_uuid()::text, sp.id, cat.id, snd.id, r.status, t.title, replace(t.title, ' ', '_') || '.pdf',
    'application/pdf', 'pdf', 20000 + floor(random() * 2000000)::bigint, encode(sha256(uuid_send(gen_random_uuid())), 'hex'),
    1 + floor(random() * 5)::int, 'de', r.document_date,
    CASE WHEN r.status = 'completed' THEN
      (SELECT string_agg(p.phrase, ' ') FROM generate_series(1, r.phrases) k(n)
        CROSS JOIN LATERAL (SELECT floor(random() * $6 + 0 * k.n)::int AS i OFFSET 0) x
        CROSS JOIN LATERAL (SELECT phrase FROM bench_phrases WHERE i = x.i OFFSET 0) p)
    ELSE '' END,
    '{}', CASE WHEN r.status = 'failed' THEN 'Processing failed: bench' END,
    to_char(r.created, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(r.updated, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    CASE WHEN r.status <> 'pending' THEN to_char(r.updated, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END,
    CASE WHEN r.deleted THEN to_char(r.updated, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END
  FROM generate_series($1::int, $2::int) g(i)
  CROSS JOIN LATERAL (
    SELECT g.i AS i,
      CASE WHEN random() < 0.7 THEN 0 WHEN random() < 0.67 THEN 1 ELSE 2 END AS space_idx,
      CASE WHEN random() < 0.9 THEN floor(random() * $7)::int END AS sender_idx,
      CASE WHEN random() < 0.8 THEN floor(random() * 8)::int END AS category_idx,
      floor(random() * 10)::int AS type_idx,
      random() AS status_roll, random() < 0.01 AS deleted, random() < 0.9 AS dated,
      floor(random() * 30)::int AS days_before, floor(random() * 3600000)::int AS updated_after_ms,
      19 + floor(random() * 38)::int AS phrases,
      to_timestamp(($4::float8 + $5::float8 * g.i / $3::float8 + floor(random() * 60000)) / 1000) AT TIME ZONE 'UTC' AS created
    OFFSET 0
  ) c
  CROSS JOIN LATERAL (
    SELECT c.created, c.created + c.updated_after_ms * interval '1 millisecond' AS updated, c.deleted, c.phrases,
      CASE WHEN c.status_roll < 0.95 THEN 'completed' WHEN c.status_roll < 0.97 THEN 'failed'
        WHEN c.status_roll < 0.99 THEN 'skipped' ELSE 'pending' END AS status,
      CASE WHEN c.dated THEN to_char(c.created - c.days_before * interval '1 day', 'YYYY-MM-DD') END AS document_date
  ) r
  JOIN bench_spaces sp ON sp.idx = c.space_idx
  JOIN bench_doc_types dt ON dt.i = c.type_idx
  LEFT JOIN bench_senders snd ON snd.space_idx = c.space_idx AND snd.idx = c.sender_idx
  LEFT JOIN bench_categories cat ON cat.space_idx = c.space_idx AND cat.idx = c.category_idx
  CROSS JOIN LATERAL (
    SELECT dt.name || ' ' || coalesce(snd.label, 'Unbekannt') || ' ' || left(coalesce(r.document_date, to_char(r.created, 'YYYY-MM')), 7) AS title
  ) t
  ORDER BY g.i`;

/**
 * Every searchable document's vector, in bulk: read in rowid order with its sender and tags, embedded, written with one
 * INSERT per batch. The service's syncEmbeddings makes the same rows (fields and weights of embeddingSource in
 * server/search/embedding-index.ts: title 2, sender 1.5, tags 1.5, the first MAX_EMBEDDED_WORDS words of the content
 * 1; the hash of those texts joined by newlines), but with four statements per document, 25 minutes for a million.
 * updated_at is the document's processing time: distinct per row, as in a real archive, so an instance's incremental
 * reload (every vector at or after its newest) reads a handful of rows, not the whole table.
 */
async function embedAll(client: pg.Client, embedder: Embedder, log: (line: string) => void): Promise<number> {
  let embedded = 0;
  for (let after = 0; ;) {
    const rows = (
      await client.query(
        `SELECT d.rowid, d.id, d.title, d.content, s.name AS sender, coalesce(d.processed_at, d.updated_at) AS at,
          (SELECT string_agg(t.name, ' ') FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
            WHERE dt.document_id = d.id) AS tags
        FROM documents d JOIN documents_fts f ON f.rowid = d.rowid LEFT JOIN senders s ON s.id = d.sender_id
        WHERE d.rowid > $1 ORDER BY d.rowid LIMIT $2`,
        [after, EMBED_BATCH],
      )
    ).rows as Array<{
      rowid: string;
      id: string;
      title: string;
      content: string;
      sender: string | null;
      tags: string | null;
      at: string;
    }>;
    if (rows.length === 0) return embedded;
    after = Number(rows.at(-1)!.rowid);
    const sources = rows.map(embeddingSourceOf);
    const vectors = await embedder.embedDocuments!(sources.map((source) => source.fields));
    await client.query(
      `INSERT INTO document_embeddings (document_id, model, dims, vector, source_hash, updated_at)
      SELECT id, $2, $3, vector, hash, at FROM unnest($1::text[], $4::bytea[], $5::text[], $6::text[]) AS v(id, vector, hash, at)`,
      [
        rows.map((row) => row.id),
        embedder.id,
        embedder.dimensions,
        vectors.map((vector) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)),
        sources.map((source) => source.hash),
        rows.map((row) => row.at),
      ],
    );
    embedded += rows.length;
    if (embedded % 100_000 < EMBED_BATCH) log(`  embedded ${embedded.toLocaleString('en')}`);
  }
}
