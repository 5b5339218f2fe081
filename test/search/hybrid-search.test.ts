import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../common/archive-types.ts';
import { embeddingIndexFor, indexDocument } from '../../server/search/embedding-index.ts';
import { makePdf, startHarness, type Harness } from '../helpers/archive-harness.ts';

interface SearchResult {
  success: true;
  items: SearchHit[];
  total: number;
  limit: number;
  query: string;
}

let h: Harness;
let otherSpace = '';
const docs: Record<string, string> = {};
const nameOf = (documentId: string): string =>
  Object.entries(docs).find(([, id]) => id === documentId)?.[0] ?? documentId;

/** Twelve documents on different topics, some German, some English; titles from upload metadata. */
const FIXTURES: Array<{ name: string; title: string; lines: string[]; space?: 'other'; tags?: string[] }> = [
  {
    name: 'electricity',
    title: 'Electricity Bill March 2025',
    lines: ['Stadtwerke Musterstadt', 'Billing period March 2025', 'Consumption 312 kWh', 'Amount due 84.20 EUR'],
  },
  {
    name: 'carInsurance',
    title: 'Car Insurance Policy',
    lines: ['Policy number KFZ-2025-001', 'Your annual premium is 412.00 EUR', 'Coverage: liability and comprehensive'],
  },
  {
    name: 'rent',
    title: 'Mietzahlung April 2025',
    lines: ['Wohnung Hauptstrasse 5, 2. OG links', 'Der Vermieter bestaetigt den Eingang der Miete fuer April.'],
  },
  {
    name: 'payslip',
    title: 'Payslip May 2025',
    lines: ['Gross salary 4,200.00 EUR', 'Income tax and social security', 'Net pay 2,750.00 EUR'],
  },
  {
    name: 'painterInvoice',
    title: 'Rechnung Malerbetrieb Farbe & Co',
    lines: ['Rechnung Nr. 2025-117', 'Wohnzimmer streichen, zwei Anstriche', 'Gesamtbetrag 1.250,00 EUR'],
  },
  {
    name: 'gymTermination',
    title: 'Termination of your gym membership',
    lines: ['We confirm the cancellation of your membership.', 'It ends on 30 June 2025.'],
  },
  {
    name: 'bankStatement',
    title: 'Account Statement June',
    lines: ['Opening balance 1,024.00 EUR', 'Card payment supermarket', 'Closing balance 880.00 EUR'],
  },
  {
    name: 'dentist',
    title: 'Zahnarzt Dr. Weiss',
    lines: ['Heil- und Kostenplan', 'Behandlung vom 3. Februar: Fuellung Zahn 36'],
  },
  {
    name: 'flight',
    title: 'Boarding pass LH 400',
    lines: ['Flight LH 400 Frankfurt to New York', 'Seat 32A, boarding 10:15'],
  },
  {
    name: 'taxAssessment',
    title: 'Einkommensteuerbescheid 2024',
    lines: ['Finanzamt Musterstadt', 'Festgesetzte Einkommensteuer fuer 2024'],
  },
  {
    name: 'reminder',
    title: 'Mahnung Versandhaus',
    lines: ['Zahlungserinnerung: der Betrag ist seit 14 Tagen offen.', 'Bitte ueberweisen Sie bis Monatsende.'],
  },
  {
    name: 'kitchenQuote',
    title: 'Quotation kitchen renovation',
    lines: ['Valid for 30 days', 'New cabinets, worktop <b>oak</b> & sink', 'Total 8,900 EUR'],
  },
  {
    name: 'secretWill',
    title: 'Last will (private space)',
    lines: ['Testament of Max Mustermann', 'Deposited with the notary Dr. Schmidt'],
    space: 'other',
  },
];

