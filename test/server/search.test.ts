import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../common/archive-types.ts';
import { EmbeddingIndex, embeddingIndexFor } from '../../server/search/embedding-index.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

interface SearchResult {
  success: true;
  items: SearchHit[];
  total: number;
  total_is_estimate: boolean;
  limit: number;
  query: string;
}
interface ErrorJson {
  success: false;
  error: string;
}

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

let h: Harness;
let spaceB = '';
const docs: Record<string, string> = {};
const nameOf = (documentId: string): string =>
  Object.entries(docs).find(([, id]) => id === documentId)?.[0] ?? documentId;

const FIXTURES: Array<[name: string, text: string[], metadata?: Record<string, unknown>, inB?: boolean]> = [
  ['titleDoc', ['Quarterly numbers only'], { title: 'Zebrafant Quartalsbericht' }],
  [
    'bodyDoc',
    [
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
      'Sed do eiusmod zebrafant tempor incididunt ut labore.',
    ],
  ],
  ['ocrDoc', ['Kundennummer 4711', 'Stromabrechnung November']],
  ['senderDoc', ['Lieferschein'], { sender_name: 'Quokka Versand GmbH' }],
  ['tagDoc', ['Belege'], { tags: ['steuerjahr2025', 'Wichtig'] }],
  ['umlautDoc', ['Bestätigung über die Kündigung']],
  ['prefixDoc', ['Rechnung Nr. 12345']],
  ['htmlDoc', ['<script>alert("x")</script> & Kaskadenwert <b>fett</b>']],
  ['otherSpaceDoc', ['Geheimwort im Tresor'], undefined, true],
  ['deletedDoc', ['Vergessenwort im Papierkorb']],
];

