import { z } from 'zod';
import { isAbsolutePath } from './absolute-path.ts';
import { DOCUMENT_SORT_FIELDS, DOCUMENT_STATUSES, EVENT_STATES, EVENT_TYPES } from './archive-types.ts';
import {
  amountSchema,
  calendarDate,
  categorySchema,
  documentDetailSchema,
  documentSchema,
  eventDetailSchema,
  eventSchema,
  isoTimestamp,
  keyInfoSchema,
  searchHitSchema,
  spaceSchema,
  tagSchema,
  uuid,
} from './archive-schemas.ts';
import {
  APPEARANCES,
  connectionSchema,
  KEY_STORAGES,
  LIBRARY_VIEWS,
  settingsSchema,
  UI_LANGUAGES,
  watchedFolderSchema,
  type Settings,
} from './settings.ts';
import { FIRST_PAINT_MAX_CHARS } from './first-paint.ts';
import { CALL_NAME_LIST, EVENT_NAME_LIST, UPLOAD_ITEM_STATES } from './ipc-names.ts';
import { uploadMetadataSchema } from './upload-metadata.ts';
import { eventPatchFields } from './event-patch.ts';

export { CALL_NAMES, EVENT_NAMES, UPLOAD_ITEM_STATES } from './ipc-names.ts';

/**
 * The contract between the desktop main process and the renderer: every call with its request and response schema,
 * every event with its payload schema. The Electron shell registers one handler per call by looping over `CALLS`
 * and parses arguments with these schemas; the preload exposes exactly these functions as `window.desktop`; the
 * browser shell carries the same contract over a loopback WebSocket. Types come from z.infer, never by hand.
 */

// The service's resources (and the primitives their ids and dates are checked with): one set of schemas, shared with
// the archive client that parses every answer of a service with them.
export {
  documentSchema,
  documentDetailSchema,
  eventSchema,
  eventDetailSchema,
  spaceSchema,
  categorySchema,
  tagSchema,
  keyInfoSchema,
};
/**
 * A row of the library list: the document as the service describes it, plus the amount of its event from the local
 * cache (what a grid card shows beside sender and date; null when no event of it has one, absent from search hits).
 */
export const libraryRowSchema = documentSchema.extend({ amount: amountSchema.nullable().optional() });
export type DocumentView = z.infer<typeof libraryRowSchema>;
export type EventView = z.infer<typeof eventSchema>;

export const uploadItemSchema = z.object({
  id: z.number(),
  source: z.enum(['folder', 'manual']),
  folder_id: z.string().nullable(),
  path: z.string(),
  relative_path: z.string(),
  file_name: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
  sha256: z.string().nullable(),
  space_id: z.string().nullable(),
  metadata: uploadMetadataSchema,
  state: z.enum(UPLOAD_ITEM_STATES),
  attempts: z.number(),
  next_attempt_at: z.number(),
  last_error: z.string().nullable(),
  document_id: z.string().nullable(),
  duplicate_of: z.string().nullable(),
  after_upload: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type UploadItemView = z.infer<typeof uploadItemSchema>;
export const uploadCountsSchema = z.record(z.enum(UPLOAD_ITEM_STATES), z.number());

export const folderStatusSchema = z.object({
  folderId: z.string(),
  path: z.string(),
  state: z.enum(['starting', 'watching', 'missing', 'error', 'disabled']),
  error: z.string().optional(),
});

export const connectionStatusSchema = z.object({
  mode: z.enum(['local', 'hosted']),
  base_url: z.string(),
  online: z.boolean(),
  /** The service refused the key (or none is set): the UI asks for a new one. */
  auth_required: z.boolean(),
  uploads_paused: z.boolean(),
  reason: z.string().nullable(),
  key_storage: z.enum(['keychain', 'session', 'file']),
  /** Shown as a banner: e.g. no keychain, the key lives for this session only. */
  key_warning: z.string().nullable(),
  /** Settings problems found at start (a corrupt file moved aside...). */
  settings_problems: z.array(z.string()),
  last_sync_at: z.string().nullable(),
  due_count: z.number(),
  /** Local mode: the directory of the embedded archive (shown in onboarding); null or absent when hosted or unknown. */
  archive_dir: z.string().nullable().optional(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

export const bulkResultSchema = z.object({
  done: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string() })),
});

const currencyTotal = z.object({ currency: z.string(), value: z.number(), count: z.number() });
/** A due event with what the due view shows beside it (main/core/library/due-items.ts, DueEvent). */
export const dueEventSchema = eventSchema.extend({
  term_end: calendarDate.optional().describe("A notice deadline: the end of its contract's or policy's term."),
  possible_duplicates: z
    .array(eventSchema)
    .optional()
    .describe('Events of documents flagged as possible duplicates of this one: shown with it, counted once.'),
});
export type DueEventView = z.infer<typeof dueEventSchema>;
const dueGroup = z.object({ items: z.array(dueEventSchema), totals: z.array(currencyTotal) });
export const dueItemsSchema = z.object({
  today: z.string(),
  overdue: dueGroup,
  /** ISO weeks (e.g. 2026-W51, Monday to Sunday), the current one first. */
  weeks: z.array(dueGroup.extend({ week: z.string(), starts: z.string(), ends: z.string() })),
  totals: z.array(currencyTotal),
  count: z.number(),
  /** Contracts and policies in force with an end date: the end and the last day to give notice (null: unknown). */
  terms: z.array(z.object({ event: eventSchema, notice_deadline: calendarDate.nullable() })),
});

export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  eventIds: z.array(z.string()),
  kind: z.enum(['reminder', 'digest', 'summary', 'upload-failed']),
  /** The queue item of an upload-failed notification: a click opens the queue on that row. */
  uploadId: z.number().int().optional(),
});
export type DesktopNotification = z.infer<typeof notificationSchema>;

