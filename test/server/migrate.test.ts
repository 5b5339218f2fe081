import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateCommand } from '../../server/cli/migrate-command.ts';
import { openDatabase } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres/pg-schema.ts';
import type { SqlValue } from '../../server/db/sql.ts';
import { copyBlobs } from '../../server/migrate/blob-copier.ts';
import { migrateArchive, type MigrateOptions } from '../../server/migrate/migrate-archive.ts';
import { SourceArchive } from '../../server/migrate/source-archive.ts';
import type { MigrationSummary } from '../../server/migrate/summary.ts';
import { readTargetCatalog } from '../../server/migrate/target-catalog.ts';
import { planTables, TablePlanError, type TableCopy } from '../../server/migrate/table-plan.ts';
import { BlobStore } from '../../server/storage/blob-store.ts';
import { S3BlobStore } from '../../server/storage/s3-blob-store.ts';
import { makePdf, startHarness, uploadAndProcess } from '../helpers/archive-harness.ts';
import { freeLoopbackPort } from '../helpers/free-port.ts';
import { freshDatabase, postgresForTests, type TestDatabase } from '../helpers/postgres.ts';
import { s3ServerForTests, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';

const postgres = postgresForTests();
const s3rver = s3ServerForTests();
const MIGRATE_COMMAND = fileURLToPath(new URL('../../server/cli/migrate-command.ts', import.meta.url));

/** Tables the brief names; each must be copied and hold rows in the test archive, so the comparison means something. */
const TABLES_WITH_ROWS = [
  'settings',
  'spaces',
  'api_keys',
  'categories',
  'senders',
  'tags',
  'documents',
  'document_tags',
  'events',
  'event_history',
  'payments',
  'jobs',
  'documents_fts',
  'document_embeddings',
  'learned_senders',
  'learned_sender_keys',
];

describe.skipIf(!postgres.url || !s3rver.bin)('archive migrate: SQLite archive to PostgreSQL and blobs', () => {
  let sourceDir: string;
  let scratch: string;
  let s3: S3TestServer;
  const databases: TestDatabase[] = [];

  const database = async (): Promise<TestDatabase> => {
    const db = await freshDatabase();
    databases.push(db);
    return db;
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'archive-migrate-test-'));
    sourceDir = join(scratch, 'source');
    s3 = await startS3Server(s3rver.bin!);
    await makeArchive(sourceDir);
  }, 120_000);

  afterAll(async () => {
    for (const db of databases) await db.drop();
    await s3?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  const s3Options = (url: string, blobs: string): MigrateOptions => ({
    from: sourceDir,
    toDatabase: url,
    toBlobs: blobs,
    env: {
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  });

  it('copies every table row and every file to PostgreSQL and S3, and a second run finds it all there', async () => {
    const db = await database();
    const first = await migrateArchive(s3Options(db.url, `s3://${s3.bucket}/moved`));
    const plan = await tablePlan(sourceDir, db.url);
    expect(plan.map((c) => c.table)).toEqual(expect.arrayContaining(TABLES_WITH_ROWS));
    // Parents before children.
    const order = plan.map((c) => c.table);
    for (const [parent, child] of [
      ['spaces', 'documents'],
      ['documents', 'events'],
      ['events', 'payments'],
      ['documents', 'documents_fts'],
      ['learned_senders', 'learned_sender_keys'],
    ] as const)
      expect(order.indexOf(parent)).toBeLessThan(order.indexOf(child));

    await expectSameRows(sourceDir, db.url, plan);
    const sourceBlobs = blobsOf(sourceDir);
    expect(first.target).toBe('fresh');
    expect(first.blobs).toMatchObject({ copied: sourceBlobs.length, skipped: 0, failed: [], missing: [] });
    expect(first.blobs.bytes).toBe(sourceBlobs.reduce((sum, b) => sum + b.size, 0));
    for (const table of TABLES_WITH_ROWS) expect(rowsOf(first, table).copied, table).toBeGreaterThan(0);

    const store = new S3BlobStore({ config: s3.config('moved'), tmpDir: join(scratch, 's3-read') });
    try {
      for (const { sha256 } of sourceBlobs) {
        const bytes = await buffer(await store.openRead(sha256));
        expect(bytes.equals(await readFile(new BlobStore(sourceDir).pathOf(sha256))), sha256).toBe(true);
      }
    } finally {
      await store.close();
    }

    const target = await openPostgres(db.url);
    try {
      // New rows continue after the copied ids rather than colliding with them.
      for (const [table, column] of [
        ['tags', 'id'],
        ['event_history', 'id'],
        ['jobs', 'id'],
        ['documents', 'rowid'],
      ] as const) {
        const { max } = (await target.get<{ max: number }>(`SELECT max(${column}) AS max FROM ${table}`))!;
        const { next } = (await target.get<{ next: number }>(
          `SELECT nextval(pg_get_serial_sequence('${table}', '${column}')) AS next`,
        ))!;
        expect(next, `${table}.${column}`).toBeGreaterThan(max);
      }
    } finally {
      await target.close();
    }

    // A second run's files are all there. (Checked on the store itself: s3rver on Node 24 fails the truncated bucket
    // listing S3BlobStore.init makes once the prefix holds two objects, so a whole second run is tested on a directory.)
    const again = new S3BlobStore({ config: s3.config('moved'), tmpDir: join(scratch, 's3-again') });
    await mkdir(join(scratch, 's3-again'));
    try {
      expect(await copyBlobs(sourceDir, sourceBlobs, again)).toMatchObject({
        copied: 0,
        skipped: sourceBlobs.length,
        failed: [],
        missing: [],
      });
    } finally {
      await again.close();
    }
  });

  it('copies to a file-store directory, each file byte for byte, and prints a summary', async () => {
    const db = await database();
    const blobDir = join(scratch, 'file-target');
    const out: string[] = [];
    const code = await migrateCommand(
      ['--from', sourceDir, '--to-database', db.url, '--to-blobs', blobDir],
      (line) => out.push(line),
      () => {},
    );
    expect(code).toBe(0);
    const summary = out.join('\n');
    expect(summary).toMatch(/^documents\s+\d+\s+0$/m);
    expect(summary).toMatch(/files: \d+ copied \([\d.]+ MB\), 0 already there, 0 failed, 0 missing at the source/);
    expect(summary).toMatch(/^not copied:\n( {2}.+\n)* {2}search_visibility: derived/m);
    expect(summary).toMatch(/time: [\d.]+ s/);
    await expectSameRows(sourceDir, db.url, await tablePlan(sourceDir, db.url));
    const target = new BlobStore(blobDir);
    const sourceBlobs = blobsOf(sourceDir);
    for (const { sha256 } of sourceBlobs) {
      const copied = await readFile(target.pathOf(sha256));
      expect(copied.equals(await readFile(new BlobStore(sourceDir).pathOf(sha256))), sha256).toBe(true);
    }

    const second = await migrateArchive({ from: sourceDir, toDatabase: db.url, toBlobs: blobDir });
    expect(second.target).toBe('same');
    expect(second.blobs).toMatchObject({ copied: 0, skipped: sourceBlobs.length, failed: [], missing: [] });
    for (const result of second.tables) expect(result).toEqual({ ...result, copied: 0 });
    expect(second.tables.every((t) => t.alreadyThere > 0 || t.table === 'distinct_bills')).toBe(true);
    await expectSameRows(sourceDir, db.url, await tablePlan(sourceDir, db.url));
  });

  it('finishes a run killed mid-way on the next run, without duplicates or errors', async () => {
    const db = await database();
    const blobDir = join(scratch, 'interrupted-target');
    await (await openPostgres(db.url)).close();
    // The run stops where the test wants it: payments are locked against writes (reads still pass), so the copy
    // waits there with the tables before it committed, and is killed while it waits.
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    let child: ReturnType<typeof spawn> | undefined;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE payments IN EXCLUSIVE MODE');
      child = spawn(
        process.execPath,
        [MIGRATE_COMMAND, '--from', sourceDir, '--to-database', db.url, '--to-blobs', blobDir],
        {
          stdio: 'ignore',
        },
      );
      await waitForInsertBlockedOn(db.url, 'payments');
      const partial = await countRows(db.url, ['documents', 'events', 'payments']);
      expect(partial.documents).toBeGreaterThan(0);
      expect(partial.payments).toBe(0);
      const exited = new Promise((resolve) => child!.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // PostgreSQL notices a vanished client only when it next talks to it: the waiting INSERT would still commit once
      // the lock goes. Ended here, as the server ends it in time.
      await blocker.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'INSERT INTO "payments"%'`,
      );
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await blocker.query('ROLLBACK');
      await blocker.end();
    }

    const resumed = await migrateArchive({ from: sourceDir, toDatabase: db.url, toBlobs: blobDir });
    expect(resumed.target).toBe('same');
    expect(rowsOf(resumed, 'documents')).toMatchObject({ copied: 0 });
    expect(rowsOf(resumed, 'documents').alreadyThere).toBeGreaterThan(0);
    expect(rowsOf(resumed, 'payments').copied).toBeGreaterThan(0);
    expect(resumed.blobs).toMatchObject({ copied: 0, failed: [], missing: [] });
    await expectSameRows(sourceDir, db.url, await tablePlan(sourceDir, db.url));
  });

  it('reports a damaged and a missing source file, copies every row, and exits 1', async () => {
    const damagedDir = join(scratch, 'damaged');
    await cp(sourceDir, damagedDir, { recursive: true });
    const [damaged, missing] = blobsOf(damagedDir);
    const store = new BlobStore(damagedDir);
    await writeFile(store.pathOf(damaged!.sha256), 'not what was uploaded');
    await rm(store.pathOf(missing!.sha256));
    const db = await database();
    const blobDir = join(scratch, 'damaged-target');
    const out: string[] = [];
    const code = await migrateCommand(
      ['--from', damagedDir, '--to-database', db.url, '--to-blobs', blobDir, '--json'],
      (line) => out.push(line),
      () => {},
    );
    expect(code).toBe(1);
    const summary = JSON.parse(out.join('\n')) as MigrationSummary;
    expect(summary.blobs.failed).toEqual([
      { sha256: damaged!.sha256, reason: expect.stringMatching(/^its bytes hash to [0-9a-f]{64} \(damaged/) },
    ]);
    expect(summary.blobs.missing).toEqual([missing!.sha256]);
    expect(await new BlobStore(blobDir).stat(damaged!.sha256)).toBeNull();
    await expectSameRows(damagedDir, db.url, await tablePlan(damagedDir, db.url));
  });

  it('refuses a database that holds a different archive, and leaves it as it was', async () => {
    const db = await database();
    await migrateArchive({ from: sourceDir, toDatabase: db.url, toBlobs: join(scratch, 'first-target') });
    const otherDir = join(scratch, 'other-archive');
    await mkdir(otherDir);
    await (await openDatabase(join(otherDir, 'archive.sqlite'))).close();
    const before = await countRows(db.url, ['spaces', 'documents']);
    await expect(
      migrateArchive({ from: otherDir, toDatabase: db.url, toBlobs: join(scratch, 'other-target') }),
    ).rejects.toThrow(/already holds a different archive \(its default space is .*\)\. Archives are not merged/);
    expect(await countRows(db.url, ['spaces', 'documents'])).toEqual(before);

    // The same archive's default space, but another download secret: signed links would break, so refused too.
    const rekeyedDir = join(scratch, 'rekeyed-archive');
    await cp(sourceDir, rekeyedDir, { recursive: true });
    const raw = new DatabaseSync(join(rekeyedDir, 'archive.sqlite'));
    raw.prepare("UPDATE settings SET value = 'another secret' WHERE key = 'download_secret'").run();
    raw.close();
    await expect(
      migrateArchive({ from: rekeyedDir, toDatabase: db.url, toBlobs: join(scratch, 'rekeyed-target') }),
    ).rejects.toThrow(/already holds a different archive \(its download secret differs from the source archive’s\)/);
  });

  it('stops with a plan error when a SQLite table has neither a PostgreSQL twin nor a reason to stay behind', async () => {
    const db = await database();
    const extraDir = join(scratch, 'extra-table');
    await cp(sourceDir, extraDir, { recursive: true });
    const raw = new DatabaseSync(join(extraDir, 'archive.sqlite'));
    raw.exec('CREATE TABLE future_feature (id TEXT PRIMARY KEY)');
    raw.close();
    await expect(
      migrateArchive({ from: extraDir, toDatabase: db.url, toBlobs: join(scratch, 'extra-target') }),
    ).rejects.toThrow(
      new TablePlanError(
        'Cannot copy this archive to PostgreSQL: table future_feature has no PostgreSQL twin and no reason to be left behind',
      ),
    );
  });

  it('reads the source as one snapshot: rows written while it copies are not half there', async () => {
    const liveDir = join(scratch, 'live');
    await cp(sourceDir, liveDir, { recursive: true });
    const source = SourceArchive.open(liveDir);
    const writer = new DatabaseSync(join(liveDir, 'archive.sqlite'));
    try {
      const before = [...source.rows('settings', ['key'])].length;
      writer.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run('written meanwhile', '1');
      expect([...source.rows('settings', ['key'])]).toHaveLength(before);
    } finally {
      writer.close();
      source.close();
    }
  });

  it('names a missing source directory and an unreachable database', async () => {
    const err: string[] = [];
    const missingDir = join(scratch, 'no-such-archive');
    const db = await database();
    expect(
      await migrateCommand(
        ['--from', missingDir, '--to-database', db.url, '--to-blobs', scratch],
        () => {},
        (l) => err.push(l),
      ),
    ).toBe(1);
    expect(err.pop()).toBe(`error: The source directory ${missingDir} does not exist`);

    const port = await freeLoopbackPort();
    const unreachable = `postgres://archive:secret-password@127.0.0.1:${port}/archive`;
    expect(
      await migrateCommand(
        ['--from', sourceDir, '--to-database', unreachable, '--to-blobs', scratch],
        () => {},
        (l) => err.push(l),
      ),
    ).toBe(1);
    const message = err.pop()!;
    expect(message).toMatch(new RegExp(`^error: Cannot connect to PostgreSQL archive@127\\.0\\.0\\.1:${port}/archive`));
    expect(message).not.toContain('secret-password');

    expect(
      await migrateCommand(
        ['--from', sourceDir],
        () => {},
        (l) => err.push(l),
      ),
    ).toBe(2);
    expect(err.pop()).toMatch(/^error: migrate needs --to-database URL, --to-blobs URL/);
  });
});

/**
 * An archive made by the real service: documents with metadata (an invoice with amount and tags), a duplicate upload,
 * an event edit and a payment, a category, a hand edit that is learned, and a second key.
 */
async function makeArchive(dataDir: string): Promise<void> {
  const h = await startHarness({ dataDir });
  try {
    const invoice = await makePdf(['Stadtwerke Musterstadt', 'Rechnung Nr. 4711', 'Betrag 120,50 EUR']);
    const invoiceId = await uploadAndProcess(
      h,
      { bytes: invoice, name: 'invoice.pdf' },
      {
        metadata: {
          event_type: 'invoice',
          amount: { value: 120.5, currency: 'EUR' },
          due_date: '2026-12-15',
          tags: ['Strom', 'Haus'],
          sender_name: 'Stadtwerke Musterstadt',
        },
      },
    );
    await uploadAndProcess(h, { bytes: invoice, name: 'invoice again.pdf' });
    const letterId = await uploadAndProcess(h, {
      bytes: await makePdf(['Versicherung AG', 'Ihre Police 99-1234', 'Beitrag 2027']),
      name: 'policy.pdf',
    });
    await uploadAndProcess(h, { bytes: await makePdf('A plain note'), name: 'note.pdf' });

    const category = await h.api('/v1/categories', {
      method: 'POST',
      json: { name: 'Versicherung', space_id: h.defaultSpaceId },
    });
    expect(category.status).toBe(201);
    const { category: created } = (await category.json()) as { category: { id: string } };
    const edit = await h.api(`/v1/documents/${letterId}`, {
      method: 'PATCH',
      json: { category_id: created.id, sender_name: 'Versicherung AG', tags: ['Vertrag'] },
    });
    expect(edit.status).toBe(200);

    const detail = (await (await h.api(`/v1/documents/${invoiceId}`)).json()) as {
      document: { event_ids: string[] };
    };
    const eventId = detail.document.event_ids[0]!;
    expect(
      (await h.api(`/v1/events/${eventId}`, { method: 'PATCH', json: { reference_number: 'R-4711' } })).status,
    ).toBe(200);
    const paid = await h.api(`/v1/events/${eventId}/state`, {
      method: 'POST',
      json: { state: 'paid', paid_at: '2026-12-10' },
    });
    expect(paid.status).toBe(200);
    await h.createKey({ name: 'scan station', role: 'viewer' });
    await h.service.processor.idle();
  } finally {
    await h.close();
  }
}

function blobsOf(dataDir: string): Array<{ sha256: string; size: number }> {
  const source = SourceArchive.open(dataDir);
  try {
    return source.blobs();
  } finally {
    source.close();
  }
}

async function tablePlan(dataDir: string, url: string): Promise<TableCopy[]> {
  const source = SourceArchive.open(dataDir);
  const target = await openPostgres(url);
  try {
    return planTables(source.tables(), await readTargetCatalog(target)).copies;
  } finally {
    source.close();
    await target.close();
  }
}

function rowsOf(summary: MigrationSummary, table: string): { copied: number; alreadyThere: number } {
  const row = summary.tables.find((t) => t.table === table);
  if (!row) throw new Error(`no ${table} in the summary`);
  return row;
}

/** Every copied table, plus search_visibility (kept by triggers), holds the same rows on both sides. */
async function expectSameRows(dataDir: string, url: string, plan: readonly TableCopy[]): Promise<void> {
  const sqlite = new DatabaseSync(join(dataDir, 'archive.sqlite'), { readOnly: true });
  const target = await openPostgres(url);
  try {
    const compared = [
      ...plan.map((c) => ({ table: c.table, columns: c.columns })),
      { table: 'search_visibility', columns: ['doc_rowid', 'space_id', 'deleted'] },
    ];
    for (const { table, columns } of compared) {
      const list = columns.map((c) => `"${c}"`).join(', ');
      const expected = normalised(sqlite.prepare(`SELECT ${list} FROM "${table}"`).all() as Record<string, SqlValue>[]);
      const actual = normalised(await target.all<Record<string, SqlValue>>(`SELECT ${list} FROM "${table}"`));
      expect(actual, table).toEqual(expected);
    }
  } finally {
    sqlite.close();
    await target.close();
  }
}

/** Rows as comparable text, sorted: bytes as hex, everything else as JSON. */
function normalised(rows: Record<string, SqlValue>[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(
        Object.entries(row).map(([column, value]) => [
          column,
          value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
        ]),
      ),
    )
    .sort();
}

async function countRows(url: string, tables: readonly string[]): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      counts[table] = Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

/** Waits (bounded) until some session's INSERT into `table` waits for a lock. */
async function waitForInsertBlockedOn(url: string, table: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let attempt = 0; attempt < 300; attempt++) {
      const { rows } = await client.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND query LIKE $1`,
        [`INSERT INTO "${table}"%`],
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no INSERT into ${table} waited for its lock within 30 s`);
  } finally {
    await client.end();
  }
}
