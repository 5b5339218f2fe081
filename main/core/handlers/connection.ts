import { connectionProblem } from '../../../common/connection-problems.ts';
import { errorMessage } from '../../../common/errors.ts';
import type { CallOutput, CallParsedInput } from '../../../common/ipc.ts';
import { ArchiveClient } from '../client/archive-client.ts';
import type { DesktopCore } from '../desktop-core.ts';
import { profileId } from '../keychain/key-store.ts';
import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/** The connection's status, trying a service and a key, and storing the key. */
export function connectionHandlers(
  services: Pick<DesktopServices, 'core' | 'status' | 'emitStatus' | 'syncSoon'>,
): HandlersOf<'status' | 'connection'> {
  return {
    'status.get': async () => services.status(),
    'connection.test': async (input) => testConnection(services.core(), input),
    'connection.setKey': async ({ api_key }) => {
      await services.core().setApiKey(api_key);
      services.emitStatus();
      services.syncSoon();
    },
  };
}

/**
 * Tries a service and a key without storing either: local mode tries the running client; a hosted URL gets a client
 * of its own, with the given key or the one stored for that URL.
 */
async function testConnection(
  core: DesktopCore,
  input: CallParsedInput<'connection.test'>,
): Promise<CallOutput<'connection.test'>> {
  let probe: ArchiveClient;
  let owned = false;
  if (input.mode === 'local' || !input.base_url) {
    if (input.mode === 'hosted') return { ok: false, error: connectionProblem('urlMissing'), key: null, spaces: [] };
    probe = core.client;
  } else {
    const stored = await core.keys.get(profileId(input.base_url)).catch(() => null);
    const apiKey = input.api_key ?? stored;
    if (!apiKey) return { ok: false, error: connectionProblem('keyMissing'), key: null, spaces: [] };
    probe = new ArchiveClient({ baseUrl: input.base_url, apiKey, maxAttempts: 1, headersTimeoutMs: 10_000 });
    owned = true;
  }
  try {
    const key = await probe.me();
    const spaces = key.scopes.includes('spaces:read') ? await probe.listSpaces() : [];
    return { ok: true, error: null, key, spaces };
  } catch (error) {
    return { ok: false, error: errorMessage(error), key: null, spaces: [] };
  } finally {
    if (owned) await probe.close();
  }
}
