import type { CallName, EventName } from './ipc.ts';

/**
 * The names of the contract's calls and events, and the upload states, without the zod schemas of ipc.ts: what the
 * renderer's bridge and screens need at run time. Importing ipc.ts would put zod and the construction of every schema
 * into the renderer's entry script, the largest part of its start-up; ipc.ts checks at compile time that these lists
 * and its CALLS and EVENTS name exactly the same things.
 */
export const CALL_NAME_LIST = [
  'status.get',
  'settings.get',
  'settings.update',
  'connection.test',
  'connection.setKey',
  'library.list',
  'library.search',
  'library.sync',
  'library.saveFirstPaint',
  'documents.get',
  'documents.preview',
  'documents.saveAs',
  'documents.open',
  'documents.update',
  'documents.delete',
  'documents.restore',
  'documents.reprocess',
  'events.list',
  'events.get',
  'events.setState',
  'events.update',
  'events.due',
  'events.snooze',
  'events.exportIcs',
  'uploads.list',
  'uploads.add',
  'uploads.retry',
  'uploads.pauseItem',
  'uploads.remove',
  'uploads.pause',
  'uploads.resume',
  'uploads.counts',
  'folders.list',
  'folders.save',
  'folders.remove',
  'folders.rescan',
  'folders.browse',
  'catalog.spaces',
  'catalog.categories',
  'catalog.tags',
  'dialogs.pickFolder',
] as const;

export const EVENT_NAME_LIST = [
  'status.changed',
  'uploads.item',
  'uploads.removed',
  'uploads.progress',
  'uploads.counts',
  'library.changed',
  'notification',
  'folders.status',
] as const;

export const UPLOAD_ITEM_STATES = [
  'queued',
  'hashing',
  'waiting',
  'uploading',
  'accepted',
  'done',
  'failed',
  'paused',
] as const;

export const CALL_NAMES: readonly CallName[] = CALL_NAME_LIST;
export const EVENT_NAMES: readonly EventName[] = EVENT_NAME_LIST;

/** documents.saveAs: the folder typed is not there (the renderer offers to create it). Here, not in ipc.ts: no zod. */
export const SAVE_FOLDER_MISSING = 'The folder does not exist';

/**
 * The browser shell's POST /files (chosen and dropped files): files per request, and each file's limit, the service's
 * 50 MB. The page's bridge checks both before sending, the shell again on receiving.
 */
export const CHOSEN_FILES_PER_REQUEST = 20;
export const CHOSEN_FILE_MAX_BYTES = 50 * 1024 * 1024;
