import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { CALL_NAMES, EVENT_NAMES } from '../common/ipc-names.ts';
import type { CallName, DesktopApi, EventName, EventPayload, IpcError } from '../common/ipc.ts';

/**
 * Exposes exactly the DesktopApi contract as `window.desktop`: one function per call (built by looping over the
 * contract), `on(event, listener)` returning its unsubscribe, `pathForFile` (a renderer-local helper: a dropped File's
 * path, which only the renderer process can ask Electron for) and `addFiles` (chosen Files queued by their paths). Nothing else crosses: no ipcRenderer, no event
 * objects (an IpcRendererEvent carries `sender`, which is ipcRenderer itself), no Node. Sandboxed preloads can only
 * require 'electron', so scripts/build-shells.ts bundles this file with the contract into dist/electron/preload.cjs.
 *
 * The channel names are those of main/electron/ipc.ts (the preload may not import main/); the IPC contract test checks
 * that both sides agree.
 */

const CALL_CHANNEL_PREFIX = 'desktop:';
const EVENT_CHANNEL = 'desktop:event';

type Envelope = { ok: true; result: unknown } | { ok: false; error: IpcError };

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}

/**
 * A rejected call: its message for the user. contextBridge copies only the message of an Error into the page (its
 * other fields are lost), which is why the message alone must say what went wrong: the dispatcher's messages do.
 */
function callError(error: IpcError): Error {
  return Object.assign(
    new Error(error.message),
    error.status === undefined ? {} : { status: error.status },
    error.issues === undefined ? {} : { issues: error.issues },
  );
}

function unwrap(reply: unknown): unknown {
  const envelope = reply as Envelope | null;
  if (envelope && envelope.ok === true) return envelope.result;
  if (envelope && envelope.ok === false && typeof envelope.error?.message === 'string') throw callError(envelope.error);
  throw new Error('The desktop app sent an answer the window does not understand');
}

/** Electron's webUtils as far as pathForFile needs it. */
export interface FilePathsLike {
  getPathForFile(file: File): string;
}

export function buildDesktopApi(ipc: IpcRendererLike, files: FilePathsLike): DesktopApi {
  const invoke = async (name: CallName, input: unknown): Promise<unknown> =>
    unwrap(
      await (input === undefined
        ? ipc.invoke(`${CALL_CHANNEL_PREFIX}${name}`)
        : ipc.invoke(`${CALL_CHANNEL_PREFIX}${name}`, input)),
    );
  // Built by a loop over the contract; the one cast says "these are the contract's calls", `satisfies` checks the rest.
  const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (input?: unknown) => invoke(name, input)])) as Omit<
    DesktopApi,
    'on' | 'pathForFile' | 'addFiles'
  >;

  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const onEvent = (_event: IpcRendererEvent, ...args: unknown[]): void => {
    const [name, payload] = args;
    const subscribers = typeof name === 'string' ? listeners.get(name as EventName) : undefined;
    for (const listener of [...(subscribers ?? [])]) {
      try {
        (listener as (payload: unknown) => void)(payload);
      } catch (error) {
        console.error(`desktop: a listener of ${String(name)} failed`, error);
      }
    }
  };
  const subscriberCount = (): number => [...listeners.values()].reduce((n, set) => n + set.size, 0);

  const on = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`Unknown event: ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('on(event, listener): the listener must be a function');
    // One IPC listener for all subscriptions, attached while anyone listens.
    if (subscriberCount() === 0) ipc.on(EVENT_CHANNEL, onEvent);
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const entry = listener as (payload: never) => void;
    set.add(entry);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(entry);
      if (subscriberCount() === 0) ipc.removeListener(EVENT_CHANNEL, onEvent);
    };
  };

  // Electron answers '' for a File that is not on disk (made in the page, or from a virtual file system).
  const pathForFile = (file: File): string | null => {
    try {
      return files.getPathForFile(file) || null;
    } catch {
      return null;
    }
  };

  // The open dialog of a file input is the system's own in Electron, and its files are on disk: their paths go.
  const addFiles: DesktopApi['addFiles'] = async (chosen, options) => {
    const paths = chosen.map((file) => pathForFile(file));
    const missing = chosen.filter((_file, i) => paths[i] === null).map((file) => file.name);
    if (missing.length > 0)
      throw new Error(`These files are not on this computer's disk, so they cannot be queued: ${missing.join(', ')}`);
    return calls['uploads.add']({ ...options, paths: paths as string[] });
  };

  return { ...calls, on, pathForFile, addFiles } satisfies DesktopApi;
}

contextBridge.exposeInMainWorld('desktop', buildDesktopApi(ipcRenderer, webUtils));