// ---- requests ----------------------------------------------------------------------------------------------------

const ids = z
  .array(uuid)
  .min(1, { error: 'select at least one document' })
  .max(50, { error: 'at most 50 documents at once' });

export const libraryQuerySchema = z.strictObject({
  sort_by: z.enum(DOCUMENT_SORT_FIELDS).default('created_at'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
  space_id: uuid.optional(),
  category_id: uuid.optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  created_after: isoTimestamp.optional(),
  tags: z.array(z.string().min(1)).max(5).optional(),
  deleted: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});
export type LibraryQuery = z.infer<typeof libraryQuerySchema>;

export const eventQuerySchema = z.strictObject({
  states: z.array(z.enum(EVENT_STATES)).optional(),
  types: z.array(z.enum(EVENT_TYPES)).optional(),
  due_after: calendarDate.optional(),
  due_before: calendarDate.optional(),
  document_id: uuid.optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});
export type EventQuery = z.infer<typeof eventQuerySchema>;

export const connectionTestSchema = z.strictObject({
  mode: z.enum(['local', 'hosted']),
  base_url: z.url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' }).optional(),
  /** A key to try; never stored by the test. Without it the stored key is tried. */
  api_key: z.string().min(1).optional(),
});

/** Partial settings: each section merged, `folders` replaced whole (use folders.save / folders.remove instead). */
export const settingsPatchSchema = z.strictObject({
  // Not settingsSchema.shape.connection: that carries the file's default (local mode), and zod 4 applies a default
  // inside optional(), so every patch without a connection would switch a hosted setup to local mode.
  connection: connectionSchema.optional(),
  key_storage: z.enum(KEY_STORAGES).optional(),
  uploads: z
    .strictObject({ paused: z.boolean().optional(), rescan_interval_ms: z.number().int().optional() })
    .optional(),
  sync: z
    .strictObject({ interval_ms: z.number().int().optional(), full_reconcile_interval_ms: z.number().int().optional() })
    .optional(),
  reminders: z
    .strictObject({
      enabled: z.boolean().optional(),
      days_before: z.number().int().optional(),
      on_due_day: z.boolean().optional(),
      digest_time: z.string().optional(),
    })
    .optional(),
  ui: z
    .strictObject({
      close_to_tray: z.boolean().optional(),
      start_at_login: z.boolean().optional(),
      notify_failed_uploads: z.boolean().optional(),
      appearance: z.enum(APPEARANCES).optional(),
      language: z.enum(UI_LANGUAGES).nullable().optional(),
      onboarded: z.boolean().optional(),
      library_view: z.enum(LIBRARY_VIEWS).optional(),
    })
    .optional(),
});

/**
 * events.update: the event's id and the fields of PATCH /v1/events/{id}, validated as the service does (every field
 * optional, null clears it). The renderer's edit form parses with this schema too, so it shows the same messages before
 * anything is sent.
 */
export const eventUpdateSchema = z.strictObject({ id: uuid, ...eventPatchFields });
export type EventUpdate = z.infer<typeof eventUpdateSchema>;

/**
 * documents.update: the document's id and the fields of PATCH /v1/documents/{id}, validated as the service does. The
 * renderer's edit forms parse with it too, so a bad value is named before anything is sent.
 */
export const documentUpdateSchema = z.strictObject({
  id: uuid,
  title: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(500, { error: 'at most 500 characters' })
    .optional(),
  document_date: calendarDate.nullable().optional(),
  category_id: uuid.nullable().optional(),
  tags: z
    .array(z.string().trim().min(1, { error: 'must not be empty' }).max(100, { error: 'at most 100 characters' }))
    .max(50, { error: 'at most 50 tags' })
    .optional(),
  sender_name: eventPatchFields.sender_name,
  event_type: eventPatchFields.event_type,
  /** null: "not a duplicate", the document and the one its possible_duplicate_of named are different bills. */
  possible_duplicate_of: z.null().optional(),
});
export type DocumentUpdate = z.infer<typeof documentUpdateSchema>;

/** A folder of the user's home and the folders inside it (folders.browse: the browser shell's folder picker). */
export const folderListingSchema = z.object({
  path: z.string(),
  /** The folder above, or null at the home folder (browsing stops there). */
  parent: z.string().nullable(),
  home: z.string(),
  folders: z.array(z.object({ name: z.string(), path: z.string() })),
  /** More folders than a listing shows: the rest are left out (type the path instead). */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof folderListingSchema>;

// ---- the contract ------------------------------------------------------------------------------------------------

const none = z.undefined();
/** A file or folder on this computer, named the same whatever main's working directory is (common/absolute-path.ts). */
const absolutePath = z.string().min(1).refine(isAbsolutePath, { error: 'must be an absolute path' });
/** A watched folder from the form: the folder and a move target absolute (a settings file may keep older ones). */
const folderInput = watchedFolderSchema
  .partial({ id: true })
  .refine((folder) => isAbsolutePath(folder.path), { path: ['path'], error: 'must be an absolute path' })
  .refine((folder) => folder.after_upload.action !== 'move' || isAbsolutePath(folder.after_upload.to), {
    path: ['after_upload', 'to'],
    error: 'must be an absolute path',
  });
const call = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

export const CALLS = {
  // connection and settings
  'status.get': call(none, connectionStatusSchema),
  'settings.get': call(none, settingsSchema),
  'settings.update': call(settingsPatchSchema, settingsSchema),
  /** Tries a service and a key: the key's scopes and spaces, or the service's error. Stores nothing. */
  'connection.test': call(
    connectionTestSchema,
    z.object({
      ok: z.boolean(),
      error: z.string().nullable(),
      key: keyInfoSchema.nullable(),
      spaces: z.array(spaceSchema),
    }),
  ),
  /** Stores the key in the keychain for the current service and resumes paused work. */
  'connection.setKey': call(
    z.strictObject({ api_key: z.string().min(1, { error: 'the API key must not be empty' }) }),
    none,
  ),

  // library (served from the local cache, so it works offline)
  'library.list': call(libraryQuerySchema, z.object({ items: z.array(libraryRowSchema), total: z.number() })),
  'library.search': call(
    z.strictObject({
      query: z.string().trim().min(1, { error: 'type something to search for' }).max(500),
      limit: z.number().int().min(1).max(100).default(50),
      space_id: uuid.optional(),
    }),
    z.object({ items: z.array(searchHitSchema), total: z.number() }),
  ),
  'library.sync': call(none, z.object({ added: z.number(), updated: z.number(), removed: z.number() })),
  /**
   * The library screen's markup as the renderer painted it, in its language and build: the shells show it before the app's
   * scripts have run (main/core/shell/first-paint.ts). Kept in the library cache, so it goes with the archive's data.
   */
  'library.saveFirstPaint': call(
    z.strictObject({
      html: z.string().max(FIRST_PAINT_MAX_CHARS, { error: 'the first paint is too large to keep' }),
      lang: z.enum(UI_LANGUAGES),
      /** The built files its markup belongs to (first-paint.ts buildOf): another build's classes would not match. */
      build: z.string().max(1_000),
      /** The Library's view it shows: served only while the settings' view is the same. */
      view: z.enum(LIBRARY_VIEWS),
    }),
    none,
  ),

  // documents
  'documents.get': call(z.strictObject({ id: uuid }), documentDetailSchema),
  /** A URL the renderer may load the document's bytes from (the preview protocol; never a signed service URL). */
  'documents.preview': call(
    z.strictObject({ id: uuid }),
    z.object({ url: z.string(), mime_type: z.string(), file_name: z.string(), size: z.number() }),
  ),
  /** Saves the file under its Content-Disposition name into `directory` (the shell asks the user where). */
  /**
   * Saves a copy into `directory`. A folder that does not exist is refused (409, SAVE_FOLDER_MISSING) unless
   * `create_folders` says to make it: a typo must not quietly become a new folder.
   */
  'documents.saveAs': call(
    z.strictObject({ id: uuid, directory: absolutePath, create_folders: z.boolean().optional() }),
    z.object({ path: z.string() }),
  ),
  /**
   * Opens the file in the system's app for its type (Office documents have no preview). `opened: false`: this shell
   * cannot open files on the user's desktop; the renderer offers Save as instead.
   */
  'documents.open': call(z.strictObject({ id: uuid }), z.object({ opened: z.boolean() })),
  /**
   * Hand edits (PATCH /v1/documents/{id}): only the fields given change; null clears one. A corrected sender,
   * category or tags is learned by the service for the sender's later documents; `event_type` is the document's type.
   */
  'documents.update': call(documentUpdateSchema, documentDetailSchema),
  'documents.delete': call(z.strictObject({ ids }), bulkResultSchema),
  'documents.restore': call(z.strictObject({ ids }), bulkResultSchema),
  'documents.reprocess': call(
    z.strictObject({ ids }),
    z.object({
      queued: z.array(z.string()),
      alreadyProcessing: z.array(z.string()),
      skippedPending: z.array(z.string()),
      denied: z.array(z.string()),
      notFound: z.array(z.string()),
    }),
  ),

  // events and due items
  'events.list': call(eventQuerySchema, z.object({ items: z.array(eventSchema), total: z.number() })),
  'events.get': call(z.strictObject({ id: uuid }), eventDetailSchema),
  'events.setState': call(
    z.strictObject({
      id: uuid,
      state: z.enum(EVENT_STATES),
      paid_at: calendarDate.optional(),
      cause: z.string().min(1).max(200).optional(),
    }),
    eventDetailSchema,
  ),
  /**
   * Hand edits of an event (type, amount, due date, reference, sender), kept across reprocessing; the service decides
   * the state again (an invoice in needs_input opens once it has an amount). Answers the EventDetail after the edit.
   */
  'events.update': call(eventUpdateSchema, eventDetailSchema),
  /** Open and needs-input events with a due date: overdue, then by ISO week, with totals per currency. */
  'events.due': call(
    z.strictObject({
      types: z.array(z.enum(EVENT_TYPES)).optional(),
      until: calendarDate.optional(),
    }),
    dueItemsSchema,
  ),
  'events.snooze': call(z.strictObject({ id: uuid, until: isoTimestamp }), none),
  /** The open due events as an iCalendar file's text (the shell offers to save it). */
  'events.exportIcs': call(none, z.object({ ics: z.string(), count: z.number() })),

  // uploads
  'uploads.list': call(
    z.strictObject({
      states: z.array(z.enum(UPLOAD_ITEM_STATES)).optional(),
      limit: z.number().int().min(1).max(500).default(200),
      offset: z.number().int().min(0).default(0),
    }),
    z.object({ items: z.array(uploadItemSchema), total: z.number() }),
  ),
  /** Files (or folders: their supported files) dropped on the app, with the metadata form. */
  'uploads.add': call(
    z.strictObject({
      paths: z.array(absolutePath).min(1, { error: 'no files given' }).max(10_000),
      space_id: uuid.optional(),
      metadata: uploadMetadataSchema.optional(),
    }),
    z.array(uploadItemSchema),
  ),
  'uploads.retry': call(z.strictObject({ id: z.number().int() }), uploadItemSchema.nullable()),
  'uploads.pauseItem': call(z.strictObject({ id: z.number().int() }), uploadItemSchema.nullable()),
  'uploads.remove': call(z.strictObject({ id: z.number().int() }), z.boolean()),
  'uploads.pause': call(none, none),
  'uploads.resume': call(none, none),
  'uploads.counts': call(none, uploadCountsSchema),

  // watched folders
  'folders.list': call(
    none,
    z.object({ folders: z.array(watchedFolderSchema), statuses: z.array(folderStatusSchema) }),
  ),
  /** Adds (no id or a new one) or replaces a watched folder. */
  'folders.save': call(folderInput, watchedFolderSchema),
  'folders.remove': call(z.strictObject({ id: z.string().min(1) }), z.boolean()),
  'folders.rescan': call(z.strictObject({ id: z.string().min(1).optional() }), none),
  /**
   * The folders inside a folder of the user's home (default: the home itself), for choosing one where the shell has no
   * native picker. Hidden folders are left out; anything outside the home is refused.
   */
  'folders.browse': call(z.strictObject({ path: z.string().min(1).max(4096).optional() }), folderListingSchema),

  // catalog
  'catalog.spaces': call(none, z.array(spaceSchema)),
  'catalog.categories': call(z.strictObject({ space_id: uuid.optional() }), z.array(categorySchema)),
  'catalog.tags': call(none, z.array(tagSchema)),

  // native dialogs
  /** The system's folder picker: the chosen path, null when cancelled; `supported: false` when the shell has none. */
  'dialogs.pickFolder': call(
    z.strictObject({ title: z.string().max(200).optional() }),
    z.object({
      path: z.string().nullable(),
      supported: z.boolean(),
    }),
  ),
} as const;

export const EVENTS = {
  'status.changed': connectionStatusSchema,
  'uploads.item': uploadItemSchema,
  'uploads.removed': z.object({ id: z.number() }),
  'uploads.progress': z.object({ id: z.number(), sent: z.number(), total: z.number() }),
  'uploads.counts': uploadCountsSchema,
  'library.changed': z.object({ document_ids: z.array(z.string()), event_ids: z.array(z.string()) }),
  notification: notificationSchema,
  'folders.status': folderStatusSchema,
} as const;

export type CallName = keyof typeof CALLS;
export type EventName = keyof typeof EVENTS;
export type CallInput<C extends CallName> = z.input<(typeof CALLS)[C]['input']>;
export type CallParsedInput<C extends CallName> = z.output<(typeof CALLS)[C]['input']>;
export type CallOutput<C extends CallName> = z.output<(typeof CALLS)[C]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/**
 * What the renderer sees as `window.desktop`: one async function per call, one subscription per event, and one
 * synchronous helper that is not a channel at all.
 */
export type DesktopApi = {
  [C in CallName]: CallInput<C> extends undefined
    ? () => Promise<CallOutput<C>>
    : (input: CallInput<C>) => Promise<CallOutput<C>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * The path of a file dropped on the window, or null when the shell cannot tell. Not a channel: a preload-local
   * helper (Electron's `webUtils.getPathForFile`, which must run in the renderer process because a File cannot cross
   * IPC); main never sees the File, only the paths the renderer then passes to `uploads.add`. The browser shell's
   * bridge returns null: a web page is never told where a dropped file lives.
   */
  pathForFile(file: File): string | null;
  /**
   * Files the user chose (the "Choose files…" dialog) or dropped, into the upload queue with the form's values. Not a
   * channel either, because a File cannot cross IPC: the Electron preload sends their paths with uploads.add; the
   * browser shell's bridge streams their bytes to the shell's authenticated upload route, which keeps a copy in the
   * app's data directory until the upload is done.
   */
  addFiles(files: readonly File[], options: AddFilesOptions): Promise<UploadItemView[]>;
};

/** What goes with chosen files into the queue: uploads.add's space and metadata. */
export type AddFilesOptions = Omit<CallInput<'uploads.add'>, 'paths'>;

/** What main implements: the same calls, with inputs already parsed by the contract's schemas. */
export type DesktopHandlers = { [C in CallName]: (input: CallParsedInput<C>) => Promise<CallOutput<C>> };

/** The error a call rejects with across the bridge: a message for the user, and the service's status when it had one. */
export const ipcErrorSchema = z.object({
  message: z.string(),
  status: z.number().optional(),
  issues: z.array(z.string()).optional(),
});
export type IpcError = z.infer<typeof ipcErrorSchema>;

// ipc-names.ts lists the same names without zod (for the renderer); both directions are checked here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: [Same<(typeof CALL_NAME_LIST)[number], CallName>, Same<(typeof EVENT_NAME_LIST)[number], EventName>] =
  [true, true];
void namesMatch;

/** Parses a call's input; the error names the field ("folders.save: path: the folder path must not be empty"). */
export function parseCallInput<C extends CallName>(name: C, input: unknown): CallParsedInput<C> {
  const result = CALLS[name].input.safeParse(input);
  if (result.success) return result.data as CallParsedInput<C>;
  const issues = result.error.issues.map(
    (issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
  );
  throw Object.assign(new Error(`${name}: ${issues.join('; ')}`), { issues });
}

export type { Settings };
