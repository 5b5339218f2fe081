/**
 * `npm run bench -- server --backend postgres`: the server suite's list, search and upload rows over PostgreSQL and
 * S3 (s3rver) with three service instances (`npm run server -- --workers 0`) behind the round-robin proxy, at
 * 1,000,000 documents (BENCH_DOCUMENTS for a trial), and the processing throughput of 1, 2 and 4 `npm run worker`
 * processes. The same request mix and statistics as the SQLite rows (server.bench.ts); the service runs with the
 * spec's rate limits, so the load spreads over many API keys (as it would over many clients).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { SCOPES } from '../../common/archive-types.ts';
import { createApiKey } from '../../server/auth/api-keys.ts';
import { openPostgres } from '../../server/db/postgres/pg-schema.ts';
import type { PgSql } from '../../server/db/postgres/pg-sql.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.ts';
import { makeScannedPdf, textImage } from '../pipeline/pipeline-fixtures.ts';
import {
  cpuAccount,
  latencyRow,
  mib,
  procAvailable,
  processStat,
  type BenchReport,
  type BenchRow,
} from './bench-utils.ts';
import {
  BENCH_POSTGRES_SETTINGS,
  startBenchPostgres,
  startBenchS3,
  startServiceInstance,
  startWorker,
  type BenchProcess,
} from './pg-bench-cluster.ts';
import { keptSeed, seedPostgresArchive } from './pg-seed.ts';
import { letterOf } from './pipeline.bench.ts';
import {
  BenchClient,
  cpuNote,
  expectAccepted,
  listSearchScenarios,
  measureScenarios,
  pdfTemplate,
  settle,
  sustainedUploads,
  UPLOAD,
} from './server.bench.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const INSTANCES = 3;
const TARGET_MS = 50;
/** API keys: the spec allows 60 requests and 10 uploads a minute per key; each phase has keys of its own. */
const KEYS = { listSearch: 400, uploads: 1200, processing: 100 };
const WORKER_COUNTS = [1, 2, 4] as const;
/** The fixed processing set: text PDFs of TEXT_PAGES pages and one-page scans (OCR), uploaded afresh for each run. */
const PROCESSING_SET = { textDocuments: 16, textPages: 5, scans: 4 };
const PROCESSING_TIMEOUT_MS = 20 * 60_000;

export async function runPostgres(): Promise<BenchReport> {
  const rows: BenchRow[] = [];
  const notes: string[] = [
    `PostgreSQL: a throwaway cluster on this machine, ${Object.entries(BENCH_POSTGRES_SETTINGS)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')}; files in s3rver (loopback, its data on the local disk); ${INSTANCES} service instances ` +
      '(npm run server -- --workers 0) behind the round-robin proxy in the load generator process',
  ];
  const stops: Array<() => Promise<unknown>> = [];
  try {
    // BENCH_PG_DIR keeps the cluster there: a later run with the same BENCH_DOCUMENTS reuses its seeded archive.
    const keptDir = process.env.BENCH_PG_DIR;
    const database = await startBenchPostgres(keptDir);
    stops.push(() => database.stop());
    const s3 = await startBenchS3();
    stops.push(() => s3.server.stop());

    const seeded = keptDir ? await keptSeed(database.url) : null;
    if (seeded && seeded.documents !== DOCUMENTS)
      throw new Error(`BENCH_PG_DIR=${keptDir} holds ${seeded.documents} seeded documents, not ${DOCUMENTS}`);
    if (seeded) notes.push(`seeding: reused, the kept cluster in ${keptDir}; database ${mib(seeded.databaseBytes)}`);
    let words = seeded?.words;
    if (!seeded) {
      console.log(`server (postgres): seeding ${DOCUMENTS.toLocaleString('en')} documents …`);
      const seed = await seedPostgresArchive(database.url, DOCUMENTS, console.log);
      const t = seed.seconds;
      words = seed.words;
      notes.push(
        `seeding: ${DOCUMENTS.toLocaleString('en')} documents in ${t.total.toFixed(0)} s (rows ${t.documents.toFixed(0)} s, ` +
          `full-text rows ${t.fullText.toFixed(0)} s, indexes and VACUUM ANALYZE ${t.indexes.toFixed(0)} s, ` +
          `${seed.embedded.toLocaleString('en')} embeddings ${t.embeddings.toFixed(0)} s); database ${mib(seed.databaseBytes)}`,
      );
    }

    const db = await openPostgres(database.url);
    stops.push(() => db.close());
    const keys = await createKeys(db, KEYS.listSearch + KEYS.uploads + KEYS.processing);
    const instances: BenchProcess[] = [];
    const urls: string[] = [];
    for (let i = 0; i < INSTANCES; i++) {
      const started = await startServiceInstance(database.url, s3.blobs, s3.env);
      stops.push(() => started.process.stop());
      instances.push(started.process);
      urls.push(started.url);
    }
    const proxy = await startRoundRobinProxy(urls);
    stops.push(() => proxy.close());
    const pids = instances.map((instance) => instance.pid);

    // BENCH_ONLY=list,upload,processing runs a subset (`search`: the list stage's search scenarios alone).
    const only = process.env.BENCH_ONLY?.split(',');
    const runs = (stage: string): boolean =>
      !only || only.includes(stage) || (stage === 'list' && only.includes('search'));
    if (runs('list')) {
      console.log('server (postgres): list and search latency …');
      const listClient = new BenchClient(proxy.url, keys.slice(0, KEYS.listSearch));
      await settle(instances, 'list/search', notes);
      const listRows = await measureScenarios(
        listClient,
        listSearchScenarios(words!, DOCUMENTS),
        pids,
        TARGET_MS,
        notes,
      );
      listClient.destroy();
      for (const row of listRows) console.log(`  ${row.name}: ${row.measured}`);
      rows.push(...listRows);
    }
    // Processing first: the upload stage leaves a thousand queued documents that workers would take before the set.
    if (runs('processing')) {
      console.log('server (postgres): processing throughput …');
      const processingRows = await benchProcessing(
        db,
        new BenchClient(proxy.url, keys.slice(KEYS.listSearch + KEYS.uploads)),
        database.url,
        s3,
        notes,
      );
      for (const row of processingRows) console.log(`  ${row.name}: ${row.measured}`);
      rows.push(...processingRows);
    }
    if (runs('upload')) {
      console.log('server (postgres): upload-accept latency …');
      const uploadRow = await benchUploads(
        proxy,
        keys.slice(KEYS.listSearch, KEYS.listSearch + KEYS.uploads),
        instances,
        notes,
      );
      console.log(`  ${uploadRow.name}: ${uploadRow.measured}`);
      rows.push(uploadRow);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(String(error)));
  }
  return { suite: 'server', title: 'Archive Service over PostgreSQL + S3, three instances', rows, notes };
}

