import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder, dot } from '../../server/search/embedders/embedder.ts';
import { OnnxEmbedder } from '../../server/search/embedders/onnx-embedder.ts';
import { loadTokenizer, tokenizerFromJson, UnigramTokenizer } from '../../server/search/embedders/tokenizer.ts';
import { pooledModel, tokenVectorModel } from './tiny-onnx.ts';

const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'hello',
  'world',
  'invoice',
  'insurance',
  'un',
  '##aff',
  '##able',
  'rech',
  '##nung',
  ',',
  'the',
];
const DIMS = 6;
const id = (token: string): number => VOCAB.indexOf(token);

/** Row i of the embedding table; [PAD] is all zeros. */
function tableOf(seed: number): Float32Array {
  const table = new Float32Array(VOCAB.length * DIMS);
  for (let t = 1; t < VOCAB.length; t++)
    for (let d = 0; d < DIMS; d++) table[t * DIMS + d] = Math.sin(seed * 7.1 + t * 3.7 + d * 1.3);
  return table;
}

function expectedMean(table: Float32Array, tokenIds: number[]): Float32Array {
  const mean = new Float32Array(DIMS);
  for (const token of tokenIds) for (let d = 0; d < DIMS; d++) mean[d] = mean[d]! + table[token * DIMS + d]!;
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

let root = '';
const table = tableOf(1);

async function modelDir(name: string, files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), content);
  }
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'onnx-embedder-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('ONNX embedder on a hand-built model', () => {
  it('mean-pools the token vectors over the attention mask and normalises (vocab.txt WordPiece)', async () => {
    const dir = await modelDir('token-model', {
      'model.onnx': tokenVectorModel(table, VOCAB.length, DIMS),
      'vocab.txt': `${VOCAB.join('\n')}\n`,
    });
    const embedder = await createEmbedder({ kind: 'onnx', modelDir: dir });
    expect(embedder).toBeInstanceOf(OnnxEmbedder);
    expect(embedder.dimensions).toBe(DIMS);
    expect(embedder.id).toMatch(/^onnx:token-model:[0-9a-f]{12}$/);

    const [hello] = await embedder.embed(['Hello, World']);
    const expected = expectedMean(table, [id('[CLS]'), id('hello'), id(','), id('world'), id('[SEP]')]);
    expect([...hello!].map((x) => x.toFixed(5))).toEqual([...expected].map((x) => x.toFixed(5)));
    expect(Math.hypot(...hello!)).toBeCloseTo(1, 5);
  });

  it('gives the same vector for a text alone and in a padded batch', async () => {
    const dir = await modelDir('batch-model', {
      'model.onnx': tokenVectorModel(table, VOCAB.length, DIMS),
      'vocab.txt': VOCAB.join('\n'),
    });
    const embedder = await OnnxEmbedder.load({ modelDir: dir, batchSize: 3 });
    const texts = ['invoice', 'the unaffable insurance invoice hello world', 'Rechnung', 'hello', ''];
    const batched = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(dot(alone!, batched[i]!), text).toBeCloseTo(1, 5);
    }
    // WordPiece: "Rechnung" → rech ##nung, so it equals the pooled vector of those two pieces.
    expect(dot(batched[2]!, expectedMean(table, [id('[CLS]'), id('rech'), id('##nung'), id('[SEP]')]))).toBeCloseTo(
      1,
      5,
    );
  });

  it('uses an already pooled output as it is and feeds only the inputs the model declares', async () => {
    const dir = await modelDir('pooled-model', {
      'onnx/model.onnx': pooledModel(table, VOCAB.length, DIMS),
      'vocab.txt': VOCAB.join('\n'),
    });
    const embedder = await OnnxEmbedder.load({ modelDir: dir });
    const [vector] = await embedder.embed(['hello world']);
    expect(dot(vector!, expectedMean(table, [id('[CLS]'), id('hello'), id('world'), id('[SEP]')]))).toBeCloseTo(1, 5);
  });

  it('cuts long texts to maxTokens', async () => {
    const dir = await modelDir('short-model', {
      'model.onnx': tokenVectorModel(table, VOCAB.length, DIMS),
      'vocab.txt': VOCAB.join('\n'),
    });
    const embedder = await OnnxEmbedder.load({ modelDir: dir, maxTokens: 4 });
    const [cut] = await embedder.embed(['hello world invoice insurance']);
    expect(dot(cut!, expectedMean(table, [id('[CLS]'), id('hello'), id('world'), id('[SEP]')]))).toBeCloseTo(1, 5);
  });

  it('names the weights in the id: other weights, other id', async () => {
    const a = await OnnxEmbedder.load({
      modelDir: await modelDir('same-name-a', {
        'model.onnx': tokenVectorModel(table, VOCAB.length, DIMS),
        'vocab.txt': VOCAB.join('\n'),
      }),
    });
    const b = await OnnxEmbedder.load({
      modelDir: await modelDir('same-name-b', {
        'model.onnx': tokenVectorModel(tableOf(2), VOCAB.length, DIMS),
        'vocab.txt': VOCAB.join('\n'),
      }),
    });
    expect(a.id.split(':')[2]).not.toBe(b.id.split(':')[2]);
  });

  it('explains what is missing', async () => {
    await expect(OnnxEmbedder.load({ modelDir: join(root, 'nowhere') })).rejects.toThrow(/No ONNX model found/);
    const noTokenizer = await modelDir('no-tokenizer', { 'model.onnx': tokenVectorModel(table, VOCAB.length, DIMS) });
    await expect(OnnxEmbedder.load({ modelDir: noTokenizer })).rejects.toThrow(/expected tokenizer.json or vocab.txt/);
  });
});

