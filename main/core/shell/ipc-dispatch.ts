import type { EventEmitter } from 'node:events';
import {
  CALLS,
  EVENT_NAMES,
  EVENTS,
  parseCallInput,
  type CallName,
  type DesktopHandlers,
  type EventName,
  type EventPayload,
  type IpcError,
} from '../../../common/ipc.ts';
import { redactSecrets } from '../keychain/redact.ts';

/**
 * The one place where a call from the renderer meets a handler, shared by both shells (Electron IPC and the browser
 * shell's WebSocket): the name must be a call of the contract, the input is parsed with the contract's schema before
 * the handler sees it, and whatever goes wrong comes back as an IpcError (a message for the user, the service's status,
 * the schema's issues), never as a stack trace or a key. It lives in main/core because main/electron must not import
 * main/web and both need it.
 */

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: IpcError };

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(CALLS, name);
}

export async function dispatchCall(
  handlers: DesktopHandlers,
  name: unknown,
  rawInput: unknown,
): Promise<DispatchResult> {
  if (!isCallName(name)) {
    return {
      ok: false,
      error: { message: `Unknown call: ${typeof name === 'string' ? name.slice(0, 100) : typeof name}` },
    };
  }
  let input: unknown;
  try {
    input = parseCallInput(name, rawInput);
  } catch (error) {
    return { ok: false, error: toIpcError(error) };
  }
  try {
    // The contract's handler map is indexed by a union of names; the input was parsed by that very call's schema.
    const handler = handlers[name] as (parsed: unknown) => Promise<unknown>;
    return { ok: true, result: await handler(input) };
  } catch (error) {
    return { ok: false, error: toIpcError(error) };
  }
}

/** What crosses the bridge of an error: its message (keys masked), a numeric status (ArchiveError), schema issues. */
export function toIpcError(error: unknown): IpcError {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Unexpected error';
  const result: IpcError = { message: redactSecrets(message || 'Unexpected error') };
  if (error !== null && typeof error === 'object') {
    const { status, issues } = error as { status?: unknown; issues?: unknown };
    if (typeof status === 'number' && Number.isFinite(status) && status > 0) result.status = status;
    if (Array.isArray(issues) && issues.every((issue) => typeof issue === 'string'))
      result.issues = issues.map(redactSecrets);
  }
  return result;
}

/** What emits the contract's events: DesktopApp (an EventEmitter typed by the contract's events). */
export type DesktopEventSource = Pick<EventEmitter<{ [E in EventName]: [EventPayload<E>] }>, 'on' | 'off'>;

/**
 * Forwards every event of the contract to `send` (a window's webContents, the open sockets); returns the unsubscribe.
 * Each payload is parsed with the contract's schema on the way out, like the calls on the way in: what reaches the
 * renderer is exactly what the contract names (fields it does not name are dropped, so nothing else can leak), and a
 * payload that does not fit is not sent but reported to `onInvalid`. The payloads are small (a progress event is three
 * numbers); parsing costs microseconds.
 */
export function forwardEvents(
  source: DesktopEventSource,
  send: (event: EventName, payload: unknown) => void,
  onInvalid: (event: EventName, problem: string) => void = (event, problem) =>
    console.error(`event ${event} not sent: ${problem}`),
): () => void {
  const subscriptions = EVENT_NAMES.map((event) => {
    const listener = (payload: EventPayload<typeof event>): void => {
      const parsed = EVENTS[event].safeParse(payload);
      if (parsed.success) send(event, parsed.data);
      else
        onInvalid(
          event,
          redactSecrets(parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')),
        );
    };
    source.on(event, listener);
    return () => void source.off(event, listener);
  });
  return () => {
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}
