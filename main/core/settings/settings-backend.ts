import type { Settings } from '../../../common/settings.ts';

/**
 * Where the settings file is read and written: `conf` under plain Node (conf-backend.ts), electron-store in the
 * Electron shell (electron-store extends conf, so the same adapter serves both). Synchronous because both are.
 */
export interface SettingsBackend {
  /** The settings file; moved aside by SettingsStore when it cannot be used. */
  readonly path: string;
  /** The parsed file; undefined when there is none yet. Throws CorruptSettingsError when it is not JSON. */
  read(): unknown;
  /** Replaces the whole file atomically (temp file, fsync, rename). */
  write(value: Settings): void;
}

export class CorruptSettingsError extends Error {
  override readonly name = 'CorruptSettingsError';
}
