import { describe, expect, it } from 'vitest';
import { BULK_KEYS, bulkKeyAction } from '../../renderer/src/lib/library-keys.ts';
import { de, en } from '../../common/i18n/messages.ts';

describe('library bulk keys', () => {
  it('Delete deletes in the active view and never restores in the Deleted view', () => {
    expect(bulkKeyAction('Delete', false)).toBe('delete');
    expect(bulkKeyAction('Delete', true)).toBeNull();
  });
  it('restore has its own key, Shift+R, only in the Deleted view; r reprocesses only in the active view', () => {
    expect(bulkKeyAction('R', true)).toBe('restore');
    expect(bulkKeyAction('R', false)).toBeNull();
    expect(bulkKeyAction('r', false)).toBe('reprocess');
    expect(bulkKeyAction('r', true)).toBeNull();
    expect(bulkKeyAction('x', false)).toBeNull();
  });
  it('every action has a distinct key, and the shortcuts dialog has words for restore in both languages', () => {
    expect(new Set(Object.values(BULK_KEYS)).size).toBe(3);
    expect(BULK_KEYS.restore).toBe('Shift+R');
    expect(en['shortcuts.restore']).toMatch(/Restore/);
    expect(de['shortcuts.restore']).toMatch(/wiederherstellen/);
  });
});