async function createKeys(db: PgSql, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const { key } = await createApiKey(db, { name: `bench-${i}`, role: 'editor', scopes: [...SCOPES], spaces: null });
    keys.push(key);
  }
  return keys;
}

/** Upload accept at UPLOAD.rate/s sustained (open loop) through the proxy, one upload per key. */
async function benchUploads(
  proxy: RoundRobinProxy,
  keys: readonly string[],
  instances: readonly BenchProcess[],
  notes: string[],
): Promise<BenchRow> {
  const client = new BenchClient(proxy.url, keys);
  try {
    const makePdf = pdfTemplate(['Rechnung 2024-117', 'Stadtwerke Musterstadt', 'Betrag: 84,20 EUR'], UPLOAD.bytes);
    const upload = async (label: string, index: number, file: Buffer): Promise<number> => {
      const result = await client.upload(file, `${label}-${index}.pdf`);
      if (expectAccepted(result, 'upload').duplicate_of) throw new Error('a benchmark upload was taken as a duplicate');
      return result.ms;
    };
    for (let i = 0; i < UPLOAD.warmup * INSTANCES; i++) await upload('warmup', i, makePdf());
    await settle(instances, 'uploads', notes);
    const pids = instances.map((instance) => instance.pid);
    const cpu = pids.every(procAvailable) ? cpuAccount(pids) : null;
    const open = await sustainedUploads((i, file) => upload('sustained', i, file), makePdf);
    const used = cpu?.end();
    notes.push(
      `sustained uploads: ${UPLOAD.sustainedCount} distinct ${mib(UPLOAD.bytes)} PDFs at ${UPLOAD.rate}/s through the proxy ` +
        `(each instance ${(UPLOAD.rate / INSTANCES).toFixed(0)}/s), every upload with a key of its own; at most ` +
        `${open.maxInFlight} in flight, ${open.lateStarts} started > 2 ms late` +
        (used
          ? `; ${cpuNote(used, UPLOAD.sustainedCount, 'upload')} (server: the three instances; other processes: ` +
            'PostgreSQL, s3rver and the rest of the machine)'
          : ''),
    );
    return latencyRow(
      `Upload accept, ${mib(UPLOAD.bytes)} PDF, sustained ${UPLOAD.rate}/s across ${INSTANCES} instances`,
      open.latencies,
      99,
      TARGET_MS,
    );
  } finally {
    client.destroy();
  }
}

/** The processing set's files: text PDFs with a text layer, and one-page 300 DPI scans (JPEG in a PDF, OCR'd). */
async function processingSet(run: number): Promise<Array<{ name: string; bytes: Buffer; pages: number }>> {
  const files: Array<{ name: string; bytes: Buffer; pages: number }> = [];
  for (let d = 0; d < PROCESSING_SET.textDocuments; d++) {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let p = 1; p <= PROCESSING_SET.textPages; p++) {
      const page = pdf.addPage([595, 842]);
      // The run and document number on every page: each run's files are new to the archive (no duplicates).
      letterOf(p, 40).forEach((line, i) =>
        page.drawText(`${line} [${run}.${d}]`, { x: 50, y: 800 - i * 18, size: 10, font }),
      );
    }
    files.push({ name: `text-${run}-${d}.pdf`, bytes: Buffer.from(await pdf.save()), pages: PROCESSING_SET.textPages });
  }
  for (let d = 0; d < PROCESSING_SET.scans; d++) {
    const image = textImage([...letterOf(d + 1, 30), `Scan ${run}.${d}`], { size: 42, width: 2480, height: 3508 });
    files.push({
      name: `scan-${run}-${d}.pdf`,
      bytes: Buffer.from(await makeScannedPdf([image], 300, 'jpeg')),
      pages: 1,
    });
  }
  return files;
}

