export type BulkKeyAction = 'delete' | 'restore' | 'reprocess';

/** The keys of the bulk actions, as the shortcuts dialog and aria-keyshortcuts name them. */
export const BULK_KEYS: Record<BulkKeyAction, string> = { delete: 'Delete', restore: 'Shift+R', reprocess: 'r' };

/**
 * The bulk action a key starts in the library list. Each action has its own key in every view: Delete only ever
 * deletes (in the Deleted view it does nothing; it used to restore there, the opposite of what it says), Shift+R
 * restores in the Deleted view, r reprocesses in the active view.
 */
export function bulkKeyAction(key: string, deleted: boolean): BulkKeyAction | null {
  if (deleted) return key === 'R' ? 'restore' : null;
  if (key === 'Delete') return 'delete';
  if (key === 'r') return 'reprocess';
  return null;
}
