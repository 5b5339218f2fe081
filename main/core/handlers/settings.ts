import type { DesktopServices } from './desktop-services.ts';
import type { HandlersOf } from './handler-set.ts';

/** The settings as a whole; the services follow their changes through the store's onChange. */
export function settingsHandlers(services: Pick<DesktopServices, 'settings'>): HandlersOf<'settings'> {
  return {
    'settings.get': async () => services.settings.get(),
    'settings.update': async (patch) => services.settings.update(patch),
  };
}
