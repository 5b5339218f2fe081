import { readFileSync } from 'node:fs';
import Conf from 'conf';
import { errorMessage } from '../../../common/errors.ts';
import { CorruptSettingsError, type SettingsBackend } from './settings-backend.ts';

/** What SettingsStore needs of a conf instance; electron-store instances have the same shape. */
export interface ConfLikeStore {
  readonly path: string;
  store: Record<string, unknown>;
}

/**
 * Options every conf-compatible store must be created with. conf (and electron-store) parse the file in their
 * constructor and throw on broken JSON, or with `clearInvalidConfig` silently empty it; a lenient parse lets the
 * store open so that SettingsStore reads the file itself and moves a broken one aside instead. No conf schema,
 * defaults or migrations: zod and migrations.ts own validation and versioning.
 */
export const CONF_STORE_OPTIONS = {
  clearInvalidConfig: false,
  deserialize: (text: string): Record<string, unknown> => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return {};
    }
  },
  /** Folder paths and upload defaults are nobody else's business. */
  configFileMode: 0o600,
} as const;

export interface ConfBackendOptions {
  /** Names the per-user config directory (env-paths); ignored when `cwd` is given. */
  projectName?: string;
  /** The directory of the settings file; tests pass a temp dir. */
  cwd?: string;
  /** File name without extension; default 'settings'. */
  configName?: string;
}

/** Settings in a JSON file through conf, for plain Node (tests, the browser shell, the headless agent). */
export function openConfBackend(options: ConfBackendOptions): SettingsBackend {
  const conf = new Conf<Record<string, unknown>>({
    ...CONF_STORE_OPTIONS,
    projectName: options.projectName ?? 'desktop-archive',
    // conf appends "-nodejs" by default; without it the file sits where the Electron app's data lives on Linux.
    projectSuffix: '',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    configName: options.configName ?? 'settings',
  });
  return confStoreBackend(conf);
}

/** Adapts a conf or electron-store instance created with CONF_STORE_OPTIONS. */
export function confStoreBackend(store: ConfLikeStore): SettingsBackend {
  return {
    path: store.path,
    read(): unknown {
      let text: string;
      try {
        text = readFileSync(store.path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const reason = text.trim() === '' ? 'the file is empty' : `not valid JSON (${errorMessage(error)})`;
        throw new CorruptSettingsError(reason);
      }
    },
    write(value): void {
      store.store = { ...value };
    },
  };
}
