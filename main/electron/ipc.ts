import { CALL_NAMES, type CallName, type DesktopHandlers, type EventName } from '../../common/ipc.ts';
import {
  dispatchCall,
  forwardEvents,
  type DesktopEventSource,
  type DispatchResult,
} from '../core/shell/ipc-dispatch.ts';
import { APP_ORIGIN } from './routes.ts';

/**
 * The Electron IPC of the DesktopApi contract. One `ipcMain.handle('desktop:<call>')` per call of the contract (a loop,
 * so a new call cannot be forgotten); each handler first checks who is asking (the top frame of our own window, on the
 * app:// origin: not an iframe, not a page the window was tricked into loading) and then goes through the shared
 * dispatcher, which parses the input with the contract's schema. Handlers answer with an envelope
 * ({ ok, result } | { ok: false, error }) because Electron turns a thrown error into "Error invoking remote method…"
 * and drops its fields; the preload unwraps it. Nothing here imports electron at run time, so it is tested under Node.
 * The preload (preload/preload.ts) uses the same channel names; it may not import this module.
 */

export const CALL_CHANNEL_PREFIX = 'desktop:';
export const EVENT_CHANNEL = 'desktop:event';

export function callChannel(name: CallName): string {
  return `${CALL_CHANNEL_PREFIX}${name}`;
}

/** The frame an IPC message came from, as far as the trust decision needs it. */
export interface SenderInfo {
  url: string;
  isTopFrame: boolean;
}

/** Only the app's own page, in the top frame of the window, may call the app. */
export function isTrustedSender(sender: SenderInfo | null | undefined): boolean {
  if (!sender?.isTopFrame) return false;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return false;
  }
  // URL.origin is "null" for schemes Node does not know, so compare the parts of the app's origin instead.
  return `${url.protocol}//${url.host}` === APP_ORIGIN && url.username === '' && url.password === '';
}

/** The part of ipcMain used here (ipcMain itself satisfies it). */
export interface InvokeRegistry<E> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export const FOREIGN_SENDER_ERROR = 'Refused: only the app window may call the desktop app';

/**
 * Registers every call of the contract; `senderOf` tells the frame of an event (null when it is not our window at
 * all). Returns the function that removes the handlers again.
 */
export function registerDesktopIpc<E>(
  ipc: InvokeRegistry<E>,
  handlers: DesktopHandlers,
  senderOf: (event: E) => SenderInfo | null,
): () => void {
  for (const name of CALL_NAMES) {
    ipc.handle(callChannel(name), async (event, ...args): Promise<DispatchResult> => {
      if (!isTrustedSender(senderOf(event)))
        return { ok: false, error: { message: FOREIGN_SENDER_ERROR, status: 403 } };
      if (args.length > 1) return { ok: false, error: { message: `${name}: expected at most one argument` } };
      return dispatchCall(handlers, name, args[0]);
    });
  }
  return () => {
    for (const name of CALL_NAMES) ipc.removeHandler(callChannel(name));
  };
}

/** The events of the contract, sent to the window as ('desktop:event', name, payload). */
export function forwardDesktopEvents(
  source: DesktopEventSource,
  send: (channel: typeof EVENT_CHANNEL, event: EventName, payload: unknown) => void,
  onInvalid?: (event: EventName, problem: string) => void,
): () => void {
  return forwardEvents(source, (event, payload) => send(EVENT_CHANNEL, event, payload), onInvalid);
}