async function search(body: Record<string, unknown>, key?: string): Promise<SearchResult> {
  const res = await h.api('/v1/search', { method: 'POST', json: body, ...(key === undefined ? {} : { key }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as SearchResult;
}
const top = async (query: string, key?: string): Promise<string | undefined> => {
  const { items } = await search({ query }, key);
  return items[0] ? nameOf(items[0].document.id) : undefined;
};

beforeAll(async () => {
  h = await startHarness({ limits: { requestsPerWindow: 100_000, uploadsPerWindow: 100_000 } });
  otherSpace = await h.createSpace('Private');
  for (const fixture of FIXTURES) {
    const res = await h.upload(
      { bytes: await makePdf(fixture.lines), name: `scan-${fixture.name}.pdf` },
      {
        metadata: { title: fixture.title, ...(fixture.tags ? { tags: fixture.tags } : {}) },
        ...(fixture.space === 'other' ? { space_id: otherSpace } : {}),
      },
    );
    expect(res.status).toBe(202);
    docs[fixture.name] = ((await res.json()) as { id: string }).id;
  }
  await h.service.processor.idle();
  // Until the processor embeds each document after applyAnalysis, do it here; once it does, these are no-ops.
  const { embedder } = embeddingIndexFor(h.service.db);
  for (const id of Object.values(docs)) expect(await indexDocument(h.service.db, embedder, id)).not.toBe('missing');
});
afterAll(async () => {
  await h?.close();
});

describe('hybrid ranking', () => {
  it('finds the right document first for plain queries', async () => {
    const cases: Array<[query: string, expected: string]> = [
      ['electricity bill', 'electricity'],
      ['car insurance', 'carInsurance'],
      ['payslip', 'payslip'],
      ['Mahnung', 'reminder'],
      ['boarding pass', 'flight'],
      ['kitchen', 'kitchenQuote'],
    ];
    for (const [query, expected] of cases) expect(await top(query), query).toBe(expected);
  });

  it('finds documents despite misspellings that full text misses', async () => {
    const cases: Array<[query: string, expected: string]> = [
      ['insurence', 'carInsurance'],
      ['Rechnumg', 'painterInvoice'],
      ['Zahnartz', 'dentist'],
      ['Steuerbescheid', 'taxAssessment'],
      ['elektricity', 'electricity'],
    ];
    for (const [query, expected] of cases) expect(await top(query), query).toBe(expected);
  });

  it('finds English-titled documents for German queries and the other way round', async () => {
    const cases: Array<[query: string, expected: string]> = [
      ['Versicherung', 'carInsurance'],
      ['Lohnabrechnung', 'payslip'],
      ['Kündigung Mitgliedschaft', 'gymTermination'],
      ['Kontoauszug', 'bankStatement'],
      ['Angebot Küche', 'kitchenQuote'],
      ['Flug New York', 'flight'],
      ['rent apartment', 'rent'],
      ['dentist', 'dentist'],
      ['payment reminder', 'reminder'],
      ['tax assessment', 'taxAssessment'],
    ];
    for (const [query, expected] of cases) expect(await top(query), query).toBe(expected);
    // "Stromrechnung" is electricity + invoice: since the understanding tags every invoice, another invoice can tie
    // with the electricity bill for first place; the electricity bill must still be in the top two.
    const strom = (await search({ query: 'Stromrechnung' })).items.slice(0, 2).map((item) => nameOf(item.document.id));
    expect(strom).toContain('electricity');
  });

  it('scores are the fused scores, best first, and a hit in both lists beats a hit in one', async () => {
    const result = await search({ query: 'insurance policy' });
    const scores = result.items.map((item) => item.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(nameOf(result.items[0]!.document.id)).toBe('carInsurance');
    // First in BM25 and first in vectors: 1 + 0.9 (see hybrid-search.ts).
    expect(result.items[0]!.score).toBeCloseTo(1.9, 3);
    expect(result.items.every((item) => item.score > 0 && item.score <= 1.9)).toBe(true);
  });

  it('total counts the union of full-text and vector hits; limit cuts items', async () => {
    const full = await search({ query: 'Versicherung' });
    expect(full.total).toBe(full.items.length);
    expect(full.total).toBeGreaterThanOrEqual(1);
    const cut = await search({ query: 'Versicherung', limit: 1 });
    expect(cut).toMatchObject({ success: true, limit: 1, query: 'Versicherung', total: full.total });
    expect(cut.items).toHaveLength(1);
  });

  it('keeps full-text results for exact words (numbers, names) on top', async () => {
    expect(await top('2025-117')).toBe('painterInvoice');
    expect(await top('KFZ-2025-001')).toBe('carInsurance');
    expect(await top('Musterstadt Finanzamt')).toBe('taxAssessment');
  });
});

describe('snippets of vector-only hits', () => {
  it('show the best sentence with words like the query marked', async () => {
    const hit = (await search({ query: 'insurence' })).items.find(
      (item) => nameOf(item.document.id) === 'carInsurance',
    )!;
    expect(hit.snippet).toMatch(/<mark>[^<]*[Ii]nsurance[^<]*<\/mark>|<mark>premium<\/mark>/);
    const german = (await search({ query: 'Rechnumg' })).items[0]!;
    expect(german.snippet).toContain('<mark>Rechnung</mark>');
  });

  it('mark translations of the query words', async () => {
    const hit = (await search({ query: 'Versicherung' })).items.find(
      (item) => nameOf(item.document.id) === 'carInsurance',
    )!;
    expect(hit.snippet).toContain('<mark>');
    expect(hit.snippet).toMatch(/<mark>(insurance|Insurance|Policy|policy)<\/mark>/);
  });

  it('are HTML-escaped', async () => {
    const hit = (await search({ query: 'Küchenangebot' })).items.find(
      (item) => nameOf(item.document.id) === 'kitchenQuote',
    );
    expect(hit).toBeDefined();
    const snippet = (await search({ query: 'kitchen oak worktop cabinets' })).items[0]!.snippet;
    expect(snippet).toContain('&#60;b&#62;');
    expect(snippet).not.toMatch(/<(?!\/?mark>)/);
  });
});

describe('access', () => {
  it("vector hits respect the key's spaces and space_id exactly like full text", async () => {
    // "Notar" is no word of the document: only the vector side can find it.
    expect(await top('Notar Testamnet')).toBe('secretWill');
    const restricted = await h.createKey({ name: 'default only', spaces: [h.defaultSpaceId] });
    const seen = (await search({ query: 'Notar Testamnet' }, restricted)).items.map((item) => nameOf(item.document.id));
    expect(seen).not.toContain('secretWill');
    const onlyOther = await search({ query: 'Versicherung Notar', space_id: otherSpace });
    expect(onlyOther.items.map((item) => nameOf(item.document.id))).toEqual(['secretWill']);
    expect(
      (await search({ query: 'Versicherung', space_id: h.defaultSpaceId })).items.map((item) =>
        nameOf(item.document.id),
      ),
    ).not.toContain('secretWill');
    const denied = await h.api('/v1/search', {
      method: 'POST',
      json: { query: 'Versicherung', space_id: otherSpace },
      key: restricted,
    });
    expect(denied.status).toBe(403);
  });

  it('deleted documents never come back through vectors; restored ones do', async () => {
    expect((await h.api(`/v1/documents/${docs.dentist}`, { method: 'DELETE' })).status).toBe(200);
    for (const query of ['Zahnartz', 'dentist', 'Zahnarzt Weiss']) {
      expect(
        (await search({ query })).items.map((item) => nameOf(item.document.id)),
        query,
      ).not.toContain('dentist');
    }
    expect((await h.api(`/v1/documents/${docs.dentist}/restore`, { method: 'POST' })).status).toBe(200);
    expect(await top('Zahnartz')).toBe('dentist');
  });

  it('stores one vector per document with the model id', () => {
    const rows = h.sqlite
      .prepare('SELECT model, dims, length(vector) AS bytes FROM document_embeddings')
      .all() as Array<{ model: string; dims: number; bytes: number }>;
    expect(rows).toHaveLength(FIXTURES.length);
    expect(rows.every((row) => row.model === 'hashed-ngram-v1-512' && row.dims === 512 && row.bytes === 2048)).toBe(
      true,
    );
  });
});
