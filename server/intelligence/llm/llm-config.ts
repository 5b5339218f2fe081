/**
 * The language-model extractor's configuration: what the archive stores (settings table), what the environment may
 * give instead, and the resolved form an analysis process receives with its job.
 */

/** Resolved for one job: everything the analysis process needs to call the endpoint. */
export interface LlmConfig {
  /** An OpenAI-compatible API root, e.g. http://127.0.0.1:11434/v1 (no trailing slash). */
  baseUrl: string;
  model: string;
  /** The secret itself (resolved in the service's process); never logged, never in a message. */
  apiKey: string | null;
  /** Per request; a request that runs out of it is not retried (a slow model stays slow). */
  timeoutMs: number;
  /** Requests in flight at once for the whole service, across its analysis processes. */
  concurrency: number;
}

/** What a job gets: a configuration, or why a configured extractor cannot run (said in the document's note). */
export type LlmJobSetting = { config: LlmConfig } | { unavailable: string };

export const LLM_DEFAULTS = { timeoutMs: 60_000, concurrency: 1 } as const;
export const LLM_BOUNDS = {
  timeoutMs: { min: 1000, max: 600_000 },
  concurrency: { min: 1, max: 32 },
} as const;

/** An http(s) URL without credentials (the key has its own options, so that it is never shown), trailing slashes cut. */
export function checkBaseUrl(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`${name} must be an http or https URL such as http://127.0.0.1:11434/v1, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http or https URL, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new Error(`${name} must not contain credentials; give the API key with --api-key-env or --api-key-stdin`);
  }
  if (url.search || url.hash)
    throw new Error(`${name} must not have a query or fragment: give the API root, e.g. http://127.0.0.1:11434/v1`);
  return url.href.replace(/\/+$/, '');
}

export function checkModel(raw: string | undefined, name: string): string {
  const model = raw?.trim() ?? '';
  if (!model) throw new Error(`${name} needs a model name, e.g. llama3.2 or qwen2.5:7b`);
  if (model.length > 200) throw new Error(`${name} is longer than 200 characters`);
  return model;
}

/** A whole number within the setting's bounds. */
export function checkBounded(raw: string | number, name: string, bounds: { min: number; max: number }): number {
  const value = typeof raw === 'number' ? raw : /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new Error(`${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${raw}"`);
  }
  return value;
}

/** An environment variable name as POSIX shells allow it. */
export function checkVariableName(raw: string, name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw))
    throw new Error(`${name} must be an environment variable name such as OPENAI_API_KEY, got "${raw}"`);
  return raw;
}
