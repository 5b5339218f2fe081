import { describe, expect, it } from 'vitest';
import { isStorageFull, storageFull } from '../../server/http/storage-full.ts';

describe('isStorageFull', () => {
  it('knows a full disk by the file system, SQLite and PostgreSQL, also as the cause of another error', () => {
    expect(isStorageFull(Object.assign(new Error('no space'), { code: 'ENOSPC', syscall: 'write' }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(
      isStorageFull(Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 })),
    ).toBe(true);
    expect(isStorageFull(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    expect(isStorageFull(new Error('staging failed', { cause: { code: 'ENOSPC' } }))).toBe(true);
  });

  it('takes nothing else for it', () => {
    expect(isStorageFull(Object.assign(new Error('locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }))).toBe(false);
    expect(isStorageFull(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe(false);
    expect(isStorageFull(new Error('Unexpected end of form'))).toBe(false);
    expect(isStorageFull(null)).toBe(false);
  });

  it('is answered 507 with Retry-After, in words a person understands', () => {
    const answer = storageFull();
    expect(answer.status).toBe(507);
    expect(answer.message).toBe("Insufficient storage: the archive's disk is full");
    expect(answer.headers).toEqual({ 'Retry-After': '60' });
  });
});
