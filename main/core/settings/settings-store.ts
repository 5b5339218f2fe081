import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { errorMessage } from '../../../common/errors.ts';
import { defaultSettings, settingsSchema, type Settings } from '../../../common/settings.ts';
import { redactSecrets } from '../keychain/redact.ts';
import { migrateSettings, SETTINGS_MIGRATIONS, SettingsMigrationError, type SettingsMigration } from './migrations.ts';
import { moveAside } from './move-aside.ts';
import { findSecret, scrubSecrets } from './scrub-secrets.ts';
import { CorruptSettingsError, type SettingsBackend } from './settings-backend.ts';

export type SettingsInput = z.input<typeof settingsSchema>;

/** Sections merged field by field by a patch; everything else (folders, connection) is replaced whole. */
const SECTIONS = ['uploads', 'sync', 'reminders', 'ui'] as const;
type Section = (typeof SECTIONS)[number];

export type SettingsPatch = { [K in Exclude<keyof SettingsInput, Section | 'version'>]?: SettingsInput[K] } & {
  [K in Section]?: Partial<Settings[K]>;
};

/** A patch, or a function from a copy of the current settings (free to mutate) to the complete new settings. */
export type SettingsUpdate = SettingsPatch | ((current: Settings) => SettingsInput);

export interface SettingsProblem {
  /** corrupt: unreadable or invalid; newer-version: written by a newer app; secret-removed: held an API key. */
  readonly kind: 'corrupt' | 'newer-version' | 'secret-removed';
  /** The settings file. */
  readonly path: string;
  /** Where the unusable file was moved; absent for secret-removed (the file was rewritten without the secret). */
  readonly movedTo?: string;
  readonly reason: string;
  /** A sentence for the user. */
  readonly message: string;
}

export interface SettingsIssue {
  /** Dotted path of the offending field ("folders.0.path"), "settings" for the object itself. */
  readonly path: string;
  readonly message: string;
}

export class SettingsValidationError extends Error {
  override readonly name = 'SettingsValidationError';
  readonly issues: readonly SettingsIssue[];
  constructor(issues: readonly SettingsIssue[]) {
    super(`Invalid settings: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`);
    this.issues = issues;
  }
}

export interface SettingsStoreOptions {
  log?: (line: string) => void;
  /** Stamps the name of a file moved aside. */
  now?: () => Date;
  migrations?: readonly SettingsMigration[];
}

type ChangeListener = (next: Settings, previous: Settings) => void;

/**
 * The app's settings, validated by `settingsSchema`, migrated from older versions on load, written atomically by the
 * backend. A file that cannot be used is moved aside and reported in `problems`, never silently reset.
 */
export class SettingsStore {
  readonly path: string;
  /** What went wrong while loading; the app shows these to the user. */
  readonly problems: readonly SettingsProblem[];
  /** The migrations applied on load, described; empty when the file was current. */
  readonly migrated: readonly string[];
  readonly #backend: SettingsBackend;
  readonly #log: (line: string) => void;
  readonly #listeners = new Set<ChangeListener>();
  #settings: Settings;

  constructor(backend: SettingsBackend, options: SettingsStoreOptions = {}) {
    this.#backend = backend;
    this.path = backend.path;
    this.#log = options.log ?? (() => {});
    const loaded = load(backend, options.migrations ?? SETTINGS_MIGRATIONS, options.now ?? (() => new Date()));
    this.problems = loaded.problems;
    this.migrated = loaded.migrated;
    this.#settings = deepFreeze(loaded.settings);
    for (const step of loaded.migrated) this.#log(`settings ${this.path}: migrated ${step}`);
    for (const problem of loaded.problems) this.#log(problem.message);
  }

  /** The current settings, frozen: change them through update(). */
  get(): Settings {
    return this.#settings;
  }

