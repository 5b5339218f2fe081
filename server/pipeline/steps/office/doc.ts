import { readFile } from 'node:fs/promises';
import WordExtractor from 'word-extractor';
import { tidy, type Extracted } from './extracted.ts';

/** DOC (word-extractor): headers, body, text boxes, foot- and endnotes, then footers. */
export async function docText(path: string): Promise<Extracted> {
  const document = await new WordExtractor().extract(await readFile(path));
  const parts = [
    document.getHeaders({ includeFooters: false }),
    document.getBody(),
    document.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }),
    document.getFootnotes(),
    document.getEndnotes(),
    document.getFooters(),
  ].map((part) => tidy(part));
  return { text: parts.filter(Boolean).join('\n\n'), pageCount: null };
}
