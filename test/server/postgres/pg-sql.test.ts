import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgSql } from '../../../server/db/postgres/pg-sql.ts';
import { freshDatabase, postgresForTests, type TestDatabase } from '../../helpers/postgres.ts';

const postgres = postgresForTests();
if (postgres.skipReason) console.log(`PostgreSQL tests skipped: ${postgres.skipReason}`);

describe.skipIf(!postgres.url)('PgSql over a real PostgreSQL', () => {
  let database: TestDatabase;
  let sql: PgSql;

  beforeAll(async () => {
    database = await freshDatabase();
    sql = new PgSql(database.url);
    await sql.exec(`
      CREATE TABLE items (id bigint PRIMARY KEY, label text NOT NULL, data bytea, price numeric);
      CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL);
    `);
  });
  afterAll(async () => {
    await sql?.close();
    await database?.drop();
  });

  it('runs portable SQL with ? placeholders; changes counts the rows touched', async () => {
    const inserted = await sql.run("INSERT INTO items (id, label) VALUES (?, ?), (?, 'what?')", 1, 'one', 2);
    expect(inserted).toEqual({ changes: 2 });
    expect(await sql.all('SELECT id, label FROM items WHERE id IN (?, ?) ORDER BY id', 1, 2)).toEqual([
      { id: 1, label: 'one' },
      { id: 2, label: 'what?' },
    ]);
    expect(await sql.get('SELECT label FROM items WHERE id = ?', 99)).toBeUndefined();
    expect(await sql.run('UPDATE items SET label = label || ? WHERE id > ?', '!', 0)).toEqual({ changes: 2 });
    await expect(sql.get('SELECT ? AS a', 1, 2)).rejects.toThrow('SQL has 1 placeholders but 2 parameters were given');
  });

  it('gives bigint and count(*) as numbers, numeric as a number, and refuses a bigint past 2^53', async () => {
    const row = await sql.get<{ n: unknown; big: unknown; price: unknown }>(
      'SELECT count(*) AS n, ?::bigint AS big, 12.50::numeric AS price FROM items',
      9_007_199_254_740_991n,
    );
    expect(row).toEqual({ n: 2, big: Number.MAX_SAFE_INTEGER, price: 12.5 });
    await expect(sql.get('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(
      'bigint value 9007199254740993 is beyond Number.MAX_SAFE_INTEGER',
    );
    // The connection survives the refused value.
    expect(await sql.get('SELECT 1::bigint AS one')).toEqual({ one: 1 });
  });

  it('round-trips bytea as Uint8Array, every byte value included', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    await sql.run('INSERT INTO items (id, label, data) VALUES (?, ?, ?)', 3, 'bytes', bytes);
    const row = await sql.get<{ data: Uint8Array }>('SELECT data FROM items WHERE id = ?', 3);
    expect(row!.data).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(row!.data)).toBe(false);
    expect([...row!.data]).toEqual([...bytes]);
  });

  it('commits a transaction as one, and rolls all of it back when fn throws', async () => {
    await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO counters (name, value) VALUES (?, ?)', 'a', 1);
      await tx.run('INSERT INTO counters (name, value) VALUES (?, ?)', 'b', 1);
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.run('UPDATE counters SET value = 100 WHERE name = ?', 'a');
        await tx.run('INSERT INTO counters (name, value) VALUES (?, ?)', 'c', 1);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await sql.all('SELECT name, value FROM counters ORDER BY name')).toEqual([
      { name: 'a', value: 1 },
      { name: 'b', value: 1 },
    ]);
  });

  it('keeps concurrent transactions apart: uncommitted rows are invisible to others', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => (inserted = resolve));
    const writer = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO counters (name, value) VALUES (?, ?)', 'pending', 7);
      inserted();
      await held;
    });
    await insertDone;
    const seenDuring = await sql.transaction((tx) => tx.get('SELECT value FROM counters WHERE name = ?', 'pending'));
    expect(seenDuring).toBeUndefined();
    release();
    await writer;
    expect(await sql.get('SELECT value FROM counters WHERE name = ?', 'pending')).toEqual({ value: 7 });
  });

  it('runs a deadlock victim again: two transactions locking two rows in opposite orders both commit', async () => {
    await sql.run("INSERT INTO counters (name, value) VALUES ('left', 0), ('right', 0)");
    let attempts = 0;
    const holding = [Promise.withResolvers<undefined>(), Promise.withResolvers<undefined>()];
    const bothHoldOne = Promise.all(holding.map((lock) => lock.promise));
    const crosswise = (index: number, first: string, second: string) =>
      sql.transaction(async (tx) => {
        attempts++;
        await tx.run('UPDATE counters SET value = value + 1 WHERE name = ?', first);
        holding[index]!.resolve(undefined);
        await bothHoldOne;
        await tx.run('UPDATE counters SET value = value + 1 WHERE name = ?', second);
      });
    await Promise.all([crosswise(0, 'left', 'right'), crosswise(1, 'right', 'left')]);
    // One of them ran again (twice, when its retry met the other in the same order once more).
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(await sql.all("SELECT name, value FROM counters WHERE name IN ('left', 'right') ORDER BY name")).toEqual([
      { name: 'left', value: 2 },
      { name: 'right', value: 2 },
    ]);
  });

  it('a transaction started through tx joins the outer one: an outer failure undoes the inner work', async () => {
    await expect(
      sql.transaction(async (tx) => {
        await tx.transaction(async (inner) => {
          await inner.run('INSERT INTO counters (name, value) VALUES (?, ?)', 'inner', 1);
        });
        // Inside the same transaction the inner row is visible…
        expect(await tx.get('SELECT value FROM counters WHERE name = ?', 'inner')).toEqual({ value: 1 });
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    // …and it went with the rollback, so it was never a transaction of its own.
    expect(await sql.get('SELECT value FROM counters WHERE name = ?', 'inner')).toBeUndefined();
  });

  it("'deferred' turns off synchronous commit for its transaction only; a nested 'full' turns it back on", async () => {
    const level = (db: { get: PgSql['get'] }) =>
      db.get<{ synchronous_commit: string }>('SHOW synchronous_commit').then((r) => r!.synchronous_commit);
    expect(await sql.transaction((tx) => level(tx), 'deferred')).toBe('off');
    expect(
      await sql.transaction(async (tx) => {
        await tx.transaction(async () => {}, 'full');
        return level(tx);
      }, 'deferred'),
    ).toBe('on');
    expect(await sql.transaction((tx) => level(tx))).toBe('on');
  });

  it('a transaction handle used after its transaction ended refuses, rather than run on a pooled connection', async () => {
    let leaked: Parameters<Parameters<PgSql['transaction']>[0]>[0] | undefined;
    await sql.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.get('SELECT 1')).rejects.toThrow('This transaction has ended');
  });

  it('names host and database, never the password, when the password is wrong', async () => {
    const url = new URL(database.url);
    url.password = 'not-the-Secret-42';
    const wrong = new PgSql(url.toString());
    try {
      const error = await wrong.get('SELECT 1').then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(
        new RegExp(
          `Cannot connect to PostgreSQL archive_test@127\\.0\\.0\\.1:${url.port}/${database.name}: .*password`,
        ),
      );
      expect(error?.message).not.toContain('not-the-Secret-42');
    } finally {
      await wrong.close();
    }
  });

  it('names the target of a refused connection and of a database that does not exist', async () => {
    const refused = new PgSql('postgres://someone:hunter2@127.0.0.1:1/archive', { connectTimeoutMs: 2000 });
    await expect(refused.get('SELECT 1')).rejects.toThrow(
      /^Cannot connect to PostgreSQL someone@127\.0\.0\.1:1\/archive: .*ECONNREFUSED/,
    );
    await refused.close();
    const url = new URL(database.url);
    url.pathname = '/no_such_archive';
    const missing = new PgSql(url.toString());
    await expect(missing.get('SELECT 1')).rejects.toThrow(/no_such_archive: database "no_such_archive" does not exist/);
    await missing.close();
  });

  it('refuses a URL that is not a PostgreSQL URL, without echoing it', () => {
    expect(() => new PgSql('mysql://u:secret@h/db')).toThrow(
      'The PostgreSQL URL must start with postgres:// or postgresql://, not mysql://',
    );
    expect(() => new PgSql('not a url secret')).toThrow(/^The PostgreSQL URL is not a valid URL; expected postgres:/);
    expect(() => new PgSql('postgres://u:secret@h:5432/')).toThrow('The PostgreSQL URL names no database');
  });
});
