import { errorMessage } from '../../common/errors.ts';
import type { Sql } from '../db/sql.ts';
import {
  checkBaseUrl,
  checkBounded,
  checkModel,
  checkVariableName,
  LLM_BOUNDS,
  LLM_DEFAULTS,
} from '../intelligence/llm/llm-config.ts';
import {
  effectiveLlmSetting,
  LLM_ENV,
  viewOfLlmSetting,
  writeLlmSetting,
  type LlmSettingView,
  type StoredLlmSetting,
} from '../intelligence/llm/llm-settings.ts';

export const LLM_HELP = `Usage: npm run archive -- llm set --base-url URL --model NAME [--api-key-env VAR | --api-key-stdin]
                              [--timeout-ms N] [--concurrency N]
       npm run archive -- llm show
       npm run archive -- llm off

An optional language model reads each document after the rules (off until set). Any OpenAI-compatible chat
endpoint: Ollama (http://127.0.0.1:11434/v1), a llama.cpp server, vLLM, a hosted API. It only fills or replaces
fields with values the document prints; when it fails, the rules' fields stand.

  --base-url URL     the API root, e.g. http://127.0.0.1:11434/v1 (POST URL/chat/completions)
  --model NAME       the model, e.g. llama3.2
  --api-key-env VAR  the service reads the API key from this environment variable when it processes
  --api-key-stdin    read the API key from standard input and store it in the archive
  --timeout-ms N     per request, ${LLM_BOUNDS.timeoutMs.min}-${LLM_BOUNDS.timeoutMs.max} (default ${LLM_DEFAULTS.timeoutMs})
  --concurrency N    requests at once for the whole service, ${LLM_BOUNDS.concurrency.min}-${LLM_BOUNDS.concurrency.max} (default ${LLM_DEFAULTS.concurrency})

"llm set" replaces the whole setting. The API key is never shown. Without a setting in the archive, the service
uses ${Object.values(LLM_ENV).join(', ')} when ${LLM_ENV.baseUrl} is set;
"llm off" turns the model off for this archive whatever the environment says.
Applies to documents processed or reprocessed afterwards.`;

export interface LlmCommandOptions {
  'base-url'?: string;
  model?: string;
  'api-key-env'?: string;
  'api-key-stdin'?: boolean;
  'timeout-ms'?: string;
  concurrency?: string;
}

/** Bad arguments (exit code 2, with the usage). */
export class LlmUsageError extends Error {}

/** `llm set|show|off`: what to print, as JSON and as text. */
export async function llmCommand(
  db: Sql,
  command: string,
  options: LlmCommandOptions,
  io: { env: NodeJS.ProcessEnv; readStdin: () => string },
): Promise<{ json: LlmSettingView; text: string }> {
  if (command === 'set') await writeLlmSetting(db, settingFrom(options, io.readStdin));
  else if (command === 'off') await writeLlmSetting(db, { enabled: false });
  const { setting, origin } = await effectiveLlmSetting(db, io.env);
  const view = viewOfLlmSetting(setting, origin);
  return { json: view, text: describe(view) };
}

function settingFrom(options: LlmCommandOptions, readStdin: () => string): StoredLlmSetting {
  const usage = <T>(check: () => T): T => {
    try {
      return check();
    } catch (error) {
      throw new LlmUsageError(errorMessage(error));
    }
  };
  if (options['base-url'] === undefined)
    throw new LlmUsageError('llm set needs --base-url URL (e.g. http://127.0.0.1:11434/v1)');
  const baseUrl = usage(() => checkBaseUrl(options['base-url'] ?? '', '--base-url'));
  const model = usage(() => checkModel(options.model, '--model'));
  if (options['api-key-env'] !== undefined && options['api-key-stdin']) {
    throw new LlmUsageError('give the API key one way: --api-key-env VAR or --api-key-stdin, not both');
  }
  const apiKeyEnv =
    options['api-key-env'] === undefined
      ? null
      : usage(() => checkVariableName(options['api-key-env'] ?? '', '--api-key-env'));
  let apiKey: string | null = null;
  if (options['api-key-stdin']) {
    apiKey = readStdin().trim();
    if (!apiKey) throw new LlmUsageError('--api-key-stdin read no key from standard input');
    if (/\s/.test(apiKey)) throw new LlmUsageError('--api-key-stdin read more than one word; pipe in the key alone');
  }
  const timeoutMs =
    options['timeout-ms'] === undefined
      ? LLM_DEFAULTS.timeoutMs
      : usage(() => checkBounded(options['timeout-ms'] ?? '', '--timeout-ms', LLM_BOUNDS.timeoutMs));
  const concurrency =
    options.concurrency === undefined
      ? LLM_DEFAULTS.concurrency
      : usage(() => checkBounded(options.concurrency ?? '', '--concurrency', LLM_BOUNDS.concurrency));
  return {
    enabled: true,
    base_url: baseUrl,
    model,
    api_key_env: apiKeyEnv,
    api_key: apiKey,
    timeout_ms: timeoutMs,
    concurrency,
  };
}

function describe(view: LlmSettingView): string {
  if (!view.enabled) {
    return view.origin === 'archive'
      ? 'Language model: off (turned off in this archive)'
      : `Language model: off (not set; ${LLM_ENV.baseUrl} not set either)`;
  }
  const key =
    view.api_key.source === 'environment'
      ? `from the environment variable ${view.api_key.variable}`
      : view.api_key.source === 'archive'
        ? 'stored in the archive (not shown)'
        : 'none';
  return [
    `Language model: on (${view.origin === 'archive' ? 'set in this archive' : `from ${LLM_ENV.baseUrl} in this shell's environment`})`,
    `  base URL     ${view.base_url}`,
    `  model        ${view.model}`,
    `  API key      ${key}`,
    `  timeout      ${view.timeout_ms} ms per request`,
    `  concurrency  ${view.concurrency} request(s) at a time`,
  ].join('\n');
}
