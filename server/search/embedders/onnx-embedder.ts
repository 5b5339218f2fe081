import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { l2Normalize, type Embedder } from './embedder.ts';
import { loadTokenizer, type Tokenizer } from './tokenizer.ts';

export interface OnnxEmbedderConfig {
  /** A directory with model.onnx (or onnx/model.onnx) and tokenizer.json or vocab.txt. */
  modelDir: string;
  /** Tokens per text, special tokens included (default 512, the limit of BERT-sized models). */
  maxTokens?: number;
  batchSize?: number;
}

type OrtModule = typeof import('onnxruntime-node');

/**
 * A local sentence-embedding model run by onnxruntime-node: tokenise, run, mean-pool the token vectors over the
 * attention mask (unless the model already outputs one vector per text), L2-normalise.
 * Inputs are fed by name: input_ids, attention_mask and token_type_ids, whichever the model declares.
 */
export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly ort: OrtModule;
  private readonly session: InferenceSession;
  private readonly tokenizer: Tokenizer;
  private readonly maxTokens: number;
  private readonly batchSize: number;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(parts: {
    ort: OrtModule;
    session: InferenceSession;
    tokenizer: Tokenizer;
    id: string;
    dimensions: number;
    config: OnnxEmbedderConfig;
  }) {
    this.ort = parts.ort;
    this.session = parts.session;
    this.tokenizer = parts.tokenizer;
    this.id = parts.id;
    this.dimensions = parts.dimensions;
    this.maxTokens = parts.config.maxTokens ?? 512;
    this.batchSize = parts.config.batchSize ?? 16;
  }

  static async load(config: OnnxEmbedderConfig): Promise<OnnxEmbedder> {
    let ort: OrtModule;
    try {
      ort = await import('onnxruntime-node');
    } catch (error) {
      throw new Error(
        `The ONNX embedder needs the npm package onnxruntime-node, which could not be loaded: ${String(error)}`,
        { cause: error },
      );
    }
    const dir = resolve(config.modelDir);
    const bytes = await readFirst([join(dir, 'model.onnx'), join(dir, 'onnx', 'model.onnx')]);
    const session = await ort.InferenceSession.create(bytes, { graphOptimizationLevel: 'all' });
    if (!session.inputNames.includes('input_ids')) {
      throw new Error(`ONNX model in ${dir} has no input named input_ids (inputs: ${session.inputNames.join(', ')})`);
    }
    const tokenizer = await loadTokenizer(dir);
    // The id names the exact weights, so swapping the model file re-embeds the archive.
    const id = `onnx:${basename(dir)}:${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
    const probe = new OnnxEmbedder({ ort, session, tokenizer, id, dimensions: 0, config });
    const [vector] = await probe.embed(['dimension probe']);
    if (!vector || vector.length === 0) throw new Error(`ONNX model in ${dir} produced an empty embedding`);
    return new OnnxEmbedder({ ort, session, tokenizer, id, dimensions: vector.length, config });
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    // One run at a time: onnxruntime already uses every core for a single run.
    const run = this.queue.then(() => this.embedNow(texts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async embedNow(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      out.push(...(await this.runBatch(texts.slice(start, start + this.batchSize))));
    }
    return out;
  }

  private async runBatch(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.tokenizer.encode(text, this.maxTokens));
    const batch = encoded.length;
    const length = Math.max(1, ...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(batch * length).fill(BigInt(this.tokenizer.padId));
    const mask = new BigInt64Array(batch * length);
    encoded.forEach((tokens, row) =>
      tokens.forEach((token, i) => {
        ids[row * length + i] = BigInt(token);
        mask[row * length + i] = 1n;
      }),
    );
    const dims = [batch, length];
    const feeds: Record<string, Tensor> = {};
    for (const name of this.session.inputNames) {
      const values =
        name === 'input_ids'
          ? ids
          : name === 'attention_mask'
            ? mask
            : name === 'token_type_ids'
              ? new BigInt64Array(batch * length)
              : null;
      if (!values)
        throw new Error(
          `ONNX model input ${name} is not one the embedder can feed (input_ids, attention_mask, token_type_ids)`,
        );
      feeds[name] = this.tensor(name, values, dims);
    }
    const outputs = await this.session.run(feeds);
    const output = pickOutput(outputs, this.session.outputNames);
    if (output.type !== 'float32') throw new Error(`ONNX model output is ${output.type}; only float32 is supported`);
    const data = output.data as Float32Array;
    const shape = output.dims;
    if (shape.length === 2 && shape[0] === batch) {
      const width = shape[1]!;
      return encoded.map((_, row) => l2Normalize(data.slice(row * width, (row + 1) * width)));
    }
    if (shape.length === 3 && shape[0] === batch && shape[1] === length) {
      const width = shape[2]!;
      return encoded.map((tokens, row) => {
        // Mean over the real tokens only: padding must not pull short texts towards each other.
        const pooled = new Float32Array(width);
        for (let t = 0; t < tokens.length; t++) {
          const base = (row * length + t) * width;
          for (let i = 0; i < width; i++) pooled[i] = pooled[i]! + data[base + i]!;
        }
        for (let i = 0; i < width; i++) pooled[i] = pooled[i]! / tokens.length;
        return l2Normalize(pooled);
      });
    }
    throw new Error(
      `ONNX model output has shape [${shape.join(', ')}]; expected [batch, dims] or [batch, tokens, dims]`,
    );
  }

  /** int64 unless the model declares int32 inputs (some exports do). */
  private tensor(name: string, values: BigInt64Array, dims: number[]): Tensor {
    const meta = this.session.inputMetadata.find((m) => m.name === name);
    if (meta?.isTensor && meta.type === 'int32')
      return new this.ort.Tensor('int32', Int32Array.from(values, Number), dims);
    return new this.ort.Tensor('int64', values, dims);
  }
}

/** A pooled sentence vector if the model has one, else the token vectors to pool. */
function pickOutput(outputs: InferenceSession.OnnxValueMapType, names: readonly string[]): Tensor {
  for (const preferred of [
    'sentence_embedding',
    'sentence_embeddings',
    'embeddings',
    'last_hidden_state',
    'token_embeddings',
  ]) {
    const value = outputs[preferred];
    if (value) return value as Tensor;
  }
  const first = outputs[names[0]!];
  if (!first) throw new Error('ONNX model produced no output');
  return first as Tensor;
}

async function readFirst(paths: string[]): Promise<Uint8Array> {
  for (const path of paths) {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`No ONNX model found: looked for ${paths.join(' and ')}`);
}