/**
 * CPU time of the PostgreSQL servers on this machine, in ms: every live server process's own, plus what each
 * postmaster's ended children used (a backend that closed its connection between two readings would otherwise take
 * its CPU time with it, and the difference could even come out negative).
 */
function postgresCpuMs(): number {
  const servers = new Map<number, ReturnType<typeof processStat>>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      servers.set(Number(entry), processStat(Number(entry)));
    } catch {
      // the process ended between the listing and the read
    }
  }
  let total = 0;
  for (const server of servers.values()) {
    total += server.ownMs;
    if (!servers.has(server.parent)) total += server.endedChildrenMs;
  }
  return total;
}

/**
 * Pages per second of N worker processes (one document at a time each) over the same set of documents, uploaded
 * while no worker runs and then processed; timed from the first job's start to the last one's end, so the workers'
 * start-up (loading the OCR models) is not counted. The PostgreSQL CPU used meanwhile bounds the projection.
 */
async function benchProcessing(
  db: PgSql,
  client: BenchClient,
  database: string,
  s3: Awaited<ReturnType<typeof startBenchS3>>,
  notes: string[],
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let perWorkerRate = 0;
  let pgMsPerPage = 0;
  for (const [run, count] of WORKER_COUNTS.entries()) {
    const files = await processingSet(run);
    const pages = files.reduce((sum, file) => sum + file.pages, 0);
    const ids: string[] = [];
    for (const file of files) {
      const result = await client.upload(file.bytes, file.name);
      expectAccepted(result, 'processing upload');
      ids.push((JSON.parse(result.body) as { id: string }).id);
    }
    const workers: BenchProcess[] = [];
    try {
      const pg0 = postgresCpuMs();
      for (let i = 0; i < count; i++) workers.push(await startWorker(database, s3.blobs, s3.env));
      const deadline = performance.now() + PROCESSING_TIMEOUT_MS;
      const placeholders = ids.map(() => '?').join(', ');
      for (;;) {
        const open = await db.get<{ n: number }>(
          `SELECT count(*) AS n FROM jobs WHERE document_id IN (${placeholders}) AND state IN ('queued', 'running')`,
          ...ids,
        );
        if (open?.n === 0) break;
        if (performance.now() > deadline) throw new Error(`processing with ${count} worker(s) did not finish in time`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const pgMs = postgresCpuMs() - pg0;
      const span = await db.get<{ first: string; last: string; failed: number }>(
        `SELECT min(started_at) AS first, max(finished_at) AS last,
          sum(CASE WHEN state <> 'done' THEN 1 ELSE 0 END) AS failed
        FROM jobs WHERE document_id IN (${placeholders})`,
        ...ids,
      );
      const seconds = (Date.parse(span!.last) - Date.parse(span!.first)) / 1000;
      const rate = pages / seconds;
      if (count === 1) {
        perWorkerRate = rate;
        pgMsPerPage = pgMs / pages;
      }
      rows.push({
        name: `Processing, ${count} worker process${count > 1 ? 'es' : ''} (npm run worker -- --workers 1)`,
        measured:
          `${rate.toFixed(2)} pages/s (${pages} pages of ${files.length} documents in ${seconds.toFixed(1)} s` +
          `${span!.failed ? `, ${span!.failed} job(s) not done` : ''}; PostgreSQL CPU ${(pgMs / pages).toFixed(1)} ms/page)`,
      });
    } finally {
      for (const worker of workers) await worker.stop();
    }
  }
  const pgCapacity = pgMsPerPage > 0 ? 1000 / pgMsPerPage : Infinity;
  const projection = [2, 4, 8, 16, 32].map(
    (cores) => `${cores} cores ${Math.min(cores * perWorkerRate, pgCapacity).toFixed(1)}`,
  );
  rows.push({
    name: 'Processing, projection for more cores (pages/s)',
    measured: `${projection.join(' · ')} (model: 1-worker rate × cores, capped by one PostgreSQL core at ${pgMsPerPage.toFixed(1)} ms CPU per page: ${pgCapacity.toFixed(0)} pages/s)`,
  });
  notes.push(
    `processing: each run uploads a fresh set of ${PROCESSING_SET.textDocuments} text PDFs of ${PROCESSING_SET.textPages} pages ` +
      `(text layer, pdf.js) and ${PROCESSING_SET.scans} one-page 300 DPI scans (JPEG in a PDF, OCR by tesseract.js), ` +
      `${PROCESSING_SET.textDocuments * PROCESSING_SET.textPages + PROCESSING_SET.scans} pages; workers started after the uploads, ` +
      'timed from the first job started to the last one finished; on 2 cores, more than 2 workers cannot add speed',
  );
  return rows;
}
