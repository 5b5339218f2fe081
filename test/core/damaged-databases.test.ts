import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { JournalStore } from '../../main/core/uploads/journal-store.ts';

/** A data directory whose file `name` holds bytes no SQLite database starts with. */
function damaged(name: string): { dir: string; path: string; bytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-db-'));
  const path = join(dir, name);
  const bytes = randomBytes(8192);
  writeFileSync(path, bytes);
  return { dir, path, bytes };
}

describe('a damaged database file', () => {
  it('library cache: moved aside (kept, not deleted) and made anew, with a log line naming both files', () => {
    const { dir, path, bytes } = damaged('library.sqlite');
    const lines: string[] = [];
    const cache = LibraryCache.open(path, (line) => lines.push(line));
    try {
      expect(cache.firstPaint()).toBeNull(); // a working, empty cache
      const aside = readdirSync(dir).filter((name) => name.startsWith('library.sqlite.damaged-'));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir, aside[0]!))).toEqual(bytes);
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(`^library cache: ${path} was damaged \\(.+\\); moved to ${join(dir, aside[0]!)}, the library`),
        ),
      ]);
    } finally {
      cache.close();
    }
  });

  it('upload journal: never replaced; the error names the file and what moving it aside costs', () => {
    const { path, bytes } = damaged('journal.sqlite');
    expect(() => new JournalStore(path)).toThrow(
      new RegExp(
        `^The upload journal ${path} is damaged \\(.+\\)\\. Move it aside and start again: the watched folders`,
      ),
    );
    expect(readFileSync(path)).toEqual(bytes);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
