/**
 * combineHandlers: the features' handler sets become one DesktopHandlers, and the type refuses a channel handled by two
 * features (an object spread would silently keep the last one) or by none. The refusals are checked by `tsc -b`
 * through the @ts-expect-error lines below: without the check they would be unused, which tsc reports.
 */
import { describe, expect, it } from 'vitest';
import { CALL_NAMES } from '../../common/ipc.ts';
import { combineHandlers, type HandlersOf } from '../../main/core/handlers/handler-set.ts';

/** Handlers for the channels of the given groups (`documents` → documents.*), each answering its channel's name. */
function answering<G extends string>(...groups: G[]): HandlersOf<G> {
  const names = CALL_NAMES.filter((name) => groups.some((group) => name.startsWith(`${group}.`)));
  // Built from the name list at run time, so TypeScript cannot see it is exactly HandlersOf<G>.
  return Object.fromEntries(names.map((name) => [name, async () => name])) as unknown as HandlersOf<G>;
}

const OTHER_GROUPS = [
  'status',
  'connection',
  'library',
  'catalog',
  'documents',
  'events',
  'uploads',
  'folders',
  'dialogs',
] as const;

describe('combineHandlers', () => {
  it("answers every channel of the contract with its feature's handler", async () => {
    const handlers = combineHandlers({ settings: answering('settings'), rest: answering(...OTHER_GROUPS) });
    expect(Object.keys(handlers).sort()).toEqual([...CALL_NAMES].sort());
    expect(await handlers['settings.get'](undefined)).toBe('settings.get');
    expect(await handlers['dialogs.pickFolder']({})).toBe('dialogs.pickFolder');
  });

  it('refuses, at compile time, a channel handled twice or not at all', () => {
    const handledTwice = () =>
      // @ts-expect-error -- settings.get and settings.update would be handled by two features
      combineHandlers({ settings: answering('settings'), rest: answering('settings', ...OTHER_GROUPS) });
    // @ts-expect-error -- the settings channels would be handled by none
    const unhandled = () => combineHandlers({ rest: answering(...OTHER_GROUPS) });
    expect([handledTwice, unhandled]).toHaveLength(2);
  });
});
