import type { DesktopApi, IpcError } from '../../../common/ipc.ts';

/** Hooks an Electron preload may add beside window.desktop (dropped-file paths, a native folder picker). */
export interface DesktopFiles {
  pathFor(file: File): string;
  pickFolder?(): Promise<string | null>;
  pickFiles?(): Promise<string[]>;
}

declare global {
  interface Window {
    desktop?: DesktopApi;
    desktopFiles?: DesktopFiles;
  }
}

let api: DesktopApi | undefined;

export function setDesktop(value: DesktopApi): void { api = value; }

/** The one way the renderer reaches the app: window.desktop (Electron preload) or the browser shell's bridge. */
export function desktop(): DesktopApi {
  if (!api) throw new Error('window.desktop is not ready');
  return api;
}

/** The message of a rejected call, whatever shape the bridge gave it. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as Partial<IpcError> & { message?: unknown };
    if (Array.isArray(e.issues) && e.issues.length > 0) return e.issues.join('; ');
    if (typeof e.message === 'string') return e.message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
  }
  return String(error);
}

/** A path picked with a native dialog, when the shell offers one. */
export function hasFolderPicker(): boolean {
  return typeof window.desktopFiles?.pickFolder === 'function';
}
