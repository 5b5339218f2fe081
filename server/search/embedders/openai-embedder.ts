import { errorMessage } from '../../../common/errors.ts';
import { l2Normalize, type Embedder } from './embedder.ts';

export interface OpenAiEmbedderConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Vector length. Sent to the server (OpenAI's text-embedding-3 models shorten to it); probed when omitted. */
  dimensions?: number;
  timeoutMs?: number;
  batchSize?: number;
  /** Retries after HTTP 429/5xx or a network error (not after a timeout). */
  retries?: number;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: Array<{ embedding?: unknown; index?: unknown }>;
}

/**
 * Any server speaking OpenAI's embeddings API (OpenAI, Azure-style proxies, Ollama, LM Studio, llama.cpp, vLLM):
 * POST {baseUrl}/embeddings { model, input: string[] } → { data: [{ embedding, index }] }.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly config: OpenAiEmbedderConfig;
  private readonly url: string;

  private constructor(config: OpenAiEmbedderConfig, dimensions: number) {
    this.config = config;
    this.url = `${config.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.dimensions = dimensions;
    this.id = `openai:${config.model}:${dimensions}`;
  }

  /** Creates the embedder; without configured dimensions it embeds one probe text to learn them (so the server must answer). */
  static async create(config: OpenAiEmbedderConfig): Promise<OpenAiEmbedder> {
    if (config.dimensions) return new OpenAiEmbedder(config, config.dimensions);
    const probe = new OpenAiEmbedder(config, 0);
    const [vector] = await probe.request(['dimension probe']);
    if (!vector || vector.length === 0) throw new Error(`${probe.describe()} returned an empty embedding`);
    return new OpenAiEmbedder(config, vector.length);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    // The API rejects empty strings; an empty text has the zero vector anyway.
    const todo = texts.flatMap((text, i) => (text.trim() ? [i] : []));
    const batchSize = this.config.batchSize ?? 64;
    for (let start = 0; start < todo.length; start += batchSize) {
      const batch = todo.slice(start, start + batchSize);
      const vectors = await this.request(batch.map((i) => texts[i]!));
      batch.forEach((textIndex, i) => {
        const vector = vectors[i]!;
        if (this.dimensions && vector.length !== this.dimensions) {
          throw new Error(`${this.describe()} returned ${vector.length} dimensions, expected ${this.dimensions}`);
        }
        out[textIndex] = vector;
      });
    }
    return out;
  }

  private describe(): string {
    return `Embedding endpoint ${this.url} (model ${this.config.model})`;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    const body = JSON.stringify({
      model: this.config.model,
      input,
      ...(this.config.dimensions ? { dimensions: this.config.dimensions } : {}),
    });
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    const timeoutMs = this.config.timeoutMs ?? 30_000;
    const retries = this.config.retries ?? 2;
    const doFetch = this.config.fetch ?? fetch;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
          throw new Error(`${this.describe()} did not answer within ${timeoutMs} ms`, { cause: error });
        }
        if (attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        // undici puts the socket's own error (ECONNREFUSED...) in the cause; "fetch failed" alone says nothing.
        const reason = errorMessage(error instanceof Error && error.cause instanceof Error ? error.cause : error);
        throw new Error(`${this.describe()} could not be reached: ${reason}`, { cause: error });
      }
      const text = await response.text();
      if (!response.ok) {
        if (attempt < retries && (response.status === 429 || response.status >= 500)) {
          const retryAfter = Number(response.headers.get('retry-after'));
          await sleep(
            Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 10_000) : backoff(attempt),
          );
          continue;
        }
        throw new Error(`${this.describe()} answered HTTP ${response.status}: ${errorMessageOf(text)}`);
      }
      return this.parse(text, input.length);
    }
  }

  private parse(text: string, expected: number): Float32Array[] {
    let json: EmbeddingsResponse;
    try {
      json = JSON.parse(text) as EmbeddingsResponse;
    } catch {
      throw new Error(`${this.describe()} answered with something that is not JSON: ${text.slice(0, 200)}`);
    }
    if (!Array.isArray(json.data)) throw new Error(`${this.describe()} answered without a data array`);
    if (json.data.length !== expected)
      throw new Error(`${this.describe()} returned ${json.data.length} embeddings for ${expected} inputs`);
    const out: Float32Array[] = new Array<Float32Array>(expected);
    json.data.forEach((item, position) => {
      // index says which input an embedding belongs to; servers are not bound to keep the order.
      const at = typeof item.index === 'number' ? item.index : position;
      if (!Number.isInteger(at) || at < 0 || at >= expected || out[at])
        throw new Error(`${this.describe()} returned a bad or repeated index ${String(item.index)}`);
      if (!Array.isArray(item.embedding) || !item.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new Error(
          `${this.describe()} returned an embedding that is not an array of numbers (base64 encoding is not supported)`,
        );
      }
      out[at] = l2Normalize(Float32Array.from(item.embedding as number[]));
    });
    return out;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number): number => 250 * 2 ** attempt;

function errorMessageOf(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON: show the start of the body
  }
  return text.slice(0, 200) || '(empty body)';
}
