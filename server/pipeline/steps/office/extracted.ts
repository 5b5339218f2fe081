/** What a format reader returns: the document's text, its page count where the format knows one, and whether it was cut. */
export interface Extracted {
  text: string;
  pageCount: number | null;
  truncated?: boolean;
}

/** The text kept from one document; a bigger spreadsheet is cut there (with a note). */
export const MAX_OFFICE_CHARS = 5_000_000;

/** Lines without trailing blanks, at most one blank line in a row. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Each text tidied, empty ones and repeats left out (a header shared by several sections is kept once). */
export function distinctTexts(texts: Iterable<string>): string[] {
  const out: string[] = [];
  for (const raw of texts) {
    const text = tidy(raw);
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}
