import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyPrincipal } from '../../server/auth/api-keys.ts';
import type { DatabaseSync } from 'node:sqlite';
import { nowIso, openDatabase } from '../../server/db/database.ts';
import type { SqliteSql } from '../../server/db/sqlite-sql.ts';
import { reindexDocument } from '../../server/documents/document-rows.ts';
import { createInt8DotKernel, TILE } from '../../server/search/embedders/int8-dot.ts';
import { dot, l2Normalize } from '../../server/search/embedders/embedder.ts';
import { ftsSnippets, MAX_EXPANSIONS, planFtsQuery, toFtsQuery } from '../../server/search/fts-query.ts';
import { hybridSearch } from '../../server/search/hybrid-search.ts';
import { VectorCache } from '../../server/search/vector-cache.ts';

let dir = '';
let sql: SqliteSql;
let db: DatabaseSync;
let spaceId = '';
let otherSpace = '';

async function addDocument(
  title: string,
  content: string,
  options: { space?: string } = {},
): Promise<{ id: string; rowid: number }> {
  const id = randomUUID();
  const now = nowIso();
  const { rowid } = db
    .prepare(
      `INSERT INTO documents (id, space_id, status, title, original_filename, mime_type, file_format,
    size_bytes, sha256, content, created_at, updated_at) VALUES (?, ?, 'completed', ?, 'x.pdf', 'application/pdf', 'pdf', 1, ?, ?, ?, ?)
    RETURNING rowid`,
    )
    .get(id, options.space ?? spaceId, title, randomUUID(), content, now, now) as { rowid: number };
  await reindexDocument(sql, id);
  return { id, rowid };
}

const admin: ApiKeyPrincipal = { id: 'k', name: 'admin', role: 'editor', scopes: new Set(), spaces: null };
const lexical = (query: string, options: { window?: number; principal?: ApiKeyPrincipal; limit?: number } = {}) =>
  hybridSearch(
    sql,
    null,
    { query, limit: options.limit ?? 100, principal: options.principal ?? admin },
    { rankWindow: options.window ?? 1000 },
  );
const matching = (match: string): number[] =>
  (
    db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rowid').all(match) as Array<{
      rowid: number;
    }>
  ).map((r) => r.rowid);

