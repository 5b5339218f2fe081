import { describe, expect, it } from 'vitest';
import { createEmbedder, dot, embedderConfigFromEnv } from '../../server/search/embedders/embedder.ts';
import { HashedEmbedder, hash32 } from '../../server/search/embedders/hashed-embedder.ts';
import { conceptsOfWord, CONCEPT_COUNT } from '../../server/search/embedders/synonyms.ts';
import { foldText, trigramSimilarity } from '../../server/search/embedders/text-folding.ts';

const embedder = new HashedEmbedder();
const similarity = (a: string, b: string): number => dot(embedder.embedText(a), embedder.embedText(b));

describe('hashed n-gram embedder', () => {
  it('is deterministic, across instances too', async () => {
    const [a] = await embedder.embed(['Stromrechnung der Stadtwerke für März']);
    const [b] = await new HashedEmbedder().embed(['Stromrechnung der Stadtwerke für März']);
    expect([...a!]).toEqual([...b!]);
    expect(embedder.id).toBe('hashed-ngram-v1-512');
    expect(hash32('rechnung')).toBe(hash32('rechnung'));
    expect(hash32('rechnung')).not.toBe(hash32('rechnunh'));
  });

  it('returns unit vectors of the configured size (zero for a text without words)', async () => {
    const vectors = await new HashedEmbedder(256).embed([
      'Kündigung',
      'a much longer text about the insurance of a car and its invoice',
      '',
      '!!!',
    ]);
    expect(vectors.map((v) => v.length)).toEqual([256, 256, 256, 256]);
    expect(Math.hypot(...vectors[0]!)).toBeCloseTo(1, 5);
    expect(Math.hypot(...vectors[1]!)).toBeCloseTo(1, 5);
    expect(vectors[2]!.every((x) => x === 0)).toBe(true);
    expect(vectors[3]!.every((x) => x === 0)).toBe(true);
  });

  it('folds case and diacritics', () => {
    expect(foldText('Kündigung ÜBER Straße')).toBe('kundigung uber strasse');
    expect(similarity('Kündigung', 'KUNDIGUNG')).toBeCloseTo(1, 5);
  });

  it('keeps a misspelt word closer to the right word than to unrelated ones', () => {
    const pairs: Array<[typo: string, right: string, others: string[]]> = [
      ['Rechnumg', 'Rechnung', ['Versicherung', 'Kontoauszug', 'Mietvertrag']],
      ['insurence', 'insurance', ['invoice', 'electricity', 'statement']],
      ['Versicherunng', 'Versicherung', ['Rechnung', 'Vertrag']],
      ['payslipp', 'payslip', ['passport', 'receipt']],
    ];
    for (const [typo, right, others] of pairs) {
      const close = similarity(typo, right);
      expect(close, `${typo} ~ ${right}`).toBeGreaterThan(0.5);
      for (const other of others) expect(similarity(typo, other), `${typo} vs ${other}`).toBeLessThan(close / 3);
    }
    expect(trigramSimilarity('rechnumg', 'rechnung')).toBeGreaterThan(0.5);
  });

  it('puts German words near their English translations (and not near other words)', () => {
    const pairs: Array<[string, string]> = [
      ['Rechnung', 'invoice'],
      ['Versicherung', 'insurance'],
      ['Vertrag', 'contract'],
      ['Gutschrift', 'credit note'],
      ['Kündigung', 'termination'],
      ['Mahnung', 'reminder'],
      ['Lohnabrechnung', 'payslip'],
      ['Kontoauszug', 'bank statement'],
      ['Angebot', 'quote'],
      ['Quittung', 'receipt'],
      ['Strom', 'electricity'],
      ['Miete', 'rent'],
      ['Steuer', 'tax'],
    ];
    for (const [german, english] of pairs) {
      const match = similarity(german, english);
      expect(match, `${german} ~ ${english}`).toBeGreaterThan(0.3);
      for (const [, other] of pairs.filter(([g]) => g !== german)) {
        expect(similarity(german, other), `${german} vs ${other}`).toBeLessThan(match / 2);
      }
    }
    expect(CONCEPT_COUNT).toBeGreaterThanOrEqual(60);
  });

  it('reads German compounds and typos of vocabulary words into concepts', () => {
    const concepts = (word: string): string[] =>
      conceptsOfWord(foldText(word))
        .map((m) => m.concept)
        .sort();
    expect(concepts('stromrechnung')).toEqual(['electricity', 'invoice']);
    expect(concepts('versicherungsnummer')).toContain('insurance');
    expect(concepts('versicherungsschein')).toEqual(['policy']);
    expect(concepts('insurence')).toEqual(['insurance']);
    expect(concepts('Rechnumg')).toEqual(['invoice']);
    expect(concepts('zebrafant')).toEqual([]);
    expect(similarity('Stromrechnung', 'electricity invoice')).toBeGreaterThan(0.4);
  });

  it('ranks whole documents sensibly: a query is closest to the document about it', () => {
    const docs = {
      insurance: 'Insurance policy. Your car insurance premium for 2025 is due. Policy number 1234.',
      electricity: 'Electricity bill for March. Meter reading and consumption in kWh. Amount due 84.20 EUR.',
      rent: 'Rent payment for the apartment, April. The landlord confirms receipt of the rent.',
      payslip: 'Payslip for May: gross salary, taxes and social security contributions, net pay.',
    };
    const vectors = Object.fromEntries(Object.entries(docs).map(([key, text]) => [key, embedder.embedText(text)]));
    const best = (query: string): string => {
      const q = embedder.embedText(query);
      return Object.entries(vectors).sort(([, a], [, b]) => dot(q, b) - dot(q, a))[0]![0];
    };
    expect(best('Versicherung')).toBe('insurance');
    expect(best('Stromrechnung')).toBe('electricity');
    expect(best('Miete Wohnung')).toBe('rent');
    expect(best('Lohnabrechnung')).toBe('payslip');
    expect(best('insurence')).toBe('insurance');
  });
});

describe('embedder configuration', () => {
  it('createEmbedder defaults to the hashed embedder', async () => {
    const built = await createEmbedder();
    expect(built.id).toBe('hashed-ngram-v1-512');
    expect((await createEmbedder({ kind: 'hashed', dimensions: 1024 })).dimensions).toBe(1024);
  });

  it('reads the environment and explains what is wrong', () => {
    expect(embedderConfigFromEnv({})).toEqual({ kind: 'hashed' });
    expect(embedderConfigFromEnv({ ARCHIVE_EMBEDDER: 'onnx', ARCHIVE_EMBEDDER_MODEL_DIR: '/models/e5' })).toEqual({
      kind: 'onnx',
      modelDir: '/models/e5',
    });
    expect(
      embedderConfigFromEnv({
        ARCHIVE_EMBEDDER: 'openai',
        ARCHIVE_EMBEDDER_BASE_URL: 'http://127.0.0.1:11434/v1',
        ARCHIVE_EMBEDDER_MODEL: 'nomic-embed-text',
        ARCHIVE_EMBEDDER_API_KEY: 'k',
      }),
    ).toEqual({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKey: 'k' });
    expect(() => embedderConfigFromEnv({ ARCHIVE_EMBEDDER: 'openai' })).toThrow(/Invalid embedder configuration/);
    expect(() => embedderConfigFromEnv({ ARCHIVE_EMBEDDER: 'word2vec' })).toThrow(/Invalid embedder configuration/);
  });
});
