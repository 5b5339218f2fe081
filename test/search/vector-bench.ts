/**
 * Micro benchmark of the brute-force vector scan (not a test): `npm exec -- node test/search/vector-bench.ts [documents]`.
 * Fills a VectorCache with random unit vectors (hashed document vectors are dense, so random ones cost the same) and
 * times queries: hashed-embedder queries (sparse: few non-zero dimensions) and dense queries (ONNX/OpenAI models).
 */
import { l2Normalize } from '../../server/search/embedders/embedder.ts';
import { HashedEmbedder } from '../../server/search/embedders/hashed-embedder.ts';
import { VectorCache } from '../../server/search/vector-cache.ts';

const documents = Number(process.argv[2] ?? 100_000);
let seed = 42;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 30 - 1;
};
const randomUnit = (dims: number): Float32Array => l2Normalize(Float32Array.from({ length: dims }, random));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function bench(label: string, dims: number, queries: Float32Array[], spaces: ReadonlySet<string> | null): void {
  const cache = new VectorCache(dims);
  for (let i = 0; i < documents; i++) cache.upsert(`doc-${i}`, `space-${i % 4}`, randomUnit(dims));
  const megabytes = cache.memoryBytes / 2 ** 20;
  for (let i = 0; i < 20; i++) cache.search(queries[i % queries.length]!, spaces, 0.12, 400); // warm-up
  const times: number[] = [];
  for (let round = 0; round < 25; round++) {
    for (const query of queries) {
      const started = performance.now();
      cache.search(query, spaces, 0.12, 400);
      times.push(performance.now() - started);
    }
  }
  console.log(
    `${label}: ${documents} docs × ${dims} dims, cache ≈ ${megabytes.toFixed(0)} MB; ` +
      `p50 ${percentile(times, 0.5).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms`,
  );
}

const hashed = new HashedEmbedder();
const texts = [
  'Rechnung',
  'insurence',
  'Stromrechnung Stadtwerke',
  'Kündigung Fitnessstudio Mitgliedschaft',
  'payslip May 2025',
  'car insurance policy annual premium',
  'Kontoauszug Juni Sparkasse',
  'Einkommensteuerbescheid 2024 Finanzamt',
];
const sparse = texts.map((text) => hashed.embedText(text));
console.log(`hashed query vectors: ${sparse.map((v) => v.filter((x) => x !== 0).length).join(', ')} non-zero of 512`);
bench('hashed (sparse) queries, all spaces', 512, sparse, null);
bench('hashed (sparse) queries, 1 of 4 spaces', 512, sparse, new Set(['space-1']));
bench(
  'dense queries (neural model), 384 dims',
  384,
  Array.from({ length: 8 }, () => randomUnit(384)),
  null,
);
bench(
  'dense queries, 512 dims',
  512,
  Array.from({ length: 8 }, () => randomUnit(512)),
  null,
);

/**
 * End to end (`… vector-bench.ts 100000 e2e`): hybridSearch on a real database of synthetic documents, FTS and
 * vectors and the access check included.
 */
async function endToEnd(): Promise<void> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { openDatabase, nowIso } = await import('../../server/db/database.ts');
  const { reindexDocument } = await import('../../server/documents/document-rows.ts');
  const { embeddingIndexFor, syncEmbeddings } = await import('../../server/search/embedding-index.ts');
  const { hybridSearch } = await import('../../server/search/hybrid-search.ts');
  const dir = await mkdtemp(join(tmpdir(), 'search-bench-'));
  const db = await openDatabase(join(dir, 'archive.sqlite'));
  try {
    const space = (db.raw.prepare('SELECT id FROM spaces').get() as { id: string }).id;
    const topics = [
      'Stromrechnung Stadtwerke Verbrauch kWh',
      'Car insurance policy annual premium',
      'Mietvertrag Wohnung Vermieter',
      'Payslip gross salary net pay',
      'Kontoauszug Sparkasse Saldo',
      'Einkommensteuerbescheid Finanzamt',
      'Zahnarzt Behandlung Kostenplan',
      'Boarding pass flight seat',
      'Mahnung offener Betrag',
      'Quotation kitchen renovation',
    ];
    const insert = db.raw
      .prepare(`INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format, size_bytes,
      sha256, content, created_at, updated_at) VALUES (?, ?, 'completed', ?, 'x.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?, ?)`);
    db.raw.exec('BEGIN');
    for (let i = 0; i < documents; i++) {
      const id = crypto.randomUUID();
      const topic = topics[i % topics.length]!;
      insert.run(
        id,
        space,
        `${topic.split(' ')[0]} ${i}`,
        id,
        `${topic} Kundennummer ${i} Referenz ${i * 7} Seite 1 von 1`,
        nowIso(),
        nowIso(),
      );
      await reindexDocument(db, id);
    }
    db.raw.exec('COMMIT');
    const index = embeddingIndexFor(db);
    let started = performance.now();
    await syncEmbeddings(db, index.embedder, { batchSize: 500 });
    console.log(`embedded ${documents} documents in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const principal = { id: 'k', name: 'bench', role: 'viewer' as const, scopes: new Set<never>(), spaces: null };
    const queries = [
      'Rechnumg',
      'insurence',
      'Stromrechnung',
      'Versicherung Beitrag',
      'Kundennummer 4711',
      'payslip',
      'Zahnartz',
      'kitchen',
    ];
    started = performance.now();
    await index.warm();
    console.log(`warm(): vector cache loaded in ${(performance.now() - started).toFixed(0)} ms`);
    const times: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const query of queries) {
        started = performance.now();
        await hybridSearch(db, index, { query, limit: 20, principal });
        times.push(performance.now() - started);
      }
    }
    console.log(
      `hybridSearch end to end: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms`,
    );
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
if (process.argv[3] === 'e2e') await endToEnd();