async function search(body: unknown, key?: string): Promise<SearchResult> {
  const res = await h.api('/v1/search', { method: 'POST', json: body, ...(key === undefined ? {} : { key }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return json<SearchResult>(res);
}
const found = async (query: string, key?: string): Promise<string[]> =>
  (await search({ query }, key)).items.map((hit) => nameOf(hit.document.id));

async function expectError(res: Response, status: number, message: string): Promise<void> {
  expect({ status: res.status, body: await json<ErrorJson>(res) }).toEqual({
    status,
    body: { success: false, error: message },
  });
}

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  spaceB = await h.createSpace('B');
  for (const [name, text, metadata, inB] of FIXTURES) {
    const res = await h.upload(
      { bytes: await makePdf(text), name: `${name}.pdf` },
      {
        ...(metadata ? { metadata } : {}),
        ...(inB ? { space_id: spaceB } : {}),
      },
    );
    expect(res.status).toBe(202);
    docs[name] = (await json<{ id: string }>(res)).id;
  }
  await h.service.processor.idle();
  expect((await h.api(`/v1/documents/${docs.deletedDoc}`, { method: 'DELETE' })).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

describe('what search finds', () => {
  it('by title, OCR text, sender and tag', async () => {
    expect(await found('Quartalsbericht')).toEqual(['titleDoc']);
    // Semantic hits may follow (another invoice); the exact match comes first.
    expect((await found('stromabrechnung'))[0]).toBe('ocrDoc');
    expect(await found('4711')).toEqual(['ocrDoc']);
    expect(await found('Quokka')).toEqual(['senderDoc']);
    expect(await found('steuerjahr2025')).toEqual(['tagDoc']);
    expect(await found('wichtig')).toEqual(['tagDoc']);
  });

  it('folds diacritics both ways', async () => {
    expect(await found('uber')).toEqual(['umlautDoc']);
    expect(await found('über')).toEqual(['umlautDoc']);
    expect(await found('KUNDIGUNG')).toEqual(['umlautDoc']);
    expect(await found('bestatigung kündigung')).toEqual(['umlautDoc']);
  });

  it('matches word prefixes; a document with every word ranks first', async () => {
    expect(await found('rechn')).toEqual(['prefixDoc']);
    expect((await found('Zebra')).slice(0, 2)).toEqual(['titleDoc', 'bodyDoc']);
    // Full text needs every word; the vector side may add partial matches below it.
    expect((await found('zebrafant lorem'))[0]).toBe('bodyDoc');
  });

  it('ranks a match in the title above a single match in the body', async () => {
    const result = await search({ query: 'zebrafant' });
    expect(result.items.map((hit) => nameOf(hit.document.id)).slice(0, 2)).toEqual(['titleDoc', 'bodyDoc']);
    expect(result.items[0]!.score).toBeGreaterThan(result.items[1]!.score);
    expect(result).toMatchObject({ success: true, limit: 20, query: 'zebrafant', total_is_estimate: false });
    expect(result.total).toBe(result.items.length); // full-text matches plus any semantic ones, all on this page
  });

  it('limit cuts the items, total counts them all', async () => {
    const result = await search({ query: 'zebrafant', limit: 1 });
    expect(result).toMatchObject({ limit: 1 });
    expect(result.total).toBeGreaterThanOrEqual(2);
    expect(result.items.map((hit) => nameOf(hit.document.id))).toEqual(['titleDoc']);
  });

  it('returns the document record with each hit', async () => {
    const [hit] = (await search({ query: 'Quokka' })).items;
    expect(hit!.document).toMatchObject({
      id: docs.senderDoc,
      space_id: h.defaultSpaceId,
      status: 'completed',
      sender_name: 'Quokka Versand GmbH',
    });
  });
});

describe('snippets', () => {
  it('mark the match', async () => {
    const [hit] = (await search({ query: 'stromabrechnung' })).items;
    expect(hit!.snippet).toContain('<mark>Stromabrechnung</mark>');
    const [folded] = (await search({ query: 'uber' })).items;
    expect(folded!.snippet).toContain('<mark>über</mark>');
  });

  it('escape HTML that is in the document text', async () => {
    const [hit] = (await search({ query: 'kaskadenwert' })).items;
    expect(hit!.snippet).toContain('<mark>Kaskadenwert</mark>');
    expect(hit!.snippet).toContain('&#60;script&#62;');
    expect(hit!.snippet).toContain('&#38;');
    expect(hit!.snippet).not.toMatch(/<(?!\/?mark>)/);
  });
});

describe('vectors after a restart', () => {
  it('a new index warms from every stored vector, slice by slice', async () => {
    const stored = await h.db.all<{ id: string }>('SELECT document_id AS id FROM document_embeddings');
    expect(stored.length).toBeGreaterThan(2);
    const restarted = new EmbeddingIndex(h.db, embeddingIndexFor(h.db).embedder);
    await restarted.warm({ sliceSize: 2 });
    const everyVector = await restarted.nearest(await restarted.embedQuery('anything'), null, 1000, -1);
    expect(everyVector.map((hit) => hit.id).sort()).toEqual(stored.map((row) => row.id).sort());
  });
});

describe('scope of the results', () => {
  it('only spaces the key can see', async () => {
    expect(await found('geheimwort')).toEqual(['otherSpaceDoc']);
    const key = await h.createKey({ name: 'default only', spaces: [h.defaultSpaceId] });
    expect(await found('geheimwort', key)).toEqual([]);
    expect((await found('zebrafant', key)).slice(0, 2)).toEqual(['titleDoc', 'bodyDoc']);
    expect((await search({ query: 'geheimwort', space_id: spaceB })).total).toBe(1);
    expect((await search({ query: 'zebrafant', space_id: spaceB })).total).toBe(0);
  });

  it('a space the key cannot see → 403, even for a query with nothing to match', async () => {
    const key = await h.createKey({ name: 'default only', spaces: [h.defaultSpaceId] });
    for (const query of ['geheimwort', '!!!']) {
      await expectError(
        await h.api('/v1/search', { method: 'POST', key, json: { query, space_id: spaceB } }),
        403,
        'Access denied to this space',
      );
    }
  });

  it('never deleted documents; restored ones again', async () => {
    expect(await found('vergessenwort')).toEqual([]);
    expect((await h.api(`/v1/documents/${docs.deletedDoc}/restore`, { method: 'POST' })).status).toBe(200);
    expect(await found('vergessenwort')).toEqual(['deletedDoc']);
    expect((await h.api(`/v1/documents/${docs.deletedDoc}`, { method: 'DELETE' })).status).toBe(200);
    expect(await found('vergessenwort')).toEqual([]);
  });
});

describe('validation', () => {
  it('query must be a non-empty string, limit 1-100', async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: '' }, 'Invalid parameter query: must not be empty'],
      [{ query: '   ' }, 'Invalid parameter query: must not be empty'],
      [{}, 'Invalid parameter query: must be a string'],
      [{ query: 42 }, 'Invalid parameter query: must be a string'],
      [{ query: null }, 'Invalid parameter query: must be a string'],
      [{ query: ['zebrafant'] }, 'Invalid parameter query: must be a string'],
      [{ query: 'zebrafant', limit: 0 }, 'Invalid parameter limit: must be an integer from 1 to 100'],
      [{ query: 'zebrafant', limit: 101 }, 'Invalid parameter limit: must be an integer from 1 to 100'],
      [{ query: 'zebrafant', limit: 2.5 }, 'Invalid parameter limit: must be an integer from 1 to 100'],
      [{ query: 'zebrafant', limit: '10' }, 'Invalid parameter limit: must be an integer from 1 to 100'],
      [{ query: 'zebrafant', space_id: 'nope' }, 'Invalid parameter space_id: must be a uuid'],
      [{ query: 'zebrafant', sort: 'title' }, 'Unknown parameter sort'],
    ];
    for (const [body, message] of cases) {
      await expectError(await h.api('/v1/search', { method: 'POST', json: body }), 400, message);
    }
    expect((await search({ query: 'zebrafant', limit: 100 })).limit).toBe(100);
  });

  it('the body must be JSON', async () => {
    const res = await h.api('/v1/search', {
      method: 'POST',
      body: '{"query":',
      headers: { 'Content-Type': 'application/json' },
    });
    await expectError(res, 400, 'Malformed JSON body');
    const form = await h.api('/v1/search', {
      method: 'POST',
      body: 'query=zebrafant',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
  });

  it('FTS syntax typed by a user is plain text, never a 500', async () => {
    const inputs = [
      '"',
      '""',
      '*',
      'NEAR(',
      'NEAR(zebrafant',
      'AND',
      'OR',
      'NOT',
      '-',
      '- zebrafant',
      'zebrafant -lorem',
      'zebrafant AND',
      'AND zebrafant',
      '"zebrafant',
      'zebrafant"',
      'zebra*',
      '*fant',
      'title:zebrafant',
      '{title content}: zebrafant',
      '^zebrafant',
      '(zebrafant',
      'zebrafant)',
      "'",
      '\\',
      '%',
      '_',
      ':',
      '+',
      'zebrafant OR lorem',
      'zebrafant NEAR lorem',
      '😀',
      '<mark>',
    ];
    for (const query of inputs) {
      const res = await h.api('/v1/search', { method: 'POST', json: { query } });
      expect(res.status, `query ${JSON.stringify(query)}: ${await res.clone().text()}`).toBe(200);
      const body = await json<SearchResult>(res);
      expect(body.success).toBe(true);
      expect(body.query).toBe(query.trim());
    }
    // A NUL is no text at all (PostgreSQL cannot hold it): refused like any body that carries one.
    await expectError(
      await h.api('/v1/search', { method: 'POST', json: { query: 'zebra\u0000fant' } }),
      400,
      'Malformed JSON body: a string holds a NUL or a lone surrogate',
    );
    // Operators are plain text: "-lorem" does not exclude lorem, quotes do not make a phrase query.
    expect((await found('zebrafant -lorem'))[0]).toBe('bodyDoc');
    expect((await found('"zebrafant"')).slice(0, 2)).toEqual(['titleDoc', 'bodyDoc']);
  });
});