describe('tokenizers', () => {
  it('WordPiece from vocab.txt: lower case, accents stripped, punctuation split, greedy longest match', async () => {
    const dir = await modelDir('tok-vocab', { 'vocab.txt': VOCAB.join('\n') });
    const tokenizer = await loadTokenizer(dir);
    expect(tokenizer.encode('Unaffable, HÉLLO zzz', 32)).toEqual([
      id('[CLS]'),
      id('un'),
      id('##aff'),
      id('##able'),
      id(','),
      id('hello'),
      id('[UNK]'),
      id('[SEP]'),
    ]);
    expect(tokenizer.padId).toBe(id('[PAD]'));
  });

  it('WordPiece from tokenizer.json with its template of special tokens', () => {
    const tokenizer = tokenizerFromJson({
      normalizer: { type: 'BertNormalizer', lowercase: true },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]' } }, { Sequence: { id: 'A' } }, { SpecialToken: { id: '[SEP]' } }],
        special_tokens: { '[CLS]': { ids: [id('[CLS]')] }, '[SEP]': { ids: [id('[SEP]')] } },
      },
      model: { type: 'WordPiece', vocab: Object.fromEntries(VOCAB.map((token, i) => [token, i])), unk_token: '[UNK]' },
    });
    expect(tokenizer.encode('Invoice insurance', 16)).toEqual([
      id('[CLS]'),
      id('invoice'),
      id('insurance'),
      id('[SEP]'),
    ]);
  });

  it('Unigram (SentencePiece, XLM-R style) picks the most probable segmentation', () => {
    const vocab: Array<[string, number]> = [
      ['<s>', 0],
      ['<pad>', 0],
      ['</s>', 0],
      ['<unk>', 0],
      ['▁', -3],
      ['▁Rech', -4],
      ['nung', -4],
      ['▁Rechnung', -5],
      ['▁in', -3],
      ['voice', -4],
      ['▁invoice', -9],
      ['R', -6],
      ['e', -6],
    ];
    const tokenizer = new UnigramTokenizer(vocab, { unkId: 3 });
    // "▁Rechnung" as one piece (-5) beats "▁Rech" + "nung" (-8); "▁in" + "voice" (-7) beats "▁invoice" (-9).
    expect(tokenizer.encode('Rechnung  invoice', 16)).toEqual([0, 7, 8, 9, 2]);
    expect(tokenizer.encode('Rechnung ✓', 16)).toEqual([0, 7, 4, 3, 2]);
    expect(tokenizer.padId).toBe(1);
  });
});
