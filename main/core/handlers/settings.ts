import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/**
 * The settings as a whole; the services follow their changes through the store's onChange. An update answers once
 * the core follows it: a key stored next goes to the new service, and a failed reconnect shows in the status.
 */
export function settingsHandlers(
  services: Pick<DesktopServices, 'settings' | 'connectionReady' | 'switchKeyStorage'>,
): HandlersOf<'settings'> {
  return {
    'settings.get': async () => services.settings.get(),
    'settings.update': async (patch) => {
      // The key moves first: a store that cannot work (no keychain) refuses, and the setting stays as it was.
      if (patch.key_storage && patch.key_storage !== services.settings.get().key_storage)
        await services.switchKeyStorage(patch.key_storage);
      const next = await services.settings.update(patch);
      if (patch.connection) await services.connectionReady();
      return next;
    },
  };
}
