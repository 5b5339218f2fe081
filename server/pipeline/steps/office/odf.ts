import { distinctTexts, tidy, type Extracted } from './extracted.ts';
import { TextBuilder } from './text-builder.ts';
import { attributes, decodeEntities, Skipper, xmlEvents } from './xml-events.ts';
import { withZip } from './zip-parts.ts';

/** Elements whose content is not document text: annotations, tracked deletions, declarations, titles of shapes. */
const ODF_SKIPPED = [
  'office:annotation',
  'office:annotation-end',
  'text:tracked-changes',
  'text:note-citation',
  'svg:title',
  'svg:desc',
  'presentation:notes',
  'text:sequence-decls',
  'text:variable-decls',
  'table:table-source',
  'office:forms',
  'text:bibliography-source',
  'text:table-of-content-source',
  'text:index-title-template',
  'draw:object',
];

/** Caps repeats of empty cells (spreadsheets repeat the last empty column up to column XFD). */
const MAX_REPEATED_CELLS = 50;

/**
 * ODT, ODS and ODP from content.xml. Text documents get their page header and footer (styles.xml) around the body and
 * their page count from meta.xml; a spreadsheet with several sheets shows each under its name; a presentation counts
 * its slides as pages.
 */
export function odfText(path: string): Promise<Extracted> {
  return withZip(path, async (parts) => {
    const content = await parts.required('content.xml');
    const counters = { pages: 0, sheets: [] as string[] };
    const body = odfBodyText(content, counters);
    const isSpreadsheet = /<office:spreadsheet[\s>]/.test(content);
    const isPresentation = /<office:presentation[\s>]/.test(content);
    if (isSpreadsheet || isPresentation) {
      const text = isSpreadsheet && counters.sheets.length > 1 ? labelledSheets(content) : body;
      return { text, pageCount: isPresentation ? counters.pages : null };
    }
    let text = body;
    // Letterheads often live in the page header and footer (styles.xml), e.g. a sender's address and bank details.
    const styles = await parts.text('styles.xml');
    if (styles) {
      const header = tidy(odfSection(styles, 'style:header'));
      const footer = tidy(odfSection(styles, 'style:footer'));
      text = [header, body, footer].filter(Boolean).join('\n\n');
    }
    const meta = await parts.text('meta.xml');
    const pages = meta ? Number(/meta:page-count="(\d+)"/.exec(meta)?.[1] ?? NaN) : NaN;
    return { text, pageCount: Number.isInteger(pages) && pages > 0 ? pages : null };
  });
}

function odfBodyText(xml: string, counters: { pages: number; sheets: string[] }): string {
  const out = new TextBuilder();
  const skipper = new Skipper(ODF_SKIPPED);
  let paragraphDepth = 0;
  let cellRepeat = 1;
  for (const event of xmlEvents(xml)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'text') {
      // ODF collapses white space in paragraphs; spaces that count are written as <text:s/>.
      if (paragraphDepth > 0) out.text(event.text.replace(/\s+/g, ' '));
      continue;
    }
    const name = event.name;
    if (event.kind === 'open') {
      const attrs = event.raw ? attributes(event.raw) : new Map<string, string>();
      if (name === 'text:p' || name === 'text:h') {
        if (event.selfClosing) out.paragraphEnd();
        else paragraphDepth++;
      } else if (name === 'text:s') out.text(' '.repeat(Math.min(100, Math.max(1, Number(attrs.get('text:c') ?? 1)))));
      else if (name === 'text:tab') out.tab();
      else if (name === 'text:line-break') out.lineBreak();
      else if (name === 'table:table-cell' || name === 'table:covered-table-cell') {
        cellRepeat = Math.max(1, Math.min(MAX_REPEATED_CELLS, Number(attrs.get('table:number-columns-repeated') ?? 1)));
        out.cellStart();
        if (event.selfClosing) endCell(out, cellRepeat);
      } else if (name === 'table:table') {
        counters.sheets.push(attrs.get('table:name') ?? '');
        out.blankLine();
      } else if (name === 'draw:page') counters.pages++;
    } else {
      if (name === 'text:p' || name === 'text:h') {
        paragraphDepth = Math.max(0, paragraphDepth - 1);
        out.paragraphEnd();
      } else if (name === 'table:table-cell' || name === 'table:covered-table-cell') {
        endCell(out, cellRepeat);
      } else if (name === 'table:table-row') out.rowEnd();
      else if (name === 'table:table' || name === 'draw:page' || name === 'draw:frame') out.blankLine();
    }
  }
  return out.toString();
}

/** A cell repeated over several columns: its text once, then one more column separator for each further column. */
function endCell(out: TextBuilder, repeat: number): void {
  out.cellEnd();
  out.text('\t'.repeat(repeat - 1));
}

/** The text of every element `name` (e.g. the page headers in styles.xml), deduplicated. */
function odfSection(xml: string, name: string): string {
  const pattern = new RegExp(`<${name}[\\s>][\\s\\S]*?</${name}>`, 'g');
  return distinctTexts([...xml.matchAll(pattern)].map((match) => odfBodyText(match[0], { pages: 0, sheets: [] }))).join(
    '\n',
  );
}

/** Spreadsheets with several sheets: each sheet's text under its name. */
function labelledSheets(content: string): string {
  const out: string[] = [];
  for (const match of content.matchAll(/<table:table\s[^>]*>[\s\S]*?<\/table:table>/g)) {
    const name = decodeEntities(/table:name="([^"]*)"/.exec(match[0])?.[1] ?? '');
    const text = tidy(odfBodyText(match[0], { pages: 0, sheets: [] }));
    if (text) out.push(`${name}\n${text}`);
  }
  return out.join('\n\n');
}
