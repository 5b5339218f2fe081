import type { DesktopApi, IpcError } from '../../../common/ipc.ts';

declare global {
  interface Window {
    desktop?: DesktopApi;
  }
}

let api: DesktopApi | undefined;

export function setDesktop(value: DesktopApi): void {
  api = value;
}

/** The one way the renderer reaches the app: window.desktop (Electron preload) or the browser shell's bridge. */
export function desktop(): DesktopApi {
  if (!api) throw new Error('window.desktop is not ready');
  return api;
}

/**
 * The message of a rejected desktop call, whatever shape the bridge gave it: an IpcError (a plain object, its schema
 * issues first) or Electron's wrapped Error. Other caught values take errorMessage of common/errors.ts.
 */
export function callErrorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as Partial<IpcError> & { message?: unknown };
    if (Array.isArray(e.issues) && e.issues.length > 0) return e.issues.join('; ');
    if (typeof e.message === 'string')
      return e.message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
  }
  return String(error);
}
