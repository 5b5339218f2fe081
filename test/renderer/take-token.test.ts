/**
 * The browser shell's token in the page (renderer/src/lib/web-desktop.ts takeToken): taken from the address the app
 * printed, kept in the session, and removed from the address bar with the route left as it was.
 */
import { describe, expect, it } from 'vitest';
import { takeToken, type HistoryLike, type LocationLike } from '../../renderer/src/lib/web-desktop.ts';
import type { StorageLike } from '../../renderer/src/lib/ui-prefs.ts';

function session(): StorageLike & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

function at(search: string, hash: string): LocationLike {
  return { host: '127.0.0.1:9', pathname: '/', search, hash };
}

function history(): HistoryLike & { urls: string[] } {
  const urls: string[] = [];
  return { urls, replaceState: (_data, _unused, url) => void urls.push(String(url)) };
}

describe('takeToken', () => {
  it('takes the token from the query, keeps the route in the hash and any other query', () => {
    const storage = session();
    const h = history();
    expect(takeToken(at('?token=abc', '#/due'), storage, h)).toBe('abc');
    expect(h.urls).toEqual(['/#/due']);
    expect([...storage.map.values()]).toEqual(['abc']);
    const other = history();
    expect(takeToken(at('?lang=de&token=xyz', ''), session(), other)).toBe('xyz');
    expect(other.urls).toEqual(['/?lang=de']);
  });

  it('still takes the token from the hash (an address of an earlier version), and drops that hash', () => {
    const h = history();
    expect(takeToken(at('', '#token=old'), session(), h)).toBe('old');
    expect(h.urls).toEqual(['/']);
  });

  it('without one in the address, the token kept in the session; without that, none', () => {
    const storage = session();
    storage.setItem('desktop-archive.token', 'kept');
    const h = history();
    expect(takeToken(at('', '#/library'), storage, h)).toBe('kept');
    expect(takeToken(at('', ''), session(), h)).toBeNull();
    expect(h.urls).toEqual([]);
  });
});
