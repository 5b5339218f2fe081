/** SQLite's result codes for a file that is not a database (SQLITE_NOTADB) or whose pages are corrupt (SQLITE_CORRUPT). */
const DAMAGED = new Set([11, 26]);

/** The error of node:sqlite says the database file itself is damaged, as opposed to locked, full or missing. */
export function isDamagedDatabase(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && DAMAGED.has(errcode & 0xff);
}
