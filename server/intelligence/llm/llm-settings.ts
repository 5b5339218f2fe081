import { z } from 'zod';
import { errorMessage } from '../../../common/errors.ts';
import type { Sql } from '../../db/sql.ts';
import {
  checkBaseUrl,
  checkBounded,
  checkModel,
  checkVariableName,
  LLM_BOUNDS,
  LLM_DEFAULTS,
  type LlmJobSetting,
} from './llm-config.ts';

/** The row of the settings table that holds the archive's choice. */
const SETTING_KEY = 'llm_extractor';

const storedSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    base_url: z.string(),
    model: z.string(),
    /** The key's source: the name of a variable of the service's environment, or the key itself (stored in the archive). */
    api_key_env: z.string().nullable(),
    api_key: z.string().nullable(),
    timeout_ms: z.number().int(),
    concurrency: z.number().int(),
  }),
]);

/** The archive's own setting. `enabled: false` (from `llm off`) wins over the environment. */
export type StoredLlmSetting = z.infer<typeof storedSchema>;
type EnabledSetting = Extract<StoredLlmSetting, { enabled: true }>;

/** Where the effective setting comes from, as `llm show` and the service see it. */
export type LlmSettingOrigin = 'archive' | 'environment' | 'none';

/** The effective setting, with the key described, never included. */
export interface LlmSettingView {
  enabled: boolean;
  origin: LlmSettingOrigin;
  base_url: string | null;
  model: string | null;
  api_key: { source: 'none' } | { source: 'archive' } | { source: 'environment'; variable: string };
  timeout_ms: number | null;
  concurrency: number | null;
}

/** The environment variables that configure the extractor for an archive without a setting of its own. */
export const LLM_ENV = {
  baseUrl: 'ARCHIVE_LLM_BASE_URL',
  model: 'ARCHIVE_LLM_MODEL',
  apiKey: 'ARCHIVE_LLM_API_KEY',
  timeoutMs: 'ARCHIVE_LLM_TIMEOUT_MS',
  concurrency: 'ARCHIVE_LLM_CONCURRENCY',
} as const;

export async function readStoredLlmSetting(db: Sql): Promise<StoredLlmSetting | null> {
  const row = await db.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', SETTING_KEY);
  if (!row) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    parsed = null;
  }
  const result = storedSchema.safeParse(parsed);
  if (!result.success)
    throw new Error(`The archive's ${SETTING_KEY} setting is damaged; set it again with "llm set" or "llm off"`);
  return result.data;
}

export async function writeLlmSetting(db: Sql, setting: StoredLlmSetting): Promise<void> {
  await db.run(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    SETTING_KEY,
    JSON.stringify(storedSchema.parse(setting)),
  );
}

/** The setting the environment gives (ARCHIVE_LLM_*), checked; null when ARCHIVE_LLM_BASE_URL is not set. */
export function llmSettingFromEnv(env: NodeJS.ProcessEnv): EnabledSetting | null {
  const baseUrl = env[LLM_ENV.baseUrl];
  if (!baseUrl) return null;
  const timeout = env[LLM_ENV.timeoutMs];
  const concurrency = env[LLM_ENV.concurrency];
  return {
    enabled: true,
    base_url: checkBaseUrl(baseUrl, LLM_ENV.baseUrl),
    model: checkModel(env[LLM_ENV.model], LLM_ENV.model),
    api_key_env: env[LLM_ENV.apiKey] ? LLM_ENV.apiKey : null,
    api_key: null,
    timeout_ms: timeout ? checkBounded(timeout, LLM_ENV.timeoutMs, LLM_BOUNDS.timeoutMs) : LLM_DEFAULTS.timeoutMs,
    concurrency: concurrency
      ? checkBounded(concurrency, LLM_ENV.concurrency, LLM_BOUNDS.concurrency)
      : LLM_DEFAULTS.concurrency,
  };
}

/** The archive's setting, else the environment's; which one, and whether the extractor is on. */
export async function effectiveLlmSetting(
  db: Sql,
  env: NodeJS.ProcessEnv,
): Promise<{ setting: StoredLlmSetting | null; origin: LlmSettingOrigin }> {
  const stored = await readStoredLlmSetting(db);
  if (stored) return { setting: stored, origin: 'archive' };
  const fromEnv = llmSettingFromEnv(env);
  return fromEnv ? { setting: fromEnv, origin: 'environment' } : { setting: null, origin: 'none' };
}

export function viewOfLlmSetting(setting: StoredLlmSetting | null, origin: LlmSettingOrigin): LlmSettingView {
  if (!setting?.enabled) {
    return {
      enabled: false,
      origin,
      base_url: null,
      model: null,
      api_key: { source: 'none' },
      timeout_ms: null,
      concurrency: null,
    };
  }
  const apiKey: LlmSettingView['api_key'] = setting.api_key_env
    ? { source: 'environment', variable: setting.api_key_env }
    : setting.api_key
      ? { source: 'archive' }
      : { source: 'none' };
  return {
    enabled: true,
    origin,
    base_url: setting.base_url,
    model: setting.model,
    api_key: apiKey,
    timeout_ms: setting.timeout_ms,
    concurrency: setting.concurrency,
  };
}

/**
 * What the processor hands a job: nothing while the extractor is off (the default), else the resolved configuration,
 * or the reason it cannot run (a damaged setting, an invalid variable, the key's variable unset), which the job notes.
 */
export async function llmJobSetting(db: Sql, env: NodeJS.ProcessEnv): Promise<LlmJobSetting | undefined> {
  try {
    const { setting } = await effectiveLlmSetting(db, env);
    if (!setting?.enabled) return undefined;
    let apiKey = setting.api_key;
    if (setting.api_key_env) {
      const variable = checkVariableName(setting.api_key_env, 'the API key variable');
      apiKey = env[variable] ?? null;
      if (!apiKey) return { unavailable: `the API key variable ${variable} is not set in the service's environment` };
    }
    return {
      config: {
        baseUrl: setting.base_url,
        model: setting.model,
        apiKey,
        timeoutMs: setting.timeout_ms,
        concurrency: setting.concurrency,
      },
    };
  } catch (error) {
    return { unavailable: errorMessage(error) };
  }
}
