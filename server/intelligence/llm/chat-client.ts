import { request } from 'undici';
import { errorMessage } from '../../../common/errors.ts';
import type { LlmConfig } from './llm-config.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface JsonSchemaFormat {
  name: string;
  schema: Record<string, unknown>;
}

/** Tries after a 429, a 5xx or a network error (not after a timeout), so three requests at most. */
export const CHAT_RETRIES = 2;
/** An answer larger than this is not a few fields of JSON: it is refused without reading further. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** A Retry-After longer than this is not waited for in full: the job holds an analysis process meanwhile. */
const MAX_RETRY_AFTER_MS = 10_000;

/** Endpoints (base URL + model) that refused `response_format: json_schema`; asked in plain JSON mode from then on. */
const schemaRefused = new Set<string>();

/**
 * One chat completion from an OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp server, vLLM, …), answered as a
 * JSON object: `response_format: { type: "json_schema" }` first, and plain JSON mode (`json_object`) where the server
 * refuses the schema with a 400. Returns the parsed object of the first choice's message.
 */
export async function chatJson(config: LlmConfig, messages: ChatMessage[], format: JsonSchemaFormat): Promise<unknown> {
  const endpoint = `${config.baseUrl}/chat/completions`;
  const describe = `The language model endpoint ${endpoint} (model ${config.model})`;
  const endpointKey = `${config.baseUrl} ${config.model}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  for (let attempt = 0; ; attempt++) {
    const useSchema = !schemaRefused.has(endpointKey);
    const body = JSON.stringify({
      model: config.model,
      messages,
      temperature: 0,
      stream: false,
      response_format: useSchema
        ? { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: format.schema } }
        : { type: 'json_object' },
    });
    let status: number;
    let retryAfter: string | undefined;
    let text: string;
    try {
      const response = await request(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      status = response.statusCode;
      retryAfter = headerValue(response.headers['retry-after']);
      text = await readCapped(response.body, MAX_ANSWER_BYTES, describe);
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
        throw new Error(`${describe} did not answer within ${config.timeoutMs} ms`, { cause: error });
      }
      if (attempt < CHAT_RETRIES) {
        await sleep(backoff(attempt));
        continue;
      }
      throw new Error(`${describe} could not be reached: ${errorMessage(error)}`, { cause: error });
    }
    if (status === 400 && useSchema) {
      // Servers without structured outputs answer 400 to json_schema; JSON mode plus the schema in the prompt remains.
      schemaRefused.add(endpointKey);
      continue;
    }
    if (status === 429 || status >= 500) {
      if (attempt < CHAT_RETRIES) {
        await sleep(retryDelay(retryAfter, attempt));
        continue;
      }
    }
    if (status < 200 || status >= 300) throw new Error(`${describe} answered HTTP ${status}: ${apiErrorText(text)}`);
    return answerObject(text, describe);
  }
}

/** The JSON object in the first choice's message (some models wrap it in a ``` fence even in JSON mode). */
function answerObject(text: string, describe: string): unknown {
  let completion: { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> };
  try {
    completion = JSON.parse(text) as typeof completion;
  } catch {
    throw new Error(`${describe} answered with something that is not JSON: ${text.slice(0, 200)}`);
  }
  const message = completion.choices?.[0]?.message;
  if (typeof message?.refusal === 'string' && message.refusal)
    throw new Error(`${describe} refused: ${message.refusal.slice(0, 200)}`);
  if (typeof message?.content !== 'string') throw new Error(`${describe} answered without a message content`);
  const content = message.content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/u, '$1');
  try {
    return JSON.parse(content) as unknown;
  } catch {
    throw new Error(`${describe} answered with a message that is not JSON: ${content.slice(0, 200)}`);
  }
}

async function readCapped(body: AsyncIterable<Buffer>, limit: number, describe: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw new Error(`${describe} answered with more than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The message of an OpenAI-style error body ({ error: { message } }), else the body's start. */
function apiErrorText(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON: the body's start says what it can
  }
  return text.slice(0, 200) || '(empty body)';
}

const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

function retryDelay(retryAfter: string | undefined, attempt: number): number {
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : backoff(attempt);
}

const backoff = (attempt: number): number => 250 * 2 ** attempt;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
