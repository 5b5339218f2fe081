import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sql } from '../../server/db/sql.ts';
import { SqliteSql } from '../../server/db/sqlite-sql.ts';

/** A point a test can hold a transaction open at, across real event-loop turns. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SqliteSql', () => {
  let sql: SqliteSql;
  beforeEach(() => {
    sql = new SqliteSql(new DatabaseSync(':memory:'));
    sql.raw.exec('CREATE TABLE log (n INTEGER PRIMARY KEY AUTOINCREMENT, who TEXT NOT NULL)');
  });
  afterEach(async () => {
    await sql.close();
  });

  const who = async (db: Sql = sql): Promise<string[]> =>
    (await db.all<{ who: string }>('SELECT who FROM log ORDER BY n')).map((row) => row.who);

  it('runs two concurrent transactions one after the other, never mixing their statements', async () => {
    const writer = (name: string) => async (tx: Sql) => {
      for (let i = 0; i < 3; i++) {
        await tx.run('INSERT INTO log (who) VALUES (?)', name);
        await turn();
      }
      // Inside its transaction a writer sees only its own rows: the other one has not begun, or has committed.
      return who(tx);
    };
    const [a, b] = await Promise.all([sql.transaction(writer('a')), sql.transaction(writer('b'))]);
    expect(a).toEqual(['a', 'a', 'a']);
    expect(b).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
    expect(await who()).toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
  });

  it('rolls back everything a transaction did when fn throws, and releases the connection', async () => {
    await sql.run('INSERT INTO log (who) VALUES (?)', 'before');
    await expect(
      sql.transaction(async (tx) => {
        await tx.run('INSERT INTO log (who) VALUES (?)', 'lost');
        await turn();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await who()).toEqual(['before']);
    expect(sql.raw.isTransaction).toBe(false);
    await sql.transaction(async (tx) => void (await tx.run('INSERT INTO log (who) VALUES (?)', 'after')));
    expect(await who()).toEqual(['before', 'after']);
  });

  it('joins a transaction begun through tx to the outer one (one commit, one rollback)', async () => {
    await expect(
      sql.transaction(async (tx) => {
        await tx.transaction(async (inner) => void (await inner.run('INSERT INTO log (who) VALUES (?)', 'inner')));
        expect(await who(tx)).toEqual(['inner']);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await who()).toEqual([]);
    const nested = await sql.transaction((tx) =>
      tx.transaction(async (inner) => (await inner.run('INSERT INTO log (who) VALUES (?)', 'kept')).changes),
    );
    expect(nested).toBe(1);
    expect(await who()).toEqual(['kept']);
  });

  it('makes statements through the outer handle wait until an open transaction ends', async () => {
    const held = gate();
    const transaction = sql.transaction(async (tx) => {
      await tx.run('INSERT INTO log (who) VALUES (?)', 'uncommitted');
      await held.opened;
    });
    await turn();
    const outerRead = who();
    const outerWrite = sql.run('INSERT INTO log (who) VALUES (?)', 'outer');
    let settled = false;
    void outerRead.then(() => (settled = true));
    for (let i = 0; i < 5; i++) await turn();
    // Had the read run now it would have seen the uncommitted row; it waits instead.
    expect(settled).toBe(false);
    held.open();
    await transaction;
    expect(await outerRead).toEqual(['uncommitted']);
    await outerWrite;
    expect(await who()).toEqual(['uncommitted', 'outer']);
  });

  it('reports a statement through the outer handle inside its own transaction instead of waiting forever', async () => {
    const outcome = sql.transaction(async () => {
      await sql.run('INSERT INTO log (who) VALUES (?)', 'outer inside');
    });
    await expect(outcome).rejects.toThrow(/inside its own transaction/);
    await expect(sql.transaction(() => sql.transaction(() => Promise.resolve()))).rejects.toThrow(
      /inside its own transaction/,
    );
    expect(await who()).toEqual([]);
  }, 2000);

  it('refuses statements through a transaction handle after its transaction ended', async () => {
    let leaked: Sql | undefined;
    await sql.transaction(async (tx) => void (leaked = tx));
    await expect(leaked!.run('INSERT INTO log (who) VALUES (?)', 'late')).rejects.toThrow(/already ended/);
    expect(await who()).toEqual([]);
  });

  it('runs a deferred transaction at synchronous NORMAL and puts FULL back', async () => {
    sql.raw.exec('PRAGMA synchronous = FULL');
    const level = (db: Sql) => db.get<{ synchronous: number }>('PRAGMA synchronous');
    const inside = await sql.transaction(level, 'deferred');
    expect(inside?.synchronous).toBe(1);
    expect((await level(sql))?.synchronous).toBe(2);
  });

  it('compiles each SQL string once', async () => {
    const first = sql.statement('SELECT count(*) AS n FROM log');
    await sql.get('SELECT count(*) AS n FROM log');
    expect(sql.statement('SELECT count(*) AS n FROM log')).toBe(first);
  });
});