/** Ofenbau: 40 documents, oldest first; the oldest says "Kachelofen" three times in its title (the best BM25 match). */
const ofen: Array<{ id: string; rowid: number }> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'broad-queries-'));
  sql = await openDatabase(join(dir, 'archive.sqlite'));
  db = sql.raw;
  spaceId = (db.prepare('SELECT id FROM spaces WHERE is_default = 1').get() as { id: string }).id;
  otherSpace = randomUUID();
  db.prepare('INSERT INTO spaces (id, name, created_at) VALUES (?, ?, ?)').run(otherSpace, 'Other', nowIso());
  ofen.push(await addDocument('Kachelofen Kachelofen Kachelofen', 'Angebot für einen Kachelofen'));
  for (let i = 1; i < 40; i++)
    ofen.push(await addDocument(`Rechnung ${i}`, `Wartung am Kachelofen, Termin ${i}, Schornstein gefegt`));
  for (let i = 0; i < 10; i++) await addDocument(`Brief ${i}`, `Über die Straße, Übergabe der Schlüssel ${i}`);
});
afterAll(async () => {
  await sql?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('queries with more matches than the ranking window', () => {
  it('rank only the most recent matches, and say that total is an estimate', async () => {
    const full = await lexical('kachelofen');
    expect(full).toMatchObject({ total: 40, totalIsEstimate: false });
    expect(full.items[0]!.document.id).toBe(ofen[0]!.id); // best BM25 of all 40

    const windowed = await lexical('kachelofen', { window: 10 });
    expect(windowed.totalIsEstimate).toBe(true);
    const recent = new Set(ofen.slice(-10).map((doc) => doc.id));
    expect(windowed.items.map((item) => item.document.id).every((id) => recent.has(id))).toBe(true);
    expect(windowed.items).toHaveLength(10);
    // Matches spread evenly over the archive's rowids: the estimate lands near the truth, at two significant digits.
    expect(windowed.total).toBeGreaterThan(10);
    expect(windowed.total).toBeLessThanOrEqual(40);
    expect(String(windowed.total)).toMatch(/^\d{1,2}0*$/);
  });

  it('never counts or returns what the key may not see', async () => {
    const hidden = await addDocument('Kachelofen im Ferienhaus', 'Kachelofen', { space: otherSpace });
    const deleted = await addDocument('Kachelofen alt', 'Kachelofen');
    db.prepare('UPDATE documents SET deleted_at = ? WHERE id = ?').run(nowIso(), deleted.id);
    const restricted: ApiKeyPrincipal = { ...admin, spaces: new Set([spaceId]) };
    const result = await lexical('kachelofen', { principal: restricted });
    expect(result).toMatchObject({ total: 40, totalIsEstimate: false });
    const windowed = await lexical('kachelofen', { principal: restricted, window: 5 });
    const ids = windowed.items.map((item) => item.document.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(deleted.id);
    expect(windowed.items).toHaveLength(5);
    expect((await lexical('kachelofen')).total).toBe(41); // the other space, for a key that sees it
    db.prepare('UPDATE documents SET deleted_at = NULL WHERE id = ?').run(deleted.id);
    expect((await lexical('kachelofen')).total).toBe(42);
    db.prepare('UPDATE documents SET deleted_at = ? WHERE id = ?').run(nowIso(), deleted.id);
  });

  it('bound the estimate by the index for a word only recent documents have', async () => {
    for (let i = 0; i < 8; i++) await addDocument(`Neuheit ${i}`, 'Zirbenholzsauna geliefert');
    // The 3 newest matches sit among the newest rowids: spread over the whole archive they would suggest hundreds.
    const result = await lexical('zirbenholzsauna', { window: 3 });
    expect(result.totalIsEstimate).toBe(true);
    expect(result.total).toBeGreaterThanOrEqual(4);
    expect(result.total).toBeLessThanOrEqual(8);
  });
});

describe('prefixes spelled out as terms', () => {
  it('match exactly what the prefix query matches, diacritics folded', () => {
    for (const query of [
      'kachel',
      'Über',
      'uber stra',
      'rech 1',
      'Straße',
      'termin 3',
      'kachelofen schornstein',
      'nichtda',
    ]) {
      const plan = planFtsQuery(db, query)!;
      const expected = matching(toFtsQuery(query)!);
      expect(plan.match === null ? [] : matching(plan.match), query).toEqual(expected);
    }
    const uber = planFtsQuery(db, 'ÜBER')!;
    expect(uber.exact).toBe(true);
    expect(uber.match).toBe('("uber" OR "ubergabe")');
    expect(planFtsQuery(db, 'nichtda')).toEqual({ match: null, exact: true, maxMatches: 0 });
    expect(planFtsQuery(db, '...')).toBeNull();
  });

  it('leave a word with too many completions to FTS5 prefix query', async () => {
    for (let i = 0; i <= MAX_EXPANSIONS; i++) await addDocument('Zählwerk', `zqx${String(i).padStart(3, '0')}`);
    const plan = planFtsQuery(db, 'zqx kachelofen')!;
    expect(plan.exact).toBe(false);
    expect(plan.match).toBe('"zqx"* AND "kachelofen"');
    expect(planFtsQuery(db, 'zqx00')!.exact).toBe(true);
  });

  it('see a term indexed after the first search (the remembered completions are dropped when the index changes)', async () => {
    expect(planFtsQuery(db, 'kachelo')!.match).toBe('"kachelofen"');
    const added = await addDocument('Kachelofenbauer', 'Angebot');
    expect(planFtsQuery(db, 'kachelo')!.match).toBe('("kachelofen" OR "kachelofenbauer")');
    expect((await lexical('kachelo')).items.map((item) => item.document.id)).toContain(added.id);
  });

  it('snippets come from a copy of the rows that FTS5 finds, marks and all', () => {
    const plan = planFtsQuery(db, 'schornstein')!;
    const snippets = ftsSnippets(db, plan.match!, [ofen[0]!.rowid, ofen[5]!.rowid], {
      open: '[',
      close: ']',
      ellipsis: '…',
      tokens: 8,
    });
    expect([...snippets.keys()]).toEqual([ofen[5]!.rowid]); // the first one has no "Schornstein"
    expect(snippets.get(ofen[5]!.rowid)).toContain('[Schornstein]');
  });
});

describe('search_visibility', () => {
  it('follows inserts, space moves, deletes and removals of documents (triggers)', async () => {
    const row = (rowid: number) =>
      db.prepare('SELECT space_id, deleted FROM search_visibility WHERE doc_rowid = ?').get(rowid);
    const doc = await addDocument('Sichtbar', 'Text');
    expect(row(doc.rowid)).toEqual({ space_id: spaceId, deleted: 0 });
    db.prepare('UPDATE documents SET space_id = ? WHERE id = ?').run(otherSpace, doc.id);
    db.prepare('UPDATE documents SET deleted_at = ? WHERE id = ?').run(nowIso(), doc.id);
    expect(row(doc.rowid)).toEqual({ space_id: otherSpace, deleted: 1 });
    db.prepare('DELETE FROM documents WHERE id = ?').run(doc.id);
    expect(row(doc.rowid)).toBeUndefined();
    const mismatched = db
      .prepare(
        `SELECT count(*) AS n FROM documents d LEFT JOIN search_visibility v ON v.doc_rowid = d.rowid
      WHERE v.doc_rowid IS NULL OR v.space_id <> d.space_id OR v.deleted <> (d.deleted_at IS NOT NULL)`,
      )
      .get() as { n: number };
    expect(mismatched.n).toBe(0);
  });
});

describe('vector cache tiles', () => {
  const random = (seed: number, dims: number): Float32Array => {
    let x = seed;
    return l2Normalize(
      Float32Array.from({ length: dims }, () => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x / 2 ** 30 - 1;
      }),
    );
  };

  it('score sparse and dense queries across several tiles exactly like the JavaScript kernel, close to float cosine', () => {
    const dims = 21; // odd: the last dimension pair is half padding
    const count = TILE * 2 + 100;
    const a = new VectorCache(dims, { capacity: 16 });
    const b = new VectorCache(dims, { kernel: createInt8DotKernel({ forceJs: true }) });
    const vectors = Array.from({ length: count }, (_, i) => random(i + 3, dims));
    vectors.forEach((vector, i) => {
      a.upsert(`d${i}`, i % 2 ? 's' : 't', vector, i);
      b.upsert(`d${i}`, i % 2 ? 's' : 't', vector, i);
    });
    for (const id of ['d5', `d${TILE + 7}`, 'd0']) {
      a.remove(id);
      b.remove(id);
    }
    const sparse = new Float32Array(dims);
    sparse[3] = 0.8;
    sparse[20] = -0.6;
    for (const query of [random(99, dims), sparse]) {
      const hits = a.search(query, null, -1, 50);
      expect(hits).toEqual(b.search(query, null, -1, 50));
      expect(hits.map((hit) => hit.id)).not.toContain('d5');
      for (const hit of hits) {
        expect(hit.rowid).toBe(Number(hit.id.slice(1)));
        expect(Math.abs(hit.similarity - dot(query, vectors[Number(hit.id.slice(1))]!))).toBeLessThan(0.02);
      }
      expect(a.search(query, new Set(['s']), -1, 50).every((hit) => Number(hit.id.slice(1)) % 2 === 1)).toBe(true);
    }
  });
});
