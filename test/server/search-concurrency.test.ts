import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyPrincipal } from '../../server/auth/api-keys.ts';
import type { Sql } from '../../server/db/sql.ts';
import { embeddingIndexFor, type EmbeddingIndex } from '../../server/search/embedding-index.ts';
import { hybridSearch } from '../../server/search/hybrid-search.ts';
import { makePdf, startHarness, uploadAndProcess, type Harness } from '../helpers/archive-harness.ts';

/**
 * A search's independent steps overlap: the full-text statement runs in the database while the service scans its
 * vectors, and the page's snippets and rows are read at once. Shown with latches: a step held until the other one has
 * started passes only when the two are in flight together (a search running them one after the other would wait on
 * the latch until it gives up).
 */
const LATCH_MS = 5000;

function latch(what: string): { open(): void; passed: Promise<void> } {
  let open!: () => void;
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<void>((resolve, reject) => {
    open = () => {
      clearTimeout(timer);
      resolve();
    };
    timer = setTimeout(() => reject(new Error(`${what} did not start while the other step was in flight`)), LATCH_MS);
  });
  passed.catch(() => undefined);
  return { open, passed };
}

const admin: ApiKeyPrincipal = { id: 'k', name: 'admin', role: 'editor', scopes: new Set(), spaces: null };
const isFullTextMatches = (sql: string): boolean => /ORDER BY f\.rowid DESC LIMIT/.test(sql);

/** The service's database, with `hold` deciding per statement (and per raw SQLite connection use) what to wait for. */
function heldDatabase(db: Sql, hold: { statement(sql: string): Promise<void>; connection(): Promise<void> }): Sql {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'all')
        return async (sql: string, ...params: Parameters<Sql['all']>[1][]) => {
          await hold.statement(sql);
          return target.all(sql, ...params);
        };
      if (property === 'withConnection') {
        const withConnection = Reflect.get(target, property, target) as (step: unknown) => Promise<unknown>;
        return async (step: unknown) => {
          await hold.connection();
          return withConnection.call(target, step);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('a search runs its independent steps at once', () => {
  let h: Harness;
  let index: EmbeddingIndex;

  beforeAll(async () => {
    h = await startHarness();
    await uploadAndProcess(h, {
      bytes: await makePdf('Wartung am Kachelofen, der Schornstein wurde gefegt'),
      name: 'ofen.pdf',
      type: 'application/pdf',
    });
    index = embeddingIndexFor(h.db);
  });
  afterAll(() => h?.close());

  it('scans the vectors while the full-text statement runs', async () => {
    const semanticStarted = latch('the semantic half');
    const watched = new Proxy(index, {
      get(target, property) {
        if (property === 'embedQuery')
          return (query: string) => {
            semanticStarted.open();
            return target.embedQuery(query);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const db = heldDatabase(h.db, {
      statement: (sql) => (isFullTextMatches(sql) ? semanticStarted.passed : Promise.resolve()),
      connection: () => Promise.resolve(),
    });
    const result = await hybridSearch(db, watched, { query: 'kachelofen', limit: 10, principal: admin });
    expect(result.items.map((item) => item.document.title)).toHaveLength(1);
    expect(result.items[0]!.snippet).toContain('<mark>Kachelofen</mark>');
  });

  it("reads the page's rows while its snippets are cut", async () => {
    const rowsAsked = latch("the page's rows");
    let matched = false;
    const db = heldDatabase(h.db, {
      statement: async (sql) => {
        if (/d\.rowid IN/.test(sql)) rowsAsked.open();
        // PostgreSQL reads the hits' text for their snippets in a statement; SQLite cuts them through its own
        // connection (below).
        if (/AS text FROM documents_fts/.test(sql)) await rowsAsked.passed;
        if (isFullTextMatches(sql)) matched = true;
      },
      connection: () => (matched ? rowsAsked.passed : Promise.resolve()),
    });
    const result = await hybridSearch(db, null, { query: 'kachelofen', limit: 10, principal: admin });
    expect(result.items).toHaveLength(1);
    expect(result.items[0]!.snippet).toContain('<mark>Kachelofen</mark>');
  });
});
