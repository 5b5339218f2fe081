import { z } from 'zod';
import { uploadMetadataSchema } from './upload-metadata.ts';

/**
 * The desktop app's settings: one schema for the Electron shell (electron-store), plain Node (conf), the headless agent
 * and the settings screen. The API key is never part of it: it lives in the OS keychain.
 * Bump SETTINGS_VERSION and add a migration in main/core/settings when the shape changes.
 */
export const SETTINGS_VERSION = 2;

/** Scanner and OS debris that is never uploaded. Globs match the file's base name. */
export const DEFAULT_IGNORE_PATTERNS = [
  '.*',
  'Thumbs.db',
  'desktop.ini',
  '~$*',
  '*.tmp',
  '*.part',
  '*.crdownload',
  '.~lock*',
] as const;

/** File types the service accepts, by extension (the service checks magic bytes; this only saves a useless read). */
export const SUPPORTED_EXTENSIONS = [
  'pdf',
  'jpg',
  'jpeg',
  'png',
  'tif',
  'tiff',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
  'doc',
  'xls',
  'ppt',
] as const;

export const APPEARANCES = ['light', 'dark', 'system'] as const;
export type Appearance = (typeof APPEARANCES)[number];
export const UI_LANGUAGES = ['en', 'de'] as const;
export const LIBRARY_VIEWS = ['list', 'grid'] as const;
export type LibraryView = (typeof LIBRARY_VIEWS)[number];
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const afterUploadSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('keep') }),
  /** Move into `to`, keeping the sub-folder structure; an existing name gets a " (2)" style suffix, never overwritten. */
  z.strictObject({
    action: z.literal('move'),
    to: z.string().min(1, { error: 'the move target folder must not be empty' }),
  }),
  z.strictObject({ action: z.literal('delete') }),
]);
export type AfterUploadAction = z.infer<typeof afterUploadSchema>;

export const watchedFolderSchema = z.strictObject({
  id: z.string().min(1),
  path: z.string().min(1, { error: 'the folder path must not be empty' }),
  enabled: z.boolean().default(true),
  /** Target space; absent = the key's default space. */
  space_id: z.uuid({ error: 'space_id must be a uuid' }).optional(),
  /** Default upload metadata for every file of this folder (a file's own form wins field by field). */
  metadata: uploadMetadataSchema.default({}),
  recursive: z.boolean().default(true),
  /** Sub-folder names below the watched folder become tags (at most 5 tags in total). */
  subfolder_tags: z.boolean().default(false),
  /** Lower-case extensions without the dot; empty = every supported type. */
  file_types: z.array(z.enum(SUPPORTED_EXTENSIONS)).default([]),
  ignore: z.array(z.string().min(1)).default([...DEFAULT_IGNORE_PATTERNS]),
  after_upload: afterUploadSchema.default({ action: 'keep' }),
  /** Network shares (SMB, NFS, FTP mounts) miss native change events; poll them instead. */
  use_polling: z.boolean().default(false),
  poll_interval_ms: z.number().int().min(100).max(600_000).default(2_000),
  /** Size and mtime must stay unchanged this long before a file counts as complete. */
  stability_window_ms: z.number().int().min(0).max(600_000).default(2_000),
});
export type WatchedFolder = z.infer<typeof watchedFolderSchema>;
export type WatchedFolderInput = z.input<typeof watchedFolderSchema>;

export const connectionSchema = z.discriminatedUnion('mode', [
  /** The embedded Archive Service, started by the app on 127.0.0.1 with its own key. The default on first start. */
  z.strictObject({ mode: z.literal('local'), data_dir: z.string().min(1).optional() }),
  z.strictObject({
    mode: z.literal('hosted'),
    base_url: z.url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' }),
  }),
]);
export type ConnectionSettings = z.infer<typeof connectionSchema>;

/** Where the desktop keeps API keys (Settings → Key storage). */
export const KEY_STORAGES = ['keychain', 'file', 'session'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

export const settingsSchema = z.strictObject({
  version: z.literal(SETTINGS_VERSION),
  connection: connectionSchema.default({ mode: 'local' }),
  /**
   * Where the API key lives: the OS keychain; or, when the user explicitly opted in because no keychain exists, a
   * file readable only by the user; or nowhere, in memory until the app closes (session). Never a silent plaintext
   * fallback.
   */
  key_storage: z.enum(KEY_STORAGES).default('keychain'),
  folders: z.array(watchedFolderSchema).default([]),
  uploads: z
    .strictObject({
      paused: z.boolean().default(false),
      /** Catch-up scan of every watched folder (files that arrived while the app was closed or events were missed). */
      rescan_interval_ms: z.number().int().min(10_000).max(86_400_000).default(300_000),
    })
    .default({ paused: false, rescan_interval_ms: 300_000 }),
  sync: z
    .strictObject({
      interval_ms: z.number().int().min(5_000).max(86_400_000).default(60_000),
      full_reconcile_interval_ms: z
        .number()
        .int()
        .min(60_000)
        .max(7 * 86_400_000)
        .default(3_600_000),
    })
    .default({ interval_ms: 60_000, full_reconcile_interval_ms: 3_600_000 }),
  reminders: z
    .strictObject({
      enabled: z.boolean().default(true),
      days_before: z.number().int().min(0).max(60).default(3),
      on_due_day: z.boolean().default(true),
      /** Local time of the daily overdue digest, HH:MM. */
      digest_time: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'digest_time must be HH:MM' })
        .default('09:00'),
    })
    .default({ enabled: true, days_before: 3, on_due_day: true, digest_time: '09:00' }),
  ui: z
    .strictObject({
      close_to_tray: z.boolean().default(true),
      start_at_login: z.boolean().default(false),
      notify_failed_uploads: z.boolean().default(true),
      /** Colour scheme of the window; `system` follows the OS. */
      appearance: z.enum(APPEARANCES).default('system'),
      /** Language of the UI; null follows the OS (the first supported language it lists, else English). */
      language: z.enum(UI_LANGUAGES).nullable().default(null),
      /**
       * The welcome guide was finished or skipped. Kept here, not in the page's storage: the browser shell's origin
       * changes with its port, and a new origin has empty storage.
       */
      onboarded: z.boolean().default(false),
      /**
       * The Library shows a list or a grid of thumbnails. Here for the same reason as `onboarded`, and because the
       * shells serve the library's first paint only in the view a start shows (main/core/shell/first-paint.ts).
       */
      library_view: z.enum(LIBRARY_VIEWS).default('list'),
      // A missing ui object is parsed as {}, so each field's own default applies: the defaults are written once.
    })
    .prefault({}),
});
export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return settingsSchema.parse({ version: SETTINGS_VERSION });
}
