import type { CallName, DesktopHandlers } from '../../../common/ipc.ts';

/** Answer from what the app holds, whatever the connection is doing: the UI shows a reconnect while it runs. */
const ANSWERED_AT_ONCE: ReadonlySet<CallName> = new Set(['status.get', 'settings.get']);

/**
 * The handlers, each waiting until `settled` resolves before it runs (except the calls above): a call made while the
 * core is being replaced runs on the new one, never on the one being stopped.
 */
export function waitForConnection(handlers: DesktopHandlers, settled: () => Promise<void>): DesktopHandlers {
  const wrapped: Partial<Record<CallName, (input: never) => Promise<unknown>>> = {};
  for (const name of Object.keys(handlers) as CallName[]) {
    const handler = handlers[name] as (input: never) => Promise<unknown>;
    wrapped[name] = ANSWERED_AT_ONCE.has(name)
      ? handler
      : async (input: never) => {
          await settled();
          return handler(input);
        };
  }
  // Every channel of `handlers` is in `wrapped` with the same signature; the loop hides that from the compiler.
  return wrapped as DesktopHandlers;
}
