import { SCOPES } from '../../common/archive-types.ts';
import { startArchiveService, type RunningArchiveService } from '../../server/archive-service.ts';
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from '../../server/auth/api-keys.ts';
import type { ServiceLimits } from '../../server/config.ts';
import type { KeyStore } from './keychain/key-store.ts';

/** The key of the embedded service is found under this name, whatever port the service got this time. */
export const localProfile = (dataDir: string): string => `local:${dataDir}`;
const APP_KEY_NAME = 'desktop app (local mode)';

/** Overrides of the embedded service's limits (tests and benchmarks tighten them). */
export type LocalArchiveLimits = Partial<ServiceLimits>;

export interface LocalArchive {
  url: string;
  apiKey: string;
  dataDir: string;
  service: RunningArchiveService;
  stop(): Promise<void>;
}

/**
 * Local mode: the embedded Archive Service from server/ on 127.0.0.1 with a random free port and a key of its own,
 * kept in the key store. A stored key that the archive no longer accepts (revoked, or a store from another data
 * directory) is replaced; replaced app keys are revoked so they do not pile up when keys only live for a session.
 */
export async function startLocalArchive(options: {
  dataDir: string;
  keys: KeyStore;
  limits?: LocalArchiveLimits;
  workers?: number;
  log?: (line: string) => void;
}): Promise<LocalArchive> {
  const log = options.log ?? (() => {});
  const service = await startArchiveService({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    port: 0,
    limits: options.limits,
    workers: options.workers,
  });
  try {
    const profile = localProfile(options.dataDir);
    let apiKey = await options.keys.get(profile);
    if (!apiKey || !(await verifyApiKey(service.db, apiKey))) {
      for (const old of await listApiKeys(service.db))
        if (old.name === APP_KEY_NAME && !old.revoked_at) await revokeApiKey(service.db, old.id);
      apiKey = (
        await createApiKey(service.db, { name: APP_KEY_NAME, role: 'editor', scopes: [...SCOPES], spaces: null })
      ).key;
      await options.keys.set(profile, apiKey);
      log('local archive: created the app key');
    }
    await waitUntilAnswering(service.url);
    log(`local archive: ${service.url} (data in ${options.dataDir})`);
    return { url: service.url, apiKey, dataDir: options.dataDir, service, stop: () => service.close() };
  } catch (error) {
    await service.close();
    throw error;
  }
}

async function waitUntilAnswering(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) return;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline)
      throw new Error(`The local archive did not answer at ${url} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
