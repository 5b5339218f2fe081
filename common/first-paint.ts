/** The most markup the library's first paint may keep: a screenful of rows is about 30,000 characters. */
export const FIRST_PAINT_MAX_CHARS = 400_000;
