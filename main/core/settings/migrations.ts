import { randomUUID } from 'node:crypto';
import { SETTINGS_VERSION } from '../../../common/settings.ts';

type Json = Record<string, unknown>;

/**
 * Turns a settings object of version `from` into version `from + 1`. It changes only what it knows and keeps every
 * other field, so a field nobody understands fails validation (and the file is moved aside) instead of vanishing.
 */
export interface SettingsMigration {
  readonly from: number;
  readonly description: string;
  migrate(settings: Json): Json;
}

/**
 * Version 0: the settings of the first previews, before the file carried a `version`. A hosted service was a
 * top-level `server_url` (no URL meant the embedded service), folders were `{ path, space, enabled }` without an id,
 * and the upload pause flag sat at the top level.
 */
const v0ToV1: SettingsMigration = {
  from: 0,
  description: 'server_url becomes connection, folders get ids and space becomes space_id, paused moves into uploads',
  migrate(old) {
    const { server_url: serverUrl, paused, folders, ...rest } = old;
    const next: Json = { ...rest };
    if (!('connection' in rest)) {
      next.connection =
        typeof serverUrl === 'string' && serverUrl.trim() !== ''
          ? { mode: 'hosted', base_url: serverUrl.trim() }
          : { mode: 'local' };
    } else if (serverUrl !== undefined) {
      next.server_url = serverUrl;
    }
    if (paused !== undefined) {
      next.uploads = isObject(rest.uploads) ? { ...rest.uploads, paused } : { paused };
    }
    if (folders !== undefined) {
      next.folders = Array.isArray(folders) ? folders.map(migrateV0Folder) : folders;
    }
    return next;
  },
};

function migrateV0Folder(folder: unknown): unknown {
  if (!isObject(folder)) return folder;
  const { space, ...rest } = folder;
  const next: Json = { id: randomUUID(), ...rest };
  if (typeof space === 'string' && space !== '') next.space_id = space;
  else if (space !== undefined && space !== null && space !== '') next.space = space;
  return next;
}

/**
 * Version 2 adds ui.appearance, ui.language and ui.onboarded, which the renderer kept in the page's localStorage
 * (lost whenever the browser shell's origin changed). The defaults fill the first two; a file that already has a
 * watched folder or a hosted connection belongs to someone who set the app up, so the welcome guide is not shown
 * again. (The renderer also adopts what its localStorage still remembers.) The version is bumped, not just the
 * schema widened, so that an older app reports this file as newer instead of calling it corrupt.
 */
const v1ToV2: SettingsMigration = {
  from: 1,
  description:
    'ui gains appearance, language and onboarded (set up already when there are folders or a hosted connection)',
  migrate(old) {
    const ui = isObject(old.ui) ? old.ui : {};
    if ('onboarded' in ui) return old;
    const folders = Array.isArray(old.folders) && old.folders.length > 0;
    const hosted = isObject(old.connection) && old.connection.mode === 'hosted';
    if (!folders && !hosted) return old;
    return { ...old, ui: { ...ui, onboarded: true } };
  },
};

/** Ordered: entry i migrates version i to i + 1. The last one must reach SETTINGS_VERSION. */
export const SETTINGS_MIGRATIONS: readonly SettingsMigration[] = [v0ToV1, v1ToV2];

export class SettingsMigrationError extends Error {
  override readonly name = 'SettingsMigrationError';
  /** The file was written by a newer version of the app, not damaged. */
  readonly newerVersion: number | undefined;
  constructor(message: string, newerVersion?: number) {
    super(message);
    this.newerVersion = newerVersion;
  }
}

export interface MigrationResult {
  value: Json;
  /** The version the file had; equal to the target when nothing ran. */
  from: number;
  applied: readonly string[];
}

/** Brings a parsed settings file to `target`, one step at a time. A file without `version` is version 0. */
export function migrateSettings(
  raw: unknown,
  migrations: readonly SettingsMigration[] = SETTINGS_MIGRATIONS,
  target: number = SETTINGS_VERSION,
): MigrationResult {
  if (!isObject(raw)) throw new SettingsMigrationError('the file does not hold a JSON object');
  const version = raw.version === undefined ? 0 : raw.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    throw new SettingsMigrationError(`version must be a whole number, got ${JSON.stringify(version)}`);
  }
  if (version > target) {
    throw new SettingsMigrationError(
      `written by a newer version of the app (settings version ${version}, this app reads up to ${target})`,
      version,
    );
  }
  let value: Json = { ...raw };
  const applied: string[] = [];
  for (let at = version; at < target; at += 1) {
    const step = migrations[at];
    if (!step || step.from !== at) throw new SettingsMigrationError(`no migration from settings version ${at}`);
    const { version: _old, ...body } = value;
    value = { ...step.migrate(body), version: at + 1 };
    applied.push(`v${at} → v${at + 1}: ${step.description}`);
  }
  return { value, from: version, applied };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
