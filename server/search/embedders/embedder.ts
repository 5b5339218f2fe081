import { z } from 'zod';

/** Turns texts into vectors whose dot product measures how alike the texts are. */
export interface Embedder {
  /** Model id, stored with each vector: vectors of different ids are never compared. */
  readonly id: string;
  readonly dimensions: number;
  /** One L2-normalised vector per text, in order (an empty text may give the zero vector). */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Optional: embeds documents given as weighted fields. An embedder that can weigh a title above body text
   * says so here; otherwise callers join the fields and use embed().
   */
  embedDocuments?(documents: ReadonlyArray<readonly DocumentField[]>): Promise<Float32Array[]>;
}

export interface DocumentField {
  text: string;
  weight: number;
}

export type EmbedderConfig =
  | { kind: 'hashed'; dimensions?: number }
  | { kind: 'onnx'; modelDir: string; maxTokens?: number; batchSize?: number }
  | {
      kind: 'openai';
      baseUrl: string;
      model: string;
      apiKey?: string;
      dimensions?: number;
      timeoutMs?: number;
      batchSize?: number;
    };

export const embedderConfigSchema: z.ZodType<EmbedderConfig> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('hashed'), dimensions: z.number().int().min(64).max(4096).optional() }),
  z.strictObject({
    kind: z.literal('onnx'),
    modelDir: z.string().min(1),
    maxTokens: z.number().int().min(8).max(8192).optional(),
    batchSize: z.number().int().min(1).max(256).optional(),
  }),
  z.strictObject({
    kind: z.literal('openai'),
    baseUrl: z.url(),
    model: z.string().min(1),
    apiKey: z.string().min(1).optional(),
    dimensions: z.number().int().min(1).max(16384).optional(),
    timeoutMs: z.number().int().min(100).optional(),
    batchSize: z.number().int().min(1).max(2048).optional(),
  }),
]);

/** Builds the configured embedder. ONNX and OpenAI-compatible providers are loaded only when asked for. */
export async function createEmbedder(config: EmbedderConfig = { kind: 'hashed' }): Promise<Embedder> {
  switch (config.kind) {
    case 'hashed': {
      const { HashedEmbedder } = await import('./hashed-embedder.ts');
      return new HashedEmbedder(config.dimensions);
    }
    case 'onnx': {
      const { OnnxEmbedder } = await import('./onnx-embedder.ts');
      return OnnxEmbedder.load(config);
    }
    case 'openai': {
      const { OpenAiEmbedder } = await import('./openai-embedder.ts');
      return OpenAiEmbedder.create(config);
    }
  }
}

/**
 * Reads the embedder configuration from the environment: ARCHIVE_EMBEDDER = hashed (default) | onnx | openai,
 * ARCHIVE_EMBEDDER_MODEL_DIR (onnx), ARCHIVE_EMBEDDER_BASE_URL, ARCHIVE_EMBEDDER_MODEL, ARCHIVE_EMBEDDER_API_KEY (openai).
 */
export function embedderConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbedderConfig {
  const kind = env.ARCHIVE_EMBEDDER ?? 'hashed';
  const raw =
    kind === 'onnx'
      ? { kind, modelDir: env.ARCHIVE_EMBEDDER_MODEL_DIR }
      : kind === 'openai'
        ? {
            kind,
            baseUrl: env.ARCHIVE_EMBEDDER_BASE_URL,
            model: env.ARCHIVE_EMBEDDER_MODEL,
            ...(env.ARCHIVE_EMBEDDER_API_KEY ? { apiKey: env.ARCHIVE_EMBEDDER_API_KEY } : {}),
          }
        : { kind };
  const parsed = embedderConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`Invalid embedder configuration (ARCHIVE_EMBEDDER=${kind}): ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Scales a vector to length 1 in place; a zero vector stays zero. */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * scale;
  }
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