  /**
   * Validates, writes and publishes new settings. Rejects with a SettingsValidationError naming the field when they
   * are invalid or carry an API key; the file and the current settings are then unchanged.
   */
  async update(change: SettingsUpdate): Promise<Settings> {
    const previous = this.#settings;
    const candidate = typeof change === 'function' ? change(structuredClone(previous)) : applyPatch(previous, change);
    const secretAt = findSecret(candidate);
    if (secretAt !== null) {
      throw new SettingsValidationError([
        { path: secretAt, message: 'an API key must not be stored in settings; it belongs in the OS keychain' },
      ]);
    }
    const parsed = settingsSchema.safeParse(candidate);
    if (!parsed.success) throw new SettingsValidationError(toIssues(parsed.error));
    if (isDeepStrictEqual(parsed.data, previous)) return previous;
    this.#backend.write(parsed.data);
    const next = deepFreeze(parsed.data);
    this.#settings = next;
    for (const listener of [...this.#listeners]) {
      try {
        listener(next, previous);
      } catch (error) {
        this.#log(`settings change listener failed: ${redactSecrets(errorMessage(error))}`);
      }
    }
    return next;
  }

  /** Called after every update that changed something; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}

interface Loaded {
  settings: Settings;
  problems: SettingsProblem[];
  migrated: readonly string[];
}

function load(backend: SettingsBackend, migrations: readonly SettingsMigration[], now: () => Date): Loaded {
  const problems: SettingsProblem[] = [];
  const setAside = (kind: 'corrupt' | 'newer-version', label: string, reason: string, replacement?: string): Loaded => {
    const movedTo = moveAside(backend.path, label, now(), replacement);
    const safeReason = redactSecrets(reason);
    problems.push({
      kind,
      path: backend.path,
      movedTo,
      reason: safeReason,
      message:
        `The settings file ${backend.path} could not be used: ${safeReason}. It was moved to ${movedTo}; ` +
        'default settings are in use.',
    });
    return { settings: defaultSettings(), problems, migrated: [] };
  };

  let raw: unknown;
  try {
    raw = backend.read();
  } catch (error) {
    if (error instanceof CorruptSettingsError) return setAside('corrupt', 'corrupt', error.message);
    throw error;
  }
  if (raw === undefined) return { settings: defaultSettings(), problems, migrated: [] };

  const scrubbed = scrubSecrets(raw);
  // A copy moved aside keeps everything but the secrets.
  const replacement = scrubbed.removed.length > 0 ? `${JSON.stringify(scrubbed.value, null, 2)}\n` : undefined;
  if (scrubbed.removed.length > 0) {
    problems.push({
      kind: 'secret-removed',
      path: backend.path,
      reason: `credentials found in ${scrubbed.removed.join(', ')}`,
      message:
        `The settings file ${backend.path} contained an API key or other credential (${scrubbed.removed.join(', ')}); ` +
        'it was removed from the file. API keys are kept only in the OS keychain.',
    });
  }

  let migrated;
  try {
    migrated = migrateSettings(scrubbed.value, migrations);
  } catch (error) {
    if (!(error instanceof SettingsMigrationError)) throw error;
    if (error.newerVersion !== undefined)
      return setAside('newer-version', `v${error.newerVersion}`, error.message, replacement);
    return setAside('corrupt', 'corrupt', error.message, replacement);
  }
  const parsed = settingsSchema.safeParse(migrated.value);
  if (!parsed.success) {
    const reason = toIssues(parsed.error)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join('; ');
    return setAside('corrupt', 'corrupt', `invalid settings (${reason})`, replacement);
  }
  // Persist what changed on load: migrated ids must stay stable across starts, and a secret must leave the disk now.
  if (migrated.applied.length > 0 || scrubbed.removed.length > 0) backend.write(parsed.data);
  return { settings: parsed.data, problems, migrated: migrated.applied };
}

function applyPatch(current: Settings, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    const section = (SECTIONS as readonly string[]).includes(name) ? current[name as Section] : undefined;
    const merged =
      section && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { ...section, ...value }
        : value;
    // defineProperty, not assignment: a "__proto__" key from untrusted input must stay a field the schema rejects.
    Object.defineProperty(next, name, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return next;
}

const MAX_ISSUES = 5;

function toIssues(error: z.ZodError): SettingsIssue[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.length === 0 ? 'settings' : issue.path.map(String).join('.'),
    message: redactSecrets(issue.message),
  }));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
